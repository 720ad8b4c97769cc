// SPDX-License-Identifier: GPL-2.0
/*
 * cputime PID: the CPU time PID has used and the monotonic clock, both in
 * ns, on one line. The benchmark's measure of rdmatop's own CPU: the
 * tick-sampled utime and stime of /proc/PID/stat charge a task that runs
 * a few hundred microseconds a second by whether a 4 ms tick happens to
 * land on it; a process CPU clock is the scheduler's exact runtime.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

int main(int argc, char **argv)
{
	struct timespec cpu, mono;
	clockid_t clk;
	char *end;
	long pid;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: cputime PID\n");
		return 2;
	}
	errno = 0;
	pid = strtol(argv[1], &end, 10);
	if (errno || *end || pid <= 0) {
		fprintf(stderr, "cputime: not a process id: '%s'\n", argv[1]);
		return 2;
	}
	err = clock_getcpuclockid((pid_t)pid, &clk);
	if (err) {
		fprintf(stderr, "cputime: process %ld: %s\n", pid, strerror(err));
		return 1;
	}
	if (clock_gettime(clk, &cpu) || clock_gettime(CLOCK_MONOTONIC, &mono)) {
		fprintf(stderr, "cputime: process %ld: %s\n", pid, strerror(errno));
		return 1;
	}
	printf("%lld %lld\n", ns(&cpu), ns(&mono));
	return 0;
}
