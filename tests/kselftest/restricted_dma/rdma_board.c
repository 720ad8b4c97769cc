// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the restricted-DMA selftests: the board layout, the
 * live device tree, debugfs, tracefs and the kernel log.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest.h"
#include "rdma_board.h"

#define DT_ROOT		"/sys/firmware/devicetree/base"
#define DEBUGFS		"/sys/kernel/debug"
#define TRACEFS		"/sys/kernel/tracing"
#define LAYOUT_DEFAULT	"/etc/rdma-board/expected-layout"

int rdma_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

char *rdma_read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += r;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				r = -1;
				break;
			}
			buf = nb;
		}
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int rdma_read_u64(const char *path, uint64_t *val)
{
	char *s = rdma_read_file(path, NULL), *end;
	int ret = -EINVAL;

	if (!s)
		return -errno;
	errno = 0;
	*val = strtoull(s, &end, 0);
	if (!errno && end != s && (*end == '\n' || *end == '\0'))
		ret = 0;
	free(s);
	return ret;
}

int rdma_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

static void layout_error(const char *path, int line, const char *what)
{
	ksft_exit_fail_msg("%s:%d: %s\n", path, line, what);
}

void rdma_board_load(struct rdma_board *b)
{
	const char *path = getenv("RDMA_BOARD_LAYOUT");
	char line[512];
	int lineno = 0;
	FILE *f;

	if (!path)
		path = LAYOUT_DEFAULT;
	memset(b, 0, sizeof(*b));
	f = fopen(path, "r");
	if (!f)
		ksft_exit_skip("no board layout at %s (set RDMA_BOARD_LAYOUT; see board/expected-layout)\n",
			       path);
	while (fgets(line, sizeof(line), f)) {
		char kind[16], a[RDMA_NAME_LEN], c[RDMA_NAME_LEN], d[16];
		int n;

		lineno++;
		*strchrnul(line, '#') = '\0';
		n = sscanf(line, "%15s %127s %127s %15s", kind, a, c, d);
		if (n <= 0)
			continue;
		if (!strcmp(kind, "pool") && n == 3) {
			struct rdma_pool *p = &b->pools[b->npools];
			char *end;

			if (b->npools == RDMA_MAX_POOLS)
				layout_error(path, lineno, "too many pools");
			strcpy(p->name, a);
			p->size = strtoull(c, &end, 0);
			if (*end || !p->size)
				layout_error(path, lineno, "bad pool size");
			b->npools++;
		} else if (!strcmp(kind, "device") && n == 4) {
			struct rdma_device *dv = &b->devices[b->ndevices];

			if (b->ndevices == RDMA_MAX_DEVICES)
				layout_error(path, lineno, "too many devices");
			strcpy(dv->name, a);
			strcpy(dv->pool, strcmp(c, "none") ? c : "");
			strcpy(dv->role, d);
			if (dv->pool[0] && !rdma_board_pool(b, dv->pool))
				layout_error(path, lineno, "device names a pool not listed before it");
			b->ndevices++;
		} else {
			layout_error(path, lineno, "expected 'pool NAME SIZE' or 'device NAME POOL|none ROLE'");
		}
	}
	fclose(f);
	if (!b->npools)
		layout_error(path, lineno, "the layout lists no pool");
}

const struct rdma_pool *rdma_board_pool(const struct rdma_board *b, const char *name)
{
	for (int i = 0; i < b->npools; i++)
		if (!strcmp(b->pools[i].name, name))
			return &b->pools[i];
	return NULL;
}

const struct rdma_device *rdma_board_test_device(const struct rdma_board *b, bool odd)
{
	for (int i = 0; i < b->ndevices; i++) {
		const struct rdma_device *d = &b->devices[i];
		const struct rdma_pool *p = rdma_board_pool(b, d->pool);

		if (!strcmp(d->role, "test") && p && (p->size % (256 * 1024) != 0) == odd)
			return d;
	}
	return NULL;
}

bool rdma_device_driverless(const struct rdma_device *d)
{
	return !strcmp(d->role, "test") || !strcmp(d->role, "shared");
}

double rdma_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void rdma_fuzz_setup(double def, double *secs, uint64_t *seed)
{
	const char *env = getenv("RDMA_FUZZ_SECONDS");

	*secs = env && *env ? strtod(env, NULL) : def;
	if (!(*secs > 0) || *secs > 86400)
		ksft_exit_fail_msg("RDMA_FUZZ_SECONDS=%s: not a number of seconds\n", env);
	env = getenv("RDMA_FUZZ_SEED");
	if (env && *env)
		*seed = strtoull(env, NULL, 0);
	else if (getrandom(seed, sizeof(*seed), 0) != sizeof(*seed))
		ksft_exit_fail_msg("getrandom: %s\n", strerror(errno));
	ksft_print_msg("seed %#" PRIx64 " (RDMA_FUZZ_SEED replays it), %.0f s\n", *seed, *secs);
}

/* Whether tok is key=a,b,... and word is key=b for one of its values. */
static bool param_lists(const char *tok, const char *word)
{
	const char *eq = strchr(word, '='), *v;
	size_t klen, vlen;

	if (!eq)
		return false;
	klen = eq - word + 1;
	vlen = strlen(eq + 1);
	if (strncmp(tok, word, klen))
		return false;
	for (v = tok + klen; *v; v += strcspn(v, ","), v += *v == ',')
		if (strcspn(v, ",") == vlen && !strncmp(v, eq + 1, vlen))
			return true;
	return false;
}

bool rdma_cmdline_has(const char *word)
{
	char *cmdline = rdma_read_file("/proc/cmdline", NULL), *tok, *save;
	bool found = false;

	if (!cmdline)
		return false;
	for (tok = strtok_r(cmdline, " \n", &save); tok && !found;
	     tok = strtok_r(NULL, " \n", &save))
		found = !strcmp(tok, word) || param_lists(tok, word);
	free(cmdline);
	return found;
}

int rdma_pool_debugfs(const char *pool, char *dir, size_t len, bool *misplaced)
{
	struct stat st;

	rdma_fmt(dir, len, DEBUGFS "/swiotlb/%s", pool);
	*misplaced = false;
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	rdma_fmt(dir, len, DEBUGFS "/%s", pool);
	*misplaced = true;
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	return -ENOENT;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* Device-tree cell counts of a node's children. */
static int dt_cells(const char *node, const char *prop, uint32_t *cells)
{
	char path[PATH_MAX];
	size_t len;
	unsigned char *v;

	rdma_fmt(path, sizeof(path), "%s/%s", node, prop);
	v = (unsigned char *)rdma_read_file(path, &len);
	if (!v || len != 4) {
		free(v);
		return -ENOENT;
	}
	*cells = be32(v);
	free(v);
	return 0;
}

/* A number of 1 or 2 cells. */
static uint64_t dt_number(const unsigned char *p, uint32_t cells)
{
	return cells == 2 ? (uint64_t)be32(p) << 32 | be32(p + 4) : be32(p);
}

int rdma_dt_pool_reg(const char *pool, uint64_t *base, uint64_t *size)
{
	const char *rm = DT_ROOT "/reserved-memory";
	uint32_t ac, sc;
	char path[PATH_MAX];
	unsigned char *reg;
	size_t len;

	if (dt_cells(rm, "#address-cells", &ac) || dt_cells(rm, "#size-cells", &sc))
		return -ENOENT;
	rdma_fmt(path, sizeof(path), "%s/%s/reg", rm, pool);
	reg = (unsigned char *)rdma_read_file(path, &len);
	if (!reg)
		return -ENOENT;
	if (len != 4 * (ac + sc) || ac < 1 || ac > 2 || sc < 1 || sc > 2) {
		free(reg);
		return -EINVAL;
	}
	*base = dt_number(reg, ac);
	*size = dt_number(reg + 4 * ac, sc);
	free(reg);
	return 0;
}

int rdma_dt_pool_size(const char *pool, uint64_t *size)
{
	uint64_t base;

	return rdma_dt_pool_reg(pool, &base, size);
}

bool rdma_pool_shrunk(const char *pool, uint64_t *size)
{
	if (rdma_dt_pool_size(pool, size)) {
		*size = 0;
		return false;
	}
	return *size < RDMA_SHRUNK_POOL;
}

/* The reserved-memory node whose phandle is ph, if compatible with compat. */
static int dt_region_by_phandle(uint32_t ph, const char *compat_want, char *pool, size_t len)
{
	const char *rm = DT_ROOT "/reserved-memory";
	DIR *d = opendir(rm);
	struct dirent *e;
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		char path[PATH_MAX], *compat;
		uint32_t p;

		if (e->d_name[0] == '.')
			continue;
		rdma_fmt(path, sizeof(path), "%s/%s", rm, e->d_name);
		if (dt_cells(path, "phandle", &p) || p != ph)
			continue;
		rdma_fmt(path, sizeof(path), "%s/%s/compatible", rm, e->d_name);
		compat = rdma_read_file(path, NULL);
		if (compat && !strcmp(compat, compat_want)) {
			rdma_fmt(pool, len, "%s", e->d_name);
			ret = 0;
		}
		free(compat);
		break;
	}
	closedir(d);
	return ret;
}

/* The first region of a compatible in a DT node's memory-region. */
static bool dt_node_region(const char *of_node, const char *compat, char *pool, size_t len)
{
	char path[PATH_MAX];
	unsigned char *mr;
	size_t n;
	bool found = false;

	rdma_fmt(path, sizeof(path), "%s/memory-region", of_node);
	mr = (unsigned char *)rdma_read_file(path, &n);
	if (!mr)
		return false;
	for (size_t i = 0; i + 4 <= n && !found; i += 4)
		found = !dt_region_by_phandle(be32(mr + i), compat, pool, len);
	free(mr);
	return found;
}

int rdma_sysfs_device(const char *devname, char *path, size_t len)
{
	static const char *const buses[] = { "platform", "pci", "virtio" };
	char link[PATH_MAX];

	for (size_t i = 0; i < sizeof(buses) / sizeof(buses[0]); i++) {
		rdma_fmt(link, sizeof(link), "/sys/bus/%s/devices/%s", buses[i], devname);
		if (realpath(link, path))
			return 0;
	}
	(void)len;
	return -ENOENT;
}

const char *rdma_device_state(const char *devname)
{
	char dev[PATH_MAX], drv[PATH_MAX + 8];

	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return "gone";
	rdma_fmt(drv, sizeof(drv), "%s/driver", dev);
	return access(drv, F_OK) ? "unbound" : "live";
}

int rdma_device_class(const char *devname, const char *cls, char *name, size_t len)
{
	char dev[PATH_MAX], dir[64], link[PATH_MAX], path[PATH_MAX];
	size_t n;
	struct dirent *e;
	int ret = -ENOENT;
	DIR *d;

	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return -ENOENT;
	n = strlen(dev);
	/*
	 * Match by place rather than walk the device's subtree: a class
	 * device sits in a "block" or "net" directory only when its parent
	 * is not a class device itself (nvme0n1 hangs off nvme0 directly).
	 */
	if (rdma_fmt(dir, sizeof(dir), "/sys/class/%s", cls))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (ret && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    rdma_fmt(link, sizeof(link), "%s/%s", dir, e->d_name) ||
		    !realpath(link, path))
			continue;
		if (!strncmp(path, dev, n) && path[n] == '/')
			ret = rdma_fmt(name, len, "%s", e->d_name);
	}
	closedir(d);
	return ret;
}

static bool is_pci_device(const char *dev)
{
	char link[PATH_MAX + 16], bus[PATH_MAX];

	rdma_fmt(link, sizeof(link), "%s/subsystem", dev);
	return realpath(link, bus) && !strcmp(bus, "/sys/bus/pci");
}

int rdma_device_class_wait(const char *devname, const char *cls, char *name, size_t len,
			   int secs)
{
	for (int i = 0;; i++) {
		int ret = rdma_device_class(devname, cls, name, len);

		if (!ret || i >= secs * 10)
			return ret;
		usleep(100 * 1000);
	}
}

int rdma_disk_open(const char *path, int flags, int secs)
{
	for (int i = 0;; i++) {
		int fd = open(path, flags);

		if (fd >= 0 || i >= secs * 10 ||
		    (errno != ENXIO && errno != ENODEV && errno != ENOMEDIUM))
			return fd;
		usleep(100 * 1000);
	}
}

int rdma_dt_device_pool(const char *devname, char *pool, size_t len)
{
	char dev[PATH_MAX], link[PATH_MAX + 8], node[PATH_MAX];

	pool[0] = '\0';
	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return -ENOENT;
	/*
	 * Walk up to the first device with a DT node, then stop there; but a
	 * PCI function's own node that names no pool falls back to the host
	 * bridge's, as of_dma_set_restricted_buffer() does.
	 */
	while (strcmp(dev, "/sys/devices") && strchr(dev, '/')) {
		rdma_fmt(link, sizeof(link), "%s/of_node", dev);
		if (!access(link, F_OK)) {
			if (!realpath(link, node))
				return -errno;
			dt_node_region(node, "restricted-dma-pool", pool, len);
			if (pool[0] || !is_pci_device(dev))
				return 0;
		}
		*strrchr(dev, '/') = '\0';
	}
	return 0;
}

int rdma_bind_driver(const char *devname, const char *driver)
{
	char path[PATH_MAX];
	int ret;

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s/driver_override", devname);
	ret = rdma_write_str(path, driver);
	if (ret)
		return ret;
	rdma_fmt(path, sizeof(path), "/sys/bus/platform/drivers/%s/bind", driver);
	return rdma_write_str(path, devname);
}

void rdma_unbind_driver(const char *devname, const char *driver)
{
	char path[PATH_MAX];

	rdma_fmt(path, sizeof(path), "/sys/bus/platform/drivers/%s/unbind", driver);
	rdma_write_str(path, devname);
	rdma_fmt(path, sizeof(path), "/sys/bus/platform/devices/%s/driver_override", devname);
	rdma_write_str(path, "\n");
}

int rdma_block_device(const char *devname, char *out, size_t len)
{
	char dev[PATH_MAX], path[PATH_MAX];
	struct dirent *e, *b;
	DIR *d, *bd;
	int ret = -ENOENT;

	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return -ENOENT;
	/* transport device -> virtioN -> block/vdX */
	d = opendir(dev);
	if (!d)
		return -errno;
	while (ret && (e = readdir(d))) {
		if (strncmp(e->d_name, "virtio", 6))
			continue;
		rdma_fmt(path, sizeof(path), "%s/%s/block", dev, e->d_name);
		bd = opendir(path);
		if (!bd)
			continue;
		while ((b = readdir(bd))) {
			if (b->d_name[0] != '.') {
				rdma_fmt(out, len, "/dev/%s", b->d_name);
				ret = 0;
				break;
			}
		}
		closedir(bd);
	}
	closedir(d);
	return ret;
}

char *rdma_kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

void rdma_fill_random(void *buf, size_t len, uint64_t seed)
{
	unsigned char *p = buf;
	uint64_t x = seed | 1;

	/* xorshift64*: reproducible from the seed printed on failure. */
	for (size_t i = 0; i < len; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		p[i] = (x * 0x2545F4914F6CDD1DULL) >> 56;
	}
}

static int trace_event_enable(const char *event, const char *val)
{
	char path[PATH_MAX];

	rdma_fmt(path, sizeof(path), TRACEFS "/events/%s/enable", event);
	return rdma_write_str(path, val);
}

int rdma_trace_start_events(const char *const *events, int n)
{
	int ret;

	rdma_write_str(TRACEFS "/tracing_on", "0");
	ret = rdma_write_str(TRACEFS "/trace", "");
	for (int i = 0; i < n && !ret; i++)
		ret = trace_event_enable(events[i], "1");
	if (!ret)
		ret = rdma_write_str(TRACEFS "/tracing_on", "1");
	return ret;
}

void rdma_trace_stop_events(const char *const *events, int n)
{
	rdma_write_str(TRACEFS "/tracing_on", "0");
	for (int i = 0; i < n; i++)
		trace_event_enable(events[i], "0");
}

int rdma_trace_start(const char *event)
{
	return rdma_trace_start_events(&event, 1);
}

int rdma_trace_stop(const char *event)
{
	rdma_write_str(TRACEFS "/tracing_on", "0");
	return trace_event_enable(event, "0");
}

long rdma_trace_count_device(const char *devname)
{
	char *trace = rdma_read_file(TRACEFS "/trace", NULL), needle[RDMA_NAME_LEN + 16];
	long n = 0;

	if (!trace)
		return -1;
	rdma_fmt(needle, sizeof(needle), "dev_name: %s ", devname);
	for (char *p = trace; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	free(trace);
	return n;
}

int rdma_dt_device_region(const char *devname, const char *compat, char *region, size_t len)
{
	char dev[PATH_MAX], link[PATH_MAX + 8], node[PATH_MAX];

	region[0] = '\0';
	if (rdma_sysfs_device(devname, dev, sizeof(dev)))
		return -ENOENT;
	rdma_fmt(link, sizeof(link), "%s/of_node", dev);
	if (!realpath(link, node))
		return -errno;
	return dt_node_region(node, compat, region, len) ? 0 : -ENOENT;
}
