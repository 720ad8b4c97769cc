// SPDX-License-Identifier: GPL-2.0
/*
 * In the zoo board's guest: one TCP stream of MIB MiB between the two
 * NICs, timed on CLOCK_MONOTONIC by the sender from connect() to the
 * receiver's close (every byte delivered). The receiver runs in the
 * network namespace its NIC was moved to (bench/zoo-io/run), so the bytes
 * go out through one driver and in through the other. Under scripts/vm
 * --icount the clock counts guest instructions: both drivers, both
 * network stacks and, with restricted pools, both bounces.
 *
 *   zoo-net-bench recv PORT MIB        accept one stream of MIB MiB
 *   zoo-net-bench send ADDR PORT MIB   prints "RESULT ns bytes"
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK		(64u << 10)
#define CONNECT_SECS	30	/* the receiver may still be starting */
#define IO_SECS		120

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "zoo-net-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void timeouts(int fd)
{
	struct timeval tv = { .tv_sec = IO_SECS };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		die("setsockopt");
}

static int parse(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || end == s || *end || !*v || *v > max ? -1 : 0;
}

static int receive(int port, uint64_t bytes)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[CHUNK];
	int lfd, fd, one = 1;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1))
		die("listen");
	timeouts(lfd);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept");
	timeouts(fd);
	while (bytes) {
		ssize_t n = recv(fd, buf, bytes < CHUNK ? bytes : CHUNK, 0);

		if (n <= 0) {
			if (!n)
				errno = ECONNRESET;
			die("receive");
		}
		bytes -= n;
	}
	close(fd);
	close(lfd);
	return 0;
}

static int send_stream(const char *addr, int port, uint64_t bytes)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[CHUNK];
	uint64_t left = bytes, t0;
	int fd = -1;

	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "zoo-net-bench: %s: not an IPv4 address\n", addr);
		exit(2);
	}
	memset(buf, 0x5a, sizeof(buf));
	for (int i = 0; i < CONNECT_SECS * 10; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			die("socket");
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		close(fd);
		fd = -1;
		usleep(100 * 1000);
	}
	if (fd < 0)
		die("connect");
	timeouts(fd);
	t0 = now_ns();
	while (left) {
		ssize_t n = send(fd, buf, left < CHUNK ? left : CHUNK, MSG_NOSIGNAL);

		if (n <= 0)
			die("send");
		left -= n;
	}
	/* The receiver closes once it has every byte: wait for that. */
	shutdown(fd, SHUT_WR);
	if (recv(fd, buf, 1, 0) != 0)
		die("waiting for the receiver to close");
	printf("RESULT %llu %llu\n", (unsigned long long)(now_ns() - t0),
	       (unsigned long long)bytes);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long port, mib;

	if (argc == 4 && !strcmp(argv[1], "recv") && !parse(argv[2], 65535, &port) &&
	    !parse(argv[3], 4096, &mib))
		return receive((int)port, (uint64_t)mib << 20);
	if (argc == 5 && !strcmp(argv[1], "send") && !parse(argv[3], 65535, &port) &&
	    !parse(argv[4], 4096, &mib))
		return send_stream(argv[2], (int)port, (uint64_t)mib << 20);
	fprintf(stderr, "usage: zoo-net-bench recv PORT MIB\n"
			"       zoo-net-bench send ADDR PORT MIB    (PORT 1-65535, MIB 1-4096)\n");
	return 2;
}
