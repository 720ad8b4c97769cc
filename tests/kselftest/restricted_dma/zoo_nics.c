// SPDX-License-Identifier: GPL-2.0
/*
 * Real NIC drivers behind restricted pools (the zoo board: an e1000e and a
 * virtio-net NIC on one QEMU hub and nothing else). The second NIC moves
 * into a network namespace of its own, so packets between the two cross
 * the wire, through both drivers and both pools' bounce buffers:
 *   - TCP both ways, 16 MiB each, every byte checked;
 *   - a UDP flood of small datagrams each way, every datagram checked
 *     (loss is allowed and reported: UDP; damage is not);
 * and per NIC: its mappings traced naming the layout's pool, and with
 * those of the other NIC of its pool all the mappings the pool counted;
 * the pool's byte counters grown by at least the streams; no out-of-pool
 * DMA (audit counter and events); and no mapping failed, or, when an
 * overlay shrank the pool below RDMA_SHRUNK_POOL (zoo-exhaust.dtso), the
 * pool ran dry: mappings failed, each one traced. Once both drivers are
 * unbound again, the pools hold exactly the slots they held before the
 * drivers were bound, with as many unmaps as maps and frees as
 * allocations: every slot the drivers took (receive buffers, coherent
 * descriptor rings) came back. The drivers are rebound at the end, as
 * found.
 * On a board without two NICs of role "nic" it skips.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_pattern.h"
#include "rdma_stats.h"
#include "rdma_trace.h"

#define ADDR_A		"10.77.0.1"
#define ADDR_B		"10.77.0.2"
#define TCP_PORT	7001
#define UDP_PORT_A	7003
#define UDP_PORT_B	7002
#define STREAM_BYTES	(16u << 20)
#define FLOOD_N		20000
#define DGRAM		64
#define MAGIC		0x7a6f6f21u
#define END_SEQ		0xffffffffu
#define IO_SECS		30
#define LINK_SECS	30
#define TRACE_KB	16384	/* per CPU: no event of the run lost */

static const char *const events[] = {
	"swiotlb/swiotlb_map", "swiotlb/swiotlb_out_of_pool", "swiotlb/swiotlb_map_failed",
};
#define NEVENTS		((int)ARRAY_SIZE(events))

struct nic {
	const struct rdma_device *dev;
	char driver[64];
	char ifname[IFNAMSIZ];
};

/* What one side saw: the stream it received and the flood it received. */
struct side_result {
	int setup_ok;
	uint64_t stream_ok;	/* bytes received and checked before any damage */
	uint64_t stream_bad;	/* first damaged offset + 1, or 0 */
	uint32_t dgrams, dgrams_bad;
	uint32_t sent;		/* datagrams this side sent */
	char why[160];
};

static void timeouts(int fd, int secs)
{
	struct timeval tv = { .tv_sec = secs };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void fail_why(struct side_result *r, const char *what)
{
	if (!r->why[0])
		snprintf(r->why, sizeof(r->why), "%s: %s", what, strerror(errno));
}

static int stream_send(int fd, uint64_t seed, struct side_result *r)
{
	static uint8_t buf[65536];

	for (uint64_t pos = 0; pos < STREAM_BYTES; ) {
		size_t n = sizeof(buf);
		ssize_t w;

		for (size_t i = 0; i < n; i++)
			buf[i] = rdma_stream_byte(seed, pos + i);
		for (size_t off = 0; off < n; off += w) {
			w = send(fd, buf + off, n - off, MSG_NOSIGNAL);
			if (w <= 0) {
				fail_why(r, "TCP send");
				return -1;
			}
		}
		pos += n;
	}
	return 0;
}

static int stream_recv(int fd, uint64_t seed, struct side_result *r)
{
	static uint8_t buf[65536];

	while (r->stream_ok < STREAM_BYTES) {
		size_t want = STREAM_BYTES - r->stream_ok;
		ssize_t got = recv(fd, buf, want < sizeof(buf) ? want : sizeof(buf), 0);

		if (got <= 0) {
			if (!got)
				errno = ECONNRESET;
			fail_why(r, "TCP receive");
			return -1;
		}
		for (ssize_t i = 0; i < got; i++)
			if (buf[i] != rdma_stream_byte(seed, r->stream_ok + i)) {
				r->stream_bad = r->stream_ok + i + 1;
				snprintf(r->why, sizeof(r->why), "stream byte %llu damaged",
					 (unsigned long long)(r->stream_ok + i));
				return -1;
			}
		r->stream_ok += got;
	}
	return 0;
}

static void dgram_fill(uint8_t *p, uint32_t seq)
{
	uint32_t h[2] = { MAGIC, seq };

	memcpy(p, h, sizeof(h));
	for (int i = 8; i < DGRAM; i++)
		p[i] = rdma_stream_byte(seq, i);
}

static int flood_send(const char *to, int port, struct side_result *r)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	uint8_t p[DGRAM];
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	inet_pton(AF_INET, to, &sa.sin_addr);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fail_why(r, "UDP socket");
		return -1;
	}
	timeouts(fd, IO_SECS);
	for (uint32_t seq = 0; seq < FLOOD_N; seq++) {
		dgram_fill(p, seq);
		/* A full transmit queue drops: that is loss, not failure. */
		if (send(fd, p, DGRAM, 0) == DGRAM)
			r->sent++;
		else if (errno != ENOBUFS && errno != EAGAIN)
			fail_why(r, "UDP send");
	}
	for (int i = 0; i < 5; i++) {
		usleep(20 * 1000);
		dgram_fill(p, END_SEQ);
		send(fd, p, DGRAM, 0);
	}
	close(fd);
	return 0;
}

static int udp_bind(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), sz = 4 << 20;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	timeouts(fd, 3);
	return fd;
}

/* Until the end marker, or 3 s of silence; every datagram checked. */
static void flood_recv(int fd, struct side_result *r)
{
	uint8_t p[DGRAM + 1], want[DGRAM];
	time_t end = time(NULL) + IO_SECS;

	while (time(NULL) < end) {
		ssize_t got = recv(fd, p, sizeof(p), 0);
		uint32_t seq;

		if (got < 0)
			break;
		memcpy(&seq, p + 4, sizeof(seq));
		if (got == DGRAM && seq == END_SEQ)
			break;
		dgram_fill(want, seq);
		if (got != DGRAM || memcmp(p, want, DGRAM) || seq >= FLOOD_N)
			r->dgrams_bad++;
		else
			r->dgrams++;
	}
}

static int ifreq_sock(struct ifreq *ifr, const char *ifname)
{
	memset(ifr, 0, sizeof(*ifr));
	strncpy(ifr->ifr_name, ifname, IFNAMSIZ - 1);
	return socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

/* Address it (/24), bring it up, and wait for its carrier. */
static int if_up(const char *ifname, const char *addr, struct side_result *r)
{
	struct sockaddr_in *sin;
	struct ifreq ifr;
	int fd = ifreq_sock(&ifr, ifname), ret = -1;

	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
	if (fd < 0 || ioctl(fd, SIOCSIFADDR, &ifr)) {
		fail_why(r, "set the address");
		goto out;
	}
	inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
	if (ioctl(fd, SIOCSIFNETMASK, &ifr) || ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		fail_why(r, "set the netmask");
		goto out;
	}
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr)) {
		fail_why(r, "bring the link up");
		goto out;
	}
	for (int i = 0; i < LINK_SECS * 10; i++) {
		if (!ioctl(fd, SIOCGIFFLAGS, &ifr) && (ifr.ifr_flags & IFF_RUNNING)) {
			ret = 0;
			goto out;
		}
		usleep(100 * 1000);
	}
	snprintf(r->why, sizeof(r->why), "%s: no carrier after %d s", ifname, LINK_SECS);
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static void if_down(const char *ifname)
{
	struct ifreq ifr;
	int fd = ifreq_sock(&ifr, ifname);

	if (fd >= 0 && !ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags &= ~IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	if (fd >= 0)
		close(fd);
}

/* RTM_NEWLINK with IFLA_NET_NS_PID: what "ip link set IF netns PID" sends. */
static int move_to_netns(const char *ifname, pid_t pid)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		struct rtattr rta;
		uint32_t pid;
	} req = {
		.nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_NEWLINK,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK },
		.ifi = { .ifi_family = AF_UNSPEC, .ifi_index = (int)if_nametoindex(ifname) },
		.rta = { .rta_len = RTA_LENGTH(sizeof(uint32_t)), .rta_type = IFLA_NET_NS_PID },
		.pid = (uint32_t)pid,
	};
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), ret = -1;

	if (fd < 0 || !req.ifi.ifi_index)
		goto out;
	timeouts(fd, 10);
	if (send(fd, &req, sizeof(req), 0) != sizeof(req) ||
	    recv(fd, &ack, sizeof(ack), 0) < (ssize_t)sizeof(ack.nh))
		goto out;
	if (ack.nh.nlmsg_type == NLMSG_ERROR && ack.err.error) {
		errno = -ack.err.error;
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * The far end, in a network namespace of its own: receive the stream
 * and send one back, receive a flood and send one back.
 */
static void far_end(int from_parent, int to_parent, const char *ifname)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(TCP_PORT) };
	struct side_result r = { 0 };
	int lfd = -1, cfd = -1, ufd = -1, one = 1;
	char c;

	if (unshare(CLONE_NEWNET))
		fail_why(&r, "unshare(CLONE_NEWNET)");
	c = r.why[0] ? 'x' : 'n';
	if (write(to_parent, &c, 1) != 1 || c == 'x' ||
	    read(from_parent, &c, 1) != 1 || c != 'm')
		goto out;	/* the parent could not move the NIC */
	if (if_up(ifname, ADDR_B, &r))
		goto out;
	ufd = udp_bind(UDP_PORT_B);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (ufd < 0 || lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1)) {
		fail_why(&r, "listen");
		goto out;
	}
	r.setup_ok = 1;
	c = 'l';
	if (write(to_parent, &c, 1) != 1)
		goto out;
	timeouts(lfd, IO_SECS);
	cfd = accept(lfd, NULL, NULL);
	if (cfd < 0) {
		fail_why(&r, "accept");
		goto out;
	}
	timeouts(cfd, IO_SECS);
	if (stream_recv(cfd, 1, &r) || stream_send(cfd, 2, &r))
		goto out;
	shutdown(cfd, SHUT_WR);
	flood_recv(ufd, &r);
	flood_send(ADDR_A, UDP_PORT_A, &r);
out:
	if (cfd >= 0)
		close(cfd);
	if (lfd >= 0)
		close(lfd);
	if (ufd >= 0)
		close(ufd);
	if_down(ifname);
	if (write(to_parent, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static int driver_of(const char *devname, char *driver, size_t len)
{
	char dev[PATH_MAX], link[PATH_MAX + 8], target[PATH_MAX];
	ssize_t n;

	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return -ENOENT;
	snprintf(link, sizeof(link), "%s/driver", dev);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	snprintf(driver, len, "%s", basename(target));
	return 0;
}

static int pci_bind(const struct nic *n, bool bind)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/%s", n->driver,
		 bind ? "bind" : "unbind");
	return rdma_write_str(path, n->dev->name);
}

/* Both NICs' interfaces, waiting for them after a bind. */
static int find_ifnames(struct nic *nics)
{
	for (int i = 0; i < 2; i++)
		if (rdma_device_class_wait(nics[i].dev->name, "net", nics[i].ifname,
					   sizeof(nics[i].ifname), LINK_SECS))
			return -1;
	return 0;
}

static void pools_read(struct nic *nics, struct rdma_stats *st)
{
	for (int i = 0; i < 2; i++)
		if (rdma_stats_read(nics[i].dev->pool, &st[i]))
			st[i].n = 0;	/* every rdma_stat() of it: UINT64_MAX */
}

/* Wait until the pool's map count holds still for a second; its stats then. */
static int pool_quiet(const char *pool, struct rdma_stats *st)
{
	uint64_t last = UINT64_MAX;
	int still = 0;

	for (int i = 0; i < LINK_SECS * 5; i++) {
		if (rdma_stats_read(pool, st))
			return -1;
		still = rdma_stat(st, "maps") == last ? still + 1 : 0;
		if (still == 5)
			return 0;
		last = rdma_stat(st, "maps");
		usleep(200 * 1000);
	}
	return -1;
}

/* The pool's counters went full circle between two unbound states. */
static bool pool_whole(const struct rdma_stats *a, const struct rdma_stats *b)
{
	return rdma_stat(a, "used") != UINT64_MAX && rdma_stat(a, "used") == rdma_stat(b, "used") &&
	       rdma_stat_delta(a, b, "maps") == rdma_stat_delta(a, b, "unmaps") &&
	       rdma_stat_delta(a, b, "allocs") == rdma_stat_delta(a, b, "frees");
}

int main(void)
{
	struct side_result near = { 0 }, far = { 0 };
	struct rdma_stats base[2], before[2], after[2], gone[2];
	long maps[2], failed[2], lost;
	unsigned int trace_kb;
	int p2c[2], c2p[2], fd = -1, ufd = -1;
	struct nic nics[2] = { 0 };
	struct rdma_board b;
	pid_t pid;
	char c, *trace;
	int n = 0;

	rdma_board_load(&b);
	for (int i = 0; i < b.ndevices; i++)
		if (!strcmp(b.devices[i].role, "nic") && n < 2)
			nics[n++].dev = &b.devices[i];
	if (n < 2)
		ksft_exit_skip("the board has no NIC pair (the zoo board has: scripts/vm --board zoo)\n");
	ksft_print_header();
	ksft_set_plan(4 + 4 * 2);

	for (int i = 0; i < 2; i++)
		if (driver_of(nics[i].dev->name, nics[i].driver, sizeof(nics[i].driver)))
			ksft_exit_fail_msg("NIC %s has no driver\n", nics[i].dev->name);
	/* The baseline: neither driver bound, so neither holds a slot. */
	for (int i = 0; i < 2; i++)
		if (pci_bind(&nics[i], false))
			ksft_exit_fail_msg("cannot unbind %s from %s\n", nics[i].dev->name,
					   nics[i].driver);
	pools_read(nics, base);
	for (int i = 0; i < 2; i++)
		if (pci_bind(&nics[i], true))
			ksft_exit_fail_msg("cannot bind %s to %s again\n", nics[i].dev->name,
					   nics[i].driver);
	if (find_ifnames(nics))
		ksft_exit_fail_msg("the NICs have no interfaces after their drivers bound\n");
	for (int i = 0; i < 2; i++)
		ksft_print_msg("NIC %s: %s, interface %s, pool %s\n", nics[i].dev->name,
			       nics[i].driver, nics[i].ifname, nics[i].dev->pool);

	/*
	 * Freshly bound drivers may still be filling their receive rings:
	 * trace and count from when the pools are quiet.
	 */
	for (int i = 0; i < 2; i++)
		if (pool_quiet(nics[i].dev->pool, &before[i]))
			ksft_exit_fail_msg("pool %s: no statistics, or never quiet\n",
					   nics[i].dev->pool);
	if (rdma_trace_buffer_kb(TRACE_KB, &trace_kb) || rdma_trace_start_events(events, NEVENTS))
		ksft_exit_fail_msg("cannot trace the swiotlb events\n");
	pools_read(nics, before);

	if (pipe2(p2c, O_CLOEXEC) || pipe2(c2p, O_CLOEXEC))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		far_end(p2c[0], c2p[1], nics[1].ifname);
	close(p2c[0]);
	close(c2p[1]);

	c = 'x';
	if (read(c2p[0], &c, 1) != 1 || c != 'n')
		snprintf(near.why, sizeof(near.why), "the far end has no namespace");
	else if (move_to_netns(nics[1].ifname, pid))
		fail_why(&near, "move the second NIC into the namespace");
	else
		c = 'm';
	if (write(p2c[1], &c, 1) != 1 || c != 'm')
		goto collect;
	ufd = udp_bind(UDP_PORT_A);
	if (ufd < 0 || if_up(nics[0].ifname, ADDR_A, &near)) {
		fail_why(&near, "set up the near end");
		goto collect;
	}
	if (read(c2p[0], &c, 1) != 1 || c != 'l')
		goto collect;	/* the far end says why below */
	{
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(TCP_PORT) };

		inet_pton(AF_INET, ADDR_B, &sa.sin_addr);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		timeouts(fd, IO_SECS);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			fail_why(&near, "TCP connect");
			goto collect;
		}
	}
	near.setup_ok = 1;
	if (stream_send(fd, 1, &near) || stream_recv(fd, 2, &near))
		goto collect;
	flood_send(ADDR_B, UDP_PORT_B, &near);
	flood_recv(ufd, &near);
collect:
	if (fd >= 0)
		close(fd);
	if (ufd >= 0)
		close(ufd);
	if (read(c2p[0], &far, sizeof(far)) != sizeof(far))
		snprintf(far.why, sizeof(far.why), "the far end died");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if_down(nics[0].ifname);
	/* Both NICs down: count once the pools are quiet, then stop tracing. */
	for (int i = 0; i < 2; i++)
		pool_quiet(nics[i].dev->pool, &after[i]);
	rdma_trace_stop_events(events, NEVENTS);

	ksft_test_result(near.setup_ok && far.setup_ok,
			 "NICs %s and %s: linked in two namespaces (%s, %s)%s%s%s%s\n",
			 nics[0].dev->name, nics[1].dev->name, nics[0].ifname, nics[1].ifname,
			 near.why[0] ? ": near: " : "", near.why, far.why[0] ? ": far: " : "",
			 far.why);
	ksft_test_result(far.stream_ok == STREAM_BYTES && near.stream_ok == STREAM_BYTES,
			 "TCP both ways intact: %llu of %u bytes %s -> %s, %llu of %u back\n",
			 (unsigned long long)far.stream_ok, STREAM_BYTES, nics[0].ifname,
			 nics[1].ifname, (unsigned long long)near.stream_ok, STREAM_BYTES);
	ksft_test_result(far.dgrams > 0 && near.dgrams > 0 && !far.dgrams_bad && !near.dgrams_bad,
			 "UDP floods of %d-byte datagrams intact: %u of %u received %s -> %s, %u of %u back; damaged %u, %u\n",
			 DGRAM, far.dgrams, near.sent, nics[0].ifname, nics[1].ifname, near.dgrams,
			 far.sent, far.dgrams_bad, near.dgrams_bad);

	trace = rdma_trace_read();
	lost = rdma_trace_lost();
	for (int i = 0; i < 2; i++) {
		char dev[RDMA_NAME_LEN + 16], pool[RDMA_NAME_LEN + 16];
		const char *in_pool[] = { dev, pool, NULL };

		snprintf(dev, sizeof(dev), "dev_name: %s ", nics[i].dev->name);
		snprintf(pool, sizeof(pool), " pool=%s ", nics[i].dev->pool);
		maps[i] = trace ? rdma_trace_count(trace, "swiotlb_map", in_pool) : -1;
		failed[i] = trace ? rdma_trace_count(trace, "swiotlb_map_failed", in_pool) : -1;
	}
	for (int i = 0; i < 2; i++) {
		char dev[RDMA_NAME_LEN + 16];
		const char *any[] = { dev, NULL };
		uint64_t to_dev = rdma_stat_delta(&before[i], &after[i], "bytes_to_device");
		uint64_t from_dev = rdma_stat_delta(&before[i], &after[i], "bytes_from_device");
		uint64_t pool_maps = rdma_stat_delta(&before[i], &after[i], "maps");
		uint64_t failures = rdma_stat_delta(&before[i], &after[i], "map_failures");
		long traced = 0, failed_traced = 0, oop;
		uint64_t size = 0;
		bool shrunk;

		/* the mappings of every NIC of this pool */
		for (int j = 0; j < 2; j++)
			if (!strcmp(nics[j].dev->pool, nics[i].dev->pool)) {
				traced += maps[j];
				failed_traced += failed[j];
			}
		shrunk = rdma_pool_shrunk(nics[i].dev->pool, &size);
		snprintf(dev, sizeof(dev), "dev_name: %s ", nics[i].dev->name);
		oop = trace ? rdma_trace_count(trace, "swiotlb_out_of_pool", any) : -1;
		ksft_test_result(lost == 0 && maps[i] > 0 && (uint64_t)traced == pool_maps,
				 "NIC %s: %ld mappings traced in pool %s; with its pool's other NICs, all %llu it counted (%ld events lost)\n",
				 nics[i].dev->name, maps[i], nics[i].dev->pool,
				 (unsigned long long)pool_maps, lost);
		ksft_test_result(to_dev != UINT64_MAX && from_dev != UINT64_MAX &&
				 to_dev >= STREAM_BYTES && from_dev >= STREAM_BYTES,
				 "NIC %s: pool %s bounced the streams: %llu KiB to devices, %llu KiB from them\n",
				 nics[i].dev->name, nics[i].dev->pool,
				 (unsigned long long)to_dev >> 10, (unsigned long long)from_dev >> 10);
		ksft_test_result(rdma_stat_delta(&before[i], &after[i], "out_of_pool") == 0 &&
				 oop == 0,
				 "NIC %s: no out-of-pool DMA (audit counter +%llu, %ld events)\n",
				 nics[i].dev->name,
				 (unsigned long long)rdma_stat_delta(&before[i], &after[i], "out_of_pool"),
				 oop);
		ksft_test_result(failures != UINT64_MAX && lost == 0 &&
				 (uint64_t)failed_traced == failures && (shrunk ? failures > 0 : !failures),
				 "NIC %s: pool %s (%llu KiB%s) %s: %llu mappings failed, %ld traced with its pool's other NICs, %ld of them this NIC's\n",
				 nics[i].dev->name, nics[i].dev->pool, (unsigned long long)size >> 10,
				 shrunk ? ", shrunk" : "", shrunk ? "ran dry" : "held the load",
				 (unsigned long long)failures, failed_traced, failed[i]);
	}
	free(trace);
	rdma_trace_buffer_kb(trace_kb, NULL);

	/* The far end's namespace is gone: its NIC is back; unbind both. */
	for (int i = 0; i < 2; i++)
		pci_bind(&nics[i], false);
	pools_read(nics, gone);
	ksft_test_result(pool_whole(&base[0], &gone[0]) && pool_whole(&base[1], &gone[1]),
			 "pools whole once both drivers are unbound: %llu and %llu slots in use as before they bound (%llu, %llu); maps %llu = unmaps %llu, allocs %llu = frees %llu\n",
			 (unsigned long long)rdma_stat(&gone[0], "used"),
			 (unsigned long long)rdma_stat(&gone[1], "used"),
			 (unsigned long long)rdma_stat(&base[0], "used"),
			 (unsigned long long)rdma_stat(&base[1], "used"),
			 (unsigned long long)rdma_stat_delta(&base[0], &gone[0], "maps"),
			 (unsigned long long)rdma_stat_delta(&base[0], &gone[0], "unmaps"),
			 (unsigned long long)rdma_stat_delta(&base[0], &gone[0], "allocs"),
			 (unsigned long long)rdma_stat_delta(&base[0], &gone[0], "frees"));
	for (int i = 0; i < 2; i++)
		pci_bind(&nics[i], true);
	ksft_finished();
}
