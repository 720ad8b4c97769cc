// SPDX-License-Identifier: GPL-2.0
/*
 * In the zoo board's guest: O_DIRECT writes then reads of MIB MiB in
 * 1 MiB requests on a disk, then memcpy() of the same bytes between two
 * 1 MiB buffers, each timed on CLOCK_MONOTONIC. Under scripts/vm
 * --icount the guest clock counts instructions and skips the time the
 * guest waits for QEMU's device, so the numbers are the CPU work: the
 * driver, the block layer and, with a restricted pool, the bounce.
 *
 *   zoo-io-bench DISK MIB
 * prints "RESULT write_ns read_ns memcpy_ns bytes".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK	(1u << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uint64_t transfer(int fd, void *buf, unsigned int mib, int write)
{
	uint64_t t0 = now_ns();

	for (unsigned int i = 0; i < mib; i++) {
		ssize_t n = write ? pwrite(fd, buf, CHUNK, (off_t)i * CHUNK) :
				    pread(fd, buf, CHUNK, (off_t)i * CHUNK);

		if (n != CHUNK) {
			fprintf(stderr, "zoo-io-bench: %s at %u MiB: %s\n",
				write ? "write" : "read", i, n < 0 ? strerror(errno) : "short");
			exit(1);
		}
	}
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	uint64_t w, r, m, t0;
	char *a, *b, *end;
	unsigned long mib;
	int fd;

	if (argc != 3 || !(mib = strtoul(argv[2], &end, 10)) || *end || mib > 4096) {
		fprintf(stderr, "usage: zoo-io-bench DISK MIB (1 to 4096)\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0 || posix_memalign((void **)&a, 4096, CHUNK) ||
	    posix_memalign((void **)&b, 4096, CHUNK)) {
		fprintf(stderr, "zoo-io-bench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(a, 0x5a, CHUNK);
	memset(b, 0xa5, CHUNK);
	w = transfer(fd, a, mib, 1);
	r = transfer(fd, a, mib, 0);
	t0 = now_ns();
	for (unsigned long i = 0; i < mib; i++) {
		memcpy(i & 1 ? a : b, i & 1 ? b : a, CHUNK);
		/* keep the copy: the compiler may not drop it */
		__asm__ volatile("" : : "r"(a), "r"(b) : "memory");
	}
	m = now_ns() - t0;
	printf("RESULT %llu %llu %llu %llu\n", (unsigned long long)w, (unsigned long long)r,
	       (unsigned long long)m, (unsigned long long)mib * CHUNK);
	close(fd);
	return 0;
}
