// SPDX-License-Identifier: GPL-2.0-or-later
/* Running another program (mkfs) from a tool: see runcmd.h. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runcmd.h"

extern char **environ;

/* Runs ARGV with no signals blocked and its output on stderr; 0 or the reason. */
int r0_cli_run(char *const argv[], char *why, size_t len)
{
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	sigset_t none;
	pid_t pid;
	int st, err;

	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	err = posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (err) {
		snprintf(why, len, "%s: %s", argv[0], strerror(err));
		return -err;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	snprintf(why, len, "%s exited with %d", argv[0], WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return -EIO;
}
