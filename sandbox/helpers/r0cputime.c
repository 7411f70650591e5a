// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * r0cputime FILE CMD [ARG...]: runs CMD and writes "USER_S SYS_S" of it
 * (all its threads, the kernel's io_uring workers included) to FILE; exits
 * with CMD's status. recipes/bench/vs-fio measures r0bench and fio with the
 * same ruler this way: fio's own CPU figure counts its job thread only.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: r0cputime FILE CMD [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("r0cputime: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("r0cputime: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("r0cputime: wait4");
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%ld.%06ld %ld.%06ld\n", (long)ru.ru_utime.tv_sec,
			  (long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec,
			  (long)ru.ru_stime.tv_usec) < 0 || fclose(f)) {
		perror("r0cputime: write");
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
