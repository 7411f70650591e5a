// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0sigat IOCTL CMD [ARG...]: runs CMD under ptrace and sends it SIGTERM
 * as it enters its first ioctl IOCTL (a name below or a number), then lets
 * it go on untraced; exits with CMD's status (128 + N if a signal N ended
 * it), 3 if CMD ended without ever making that ioctl. Sandbox tests use it
 * to interrupt a tool at a known point instead of after a guessed delay:
 * 011 stops r0build create at RUN_ARRAY (md) and DM_DEV_SUSPEND (dm, the
 * resume that makes the table live), when the array exists.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <linux/major.h>
#include <linux/raid/md_u.h>

#ifndef __x86_64__
#error "r0sigat reads x86-64 registers (the sandbox guest's architecture)"
#endif

static const struct {
	const char *name;
	unsigned long req;
} known[] = {
	{ "RUN_ARRAY", RUN_ARRAY },
	{ "SET_ARRAY_INFO", SET_ARRAY_INFO },
	{ "DM_DEV_CREATE", DM_DEV_CREATE },
	{ "DM_DEV_SUSPEND", DM_DEV_SUSPEND },
	{ "DM_TABLE_LOAD", DM_TABLE_LOAD },
	{ "BLKGETSIZE64", BLKGETSIZE64 },
};

static int request(const char *s, unsigned long *req)
{
	char *end;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(s, known[i].name)) {
			*req = known[i].req;
			return 0;
		}
	errno = 0;
	*req = strtoul(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

static int exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	struct user_regs_struct regs;
	unsigned long req;
	int status, sig = 0;
	bool entry = false;
	pid_t pid;

	if (argc < 3 || request(argv[1], &req)) {
		fprintf(stderr, "usage: r0sigat RUN_ARRAY|DM_DEV_SUSPEND|...|NUMBER CMD [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("r0sigat: fork");
		return 1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
			_exit(127);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "r0sigat: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	/* the child's SIGSTOP: from here on every syscall entry and exit stops it */
	if (waitpid(pid, &status, 0) < 0 || !WIFSTOPPED(status)) {
		fprintf(stderr, "r0sigat: the child did not stop for tracing\n");
		return 1;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig)) {
			perror("r0sigat: ptrace");
			return 1;
		}
		sig = 0;
		if (waitpid(pid, &status, 0) < 0) {
			perror("r0sigat: waitpid");
			return 1;
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			fprintf(stderr, "r0sigat: %s made no ioctl %s\n", argv[2], argv[1]);
			return 3;
		}
		if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
			/* a signal for the child (execve's SIGTRAP is ours): pass it on */
			sig = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
			continue;
		}
		entry = !entry;
		if (!entry || ptrace(PTRACE_GETREGS, pid, NULL, &regs))
			continue;
		/* the kernel takes the request as 32 bits */
		if (regs.orig_rax == SYS_ioctl && (unsigned)regs.rsi == (unsigned)req)
			break;
	}
	/* at the entry of that ioctl: the signal is pending before the kernel runs it */
	kill(pid, SIGTERM);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	if (waitpid(pid, &status, 0) < 0) {
		perror("r0sigat: waitpid");
		return 1;
	}
	return exit_code(status);
}
