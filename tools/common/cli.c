// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared output helpers of the tools (util-linux's close_stdout, err()). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "r0/geometry.h"

int r0_cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return R0_EXIT_USAGE;
}

void r0_cli_print_json(json_object *root)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	fputc('\n', stdout);
}

int r0_cli_close_stdout(const char *prog)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno ? errno : EIO));
		return R0_EXIT_FAILURE;
	}
	return R0_EXIT_OK;
}

void r0_cli_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void r0_cli_block_stop_signals(void)
{
	sigset_t set;

	r0_cli_stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static volatile sig_atomic_t stop_flag;

static void on_stop_signal(int sig)
{
	stop_flag = sig;
}

void r0_cli_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

volatile sig_atomic_t *r0_cli_stop_flag(void)
{
	return &stop_flag;
}

bool r0_cli_stop_requested(void)
{
	sigset_t pending;

	if (stop_flag)
		return true;
	sigpending(&pending);
	return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM) ||
	       sigismember(&pending, SIGHUP);
}

int r0_cli_each_item(const char *list, int (*fn)(const char *item, void *arg), void *arg)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (!*copy || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,"))
		err = -EINVAL;
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save))
		err = fn(tok, arg);
	free(copy);
	return err;
}

int r0_cli_add_backend(const char *item, void *arg)
{
	bool *b = arg;

	if (!strcmp(item, "md"))
		b[R0_BACKEND_MD] = true;
	else if (!strcmp(item, "dm"))
		b[R0_BACKEND_DM] = true;
	else
		return -EINVAL;
	return 0;
}
