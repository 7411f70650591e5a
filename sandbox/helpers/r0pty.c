// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0pty ANSWER CMD [ARG...]: runs CMD on a new pseudo-terminal, as a user at
 * a terminal would, types ANSWER and Enter, copies what CMD writes to stdout
 * and exits with CMD's exit status (128 + N for signal N). For the sandbox
 * tests of the question a writing tool asks before it writes.
 */
#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	int master, status;
	ssize_t n;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: r0pty ANSWER CMD [ARG...]\n");
		return 2;
	}
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		perror("r0pty: forkpty");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("r0pty: exec");
		_exit(127);
	}
	/* the line waits in the terminal's input until CMD reads it */
	if (write(master, argv[1], strlen(argv[1])) < 0 || write(master, "\n", 1) < 0)
		perror("r0pty: write");
	/* EIO once CMD has exited and the terminal has no other user */
	while ((n = read(master, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && fwrite(buf, 1, (size_t)n, stdout) != (size_t)n)
			break;
	if (waitpid(pid, &status, 0) < 0) {
		perror("r0pty: waitpid");
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
