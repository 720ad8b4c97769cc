// SPDX-License-Identifier: GPL-2.0
/*
 * The sys collector: pools from debugfs and the device tree, devices from
 * the device tree and sysfs.
 *
 * debugfs: the series keeps every pool at swiotlb/<node>/ (io_tlb_nslabs,
 * io_tlb_used, io_tlb_used_hiwater, stats, devices); stock 6.1 has only
 * io_tlb_nslabs and io_tlb_used, and puts a pool probed before swiotlb/
 * exists at the debugfs root. Both layouts are read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "collect.h"

const struct sys_paths sys_default_paths = {
	.debugfs = "/sys/kernel/debug",
	.devicetree = "/proc/device-tree",
	.sysfs = "/sys",
};

void sys_paths_at(struct sys_paths *p, const char *root, char *buf, size_t len)
{
	const char *def[3] = { sys_default_paths.debugfs, sys_default_paths.devicetree,
			       sys_default_paths.sysfs };
	const char **out[3] = { &p->debugfs, &p->devicetree, &p->sysfs };
	size_t each = len / 3;
	int i;

	*p = sys_default_paths;
	if (!root || !*root)
		return;
	for (i = 0; i < 3; i++) {
		snprintf(buf + i * each, each, "%s%s", root, def[i]);
		*out[i] = buf + i * each;
	}
}

int sys_memlock(const char *path, uint64_t *bytes)
{
	unsigned long long v;
	char line[128];
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1) {
			*bytes = v;
			ret = 0;
			break;
		}
	fclose(f);
	return ret;
}

int sys_ram(const char *path, struct rdma_ram *r, int max)
{
	unsigned long long start, end;
	char line[256];
	bool zero = false;
	int n = 0, name;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* Top level only: children are indented. */
		if (sscanf(line, "%llx-%llx : %n", &start, &end, &name) != 2 ||
		    line[0] == ' ' || end < start)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line + name, "System RAM") && strcmp(line + name, "reserved"))
			continue;
		zero |= !start && !end;
		/* [start, end] inclusive; kept half-open, without wrapping */
		end += end != ULLONG_MAX;
		if (n && r[n - 1].end == start) {
			r[n - 1].end = end;
			continue;
		}
		if (n == max) {
			n = 0;
			break;
		}
		r[n].start = start;
		r[n].end = end;
		n++;
	}
	fclose(f);
	return zero ? 0 : n;
}

/*
 * A debugfs number file. read(2) rather than stdio: it is read for every
 * pool every interval, and a FILE's buffer and scanf cost more than the
 * read itself.
 */
static int read_u64(const char *dir, const char *file, uint64_t *v)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long long x;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -1;
	*v = x;
	return 0;
}

/* A file's bytes (device-tree properties are binary). */
static ssize_t read_blob(const char *path, void *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len, f);
	fclose(f);
	return (ssize_t)n;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t cells(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 32 | be32(p + 4 * i);
	return v;
}

static bool is_restricted_node(const char *dir)
{
	char path[PATH_MAX], compat[256];
	ssize_t n, i;

	snprintf(path, sizeof(path), "%s/compatible", dir);
	n = read_blob(path, compat, sizeof(compat) - 1);
	if (n <= 0)
		return false;
	compat[n] = '\0';
	for (i = 0; i < n; i += (ssize_t)strlen(compat + i) + 1)
		if (!strcmp(compat + i, "restricted-dma-pool"))
			return true;
	return false;
}

/* Base and size of a reserved-memory node from its reg. */
static bool dt_reg(const struct sys_paths *sp, const char *name, uint64_t *base,
		   uint64_t *size)
{
	char path[PATH_MAX];
	unsigned char buf[32];
	int ac = 2, sc = 2;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/reserved-memory/#address-cells", sp->devicetree);
	if (read_blob(path, buf, 4) == 4)
		ac = (int)be32(buf);
	snprintf(path, sizeof(path), "%s/reserved-memory/#size-cells", sp->devicetree);
	if (read_blob(path, buf, 4) == 4)
		sc = (int)be32(buf);
	if (ac < 1 || ac > 2 || sc < 1 || sc > 2)
		return false;
	snprintf(path, sizeof(path), "%s/reserved-memory/%s/reg", sp->devicetree, name);
	n = read_blob(path, buf, sizeof(buf));
	if (n < 4 * (ac + sc))
		return false;
	*base = cells(buf, ac);
	*size = cells(buf + 4 * ac, sc);
	return true;
}

/* The "stats" file of the series: key value lines. */
static void read_stats(const char *dir, struct rt_pool *p)
{
	char path[PATH_MAX], key[64];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stats", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %llu", key, &v) == 2) {
		if (!strcmp(key, "base"))
			p->base = v;
		else if (!strcmp(key, "size"))
			p->size = v;
		else if (!strcmp(key, "devices"))
			p->ndevices = v;
	}
	fclose(f);
}

static void read_pool_devices(struct rt_model *m, const char *dir, const char *pool)
{
	char path[PATH_MAX], name[RDMA_NAME_LEN + 16];
	struct rt_dev *d;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	/* "name state" lines; older kernels of the series wrote the name alone */
	while (fgets(name, sizeof(name), f)) {
		name[strcspn(name, " \n")] = '\0';
		if (!name[0])
			continue;
		d = model_dev(m, name);
		if (!d)
			break;
		snprintf(d->pool, sizeof(d->pool), "%s", pool);
		d->restricted = true;
	}
	fclose(f);
}

static void read_pool_dir(struct rt_model *m, const struct sys_paths *sp, const char *dir,
			  const char *name)
{
	struct rt_pool *p = model_pool(m, name);
	const char *at;

	if (!p)
		return;
	p->restricted = true;
	read_u64(dir, "io_tlb_nslabs", &p->nslabs);
	p->have_used = !read_u64(dir, "io_tlb_used", &p->used);
	p->have_hiwater = !read_u64(dir, "io_tlb_used_hiwater", &p->hiwater);
	if (p->have_hiwater)
		m->features |= RT_F_HIWATER;
	/*
	 * Base and size never change: stats is read once. It is not cheap (the
	 * kernel scans the pool's slots under its lock for free_run_max).
	 */
	if (!p->size)
		read_stats(dir, p);
	if (!p->size && !dt_reg(sp, name, &p->base, &p->size)) {
		/* Last resort: the node's unit address and the slot count. */
		at = strchr(name, '@');
		if (at)
			p->base = strtoull(at + 1, NULL, 16);
		p->size = p->nslabs * RT_SLOT_SIZE;
	}
	read_pool_devices(m, dir, name);
}

/*
 * The next entry of directory @d (opened at @root), "." and ".." skipped:
 * its name, its path in @path. NULL after the last.
 */
static const char *next_child(DIR *d, const char *root, char *path, size_t len)
{
	struct dirent *de;

	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, len, "%s/%s", root, de->d_name);
		return de->d_name;
	}
	return NULL;
}

static void scan_pool_dirs(struct rt_model *m, const struct sys_paths *sp, const char *root,
			   bool skip_swiotlb)
{
	char dir[PATH_MAX], probe[PATH_MAX];
	DIR *d = opendir(root);
	const char *name;

	if (!d)
		return;
	while ((name = next_child(d, root, dir, sizeof(dir)))) {
		if (skip_swiotlb && !strcmp(name, "swiotlb"))
			continue;
		snprintf(probe, sizeof(probe), "%s/io_tlb_nslabs", dir);
		if (access(probe, R_OK))
			continue;
		read_pool_dir(m, sp, dir, name);
	}
	closedir(d);
}

/* Restricted pools the device tree declares, even before any device uses one. */
static void scan_dt_pools(struct rt_model *m, const struct sys_paths *sp)
{
	char root[PATH_MAX], dir[PATH_MAX];
	const char *name;
	struct rt_pool *p;
	uint64_t base, size;
	DIR *d;

	snprintf(root, sizeof(root), "%s/reserved-memory", sp->devicetree);
	d = opendir(root);
	if (!d)
		return;
	while ((name = next_child(d, root, dir, sizeof(dir)))) {
		if (!is_restricted_node(dir) || !dt_reg(sp, name, &base, &size))
			continue;
		p = model_pool(m, name);
		if (!p)
			break;
		p->restricted = true;
		if (!p->size) {
			p->base = base;
			p->size = size;
			p->nslabs = size / RT_SLOT_SIZE;
		}
		/* Not set up yet (no device probed with it): nothing in use. */
		if (!p->have_used && !m->no_debugfs) {
			p->used = 0;
			p->have_used = true;
		}
	}
	closedir(d);
}

/* The two numbers that move, for a pool already found. */
static bool refresh_pool(struct rt_model *m, const struct sys_paths *sp, struct rt_pool *p)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/swiotlb/%s", sp->debugfs, p->name);
	if (read_u64(dir, "io_tlb_used", &p->used)) {
		/* Stock 6.1 may have put it at the debugfs root. */
		snprintf(dir, sizeof(dir), "%s/%s", sp->debugfs, p->name);
		if (read_u64(dir, "io_tlb_used", &p->used))
			return false;
	}
	p->have_used = true;
	p->have_hiwater = !read_u64(dir, "io_tlb_used_hiwater", &p->hiwater);
	p->seen = m->gen;
	return true;
}

/* Whether debugfs is there: mounted, it is never empty. */
static bool debugfs_present(const struct sys_paths *sp)
{
	char path[PATH_MAX];
	DIR *d = opendir(sp->debugfs);
	bool any;

	if (!d)
		return false;
	any = next_child(d, sp->debugfs, path, sizeof(path)) != NULL;
	closedir(d);
	return any;
}

void sys_pools(struct rt_model *m, const struct sys_paths *sp, bool rescan)
{
	char root[PATH_MAX];
	size_t i;

	if (rescan)
		m->no_debugfs = !debugfs_present(sp);
	if (!rescan) {
		for (i = 0; i < m->npools; i++) {
			struct rt_pool *p = &m->pools[i];

			if (!p->restricted || refresh_pool(m, sp, p))
				continue;
			/* Without debugfs only the device tree tells: use unknown. */
			p->seen = m->gen;
			if (m->no_debugfs)
				continue;
			/* Declared by the device tree but not set up yet. */
			p->used = 0;
			p->have_used = true;
			p->seen = m->gen;
		}
		return;
	}
	snprintf(root, sizeof(root), "%s/swiotlb", sp->debugfs);
	scan_pool_dirs(m, sp, root, false);
	scan_pool_dirs(m, sp, sp->debugfs, true);
	scan_dt_pools(m, sp);
}

/*
 * The name of the restricted pool among a node's memory-region phandles:
 * the first one listed, as the kernel takes it.
 */
static bool dt_pool_of(const struct sys_paths *sp, const char *of_node, char *pool,
		       size_t len)
{
	char path[PATH_MAX], root[PATH_MAX], node[PATH_MAX];
	unsigned char regions[64], ph[4];
	ssize_t n, i, best;
	const char *name;
	DIR *d;

	snprintf(path, sizeof(path), "%s/memory-region", of_node);
	n = read_blob(path, regions, sizeof(regions));
	if (n < 4)
		return false;
	snprintf(root, sizeof(root), "%s/reserved-memory", sp->devicetree);
	d = opendir(root);
	if (!d)
		return false;
	best = n;
	while ((name = next_child(d, root, node, sizeof(node)))) {
		snprintf(path, sizeof(path), "%s/phandle", node);
		if (read_blob(path, ph, 4) != 4)
			continue;
		for (i = 0; i + 4 <= n && i < best; i += 4) {
			if (memcmp(ph, regions + i, 4) || !is_restricted_node(node))
				continue;
			snprintf(pool, len, "%s", name);
			best = i;
		}
	}
	closedir(d);
	return best < n;
}

/*
 * A device's pool per the device tree: its own node's memory-region, or
 * the nearest ancestor's (PCI functions take the host bridge's).
 */
static bool dev_dt_pool(const struct sys_paths *sp, const char *devdir, char *pool,
			size_t len)
{
	char real[PATH_MAX], node[PATH_MAX + 16];
	char *slash;

	if (!realpath(devdir, real))
		return false;
	for (;;) {
		snprintf(node, sizeof(node), "%s/of_node", real);
		if (!access(node, F_OK) && dt_pool_of(sp, node, pool, len))
			return true;
		slash = strrchr(real, '/');
		if (!slash || slash == real || !strcmp(real, "/sys/devices"))
			return false;
		*slash = '\0';
	}
}

static void scan_bus(struct rt_model *m, const struct sys_paths *sp, const char *bus)
{
	char root[PATH_MAX], devdir[PATH_MAX], pool[RDMA_NAME_LEN];
	const char *name;
	struct rt_dev *dev;
	DIR *d;

	snprintf(root, sizeof(root), "%s/bus/%s/devices", sp->sysfs, bus);
	d = opendir(root);
	if (!d)
		return;
	while ((name = next_child(d, root, devdir, sizeof(devdir)))) {
		if (!dev_dt_pool(sp, devdir, pool, sizeof(pool)))
			continue;
		dev = model_dev(m, name);
		if (!dev)
			break;
		if (!dev->pool[0])
			snprintf(dev->pool, sizeof(dev->pool), "%s", pool);
		dev->restricted = true;
	}
	closedir(d);
}

/* Whether device @name is on bus @bus (/sys/bus/@bus); *bound: with a driver. */
static bool dev_on_bus(const struct sys_paths *sp, const char *bus, const char *name,
		       bool *bound)
{
	char path[PATH_MAX * 2];

	/* One lookup for the usual case, a device with its driver. */
	snprintf(path, sizeof(path), "%s/bus/%s/devices/%s/driver", sp->sysfs, bus, name);
	*bound = !access(path, F_OK);
	if (*bound)
		return true;
	snprintf(path, sizeof(path), "%s/bus/%s/devices/%s", sp->sysfs, bus, name);
	return !access(path, F_OK);
}

/*
 * Finds device @d on any bus, first where it was last time (a device
 * stays on its bus: one lookup an interval, not one per bus tried), and
 * records where and whether a driver is bound.
 */
static bool dev_exists(const struct sys_paths *sp, struct rt_dev *d)
{
	static const char *const usual[] = { "platform", "pci" };
	char root[PATH_MAX], bus[PATH_MAX * 2];
	const char *name;
	bool found = false;
	size_t i;
	DIR *dir;

	if (d->bus[0] && dev_on_bus(sp, d->bus, d->name, &d->bound))
		return true;
	for (i = 0; i < sizeof(usual) / sizeof(usual[0]); i++) {
		if (strcmp(usual[i], d->bus) && dev_on_bus(sp, usual[i], d->name, &d->bound)) {
			snprintf(d->bus, sizeof(d->bus), "%s", usual[i]);
			return true;
		}
	}
	snprintf(root, sizeof(root), "%s/bus", sp->sysfs);
	dir = opendir(root);
	if (!dir)
		return true;	/* no sysfs to ask: assume it is there */
	while (!found && (name = next_child(dir, root, bus, sizeof(bus)))) {
		found = dev_on_bus(sp, name, d->name, &d->bound);
		if (found)
			snprintf(d->bus, sizeof(d->bus), "%s", name);
	}
	closedir(dir);
	return found;
}

void sys_devices(struct rt_model *m, const struct sys_paths *sp, bool rescan)
{
	struct rt_pool *p;
	size_t i;

	if (rescan) {
		scan_bus(m, sp, "platform");
		scan_bus(m, sp, "pci");
	}
	for (i = 0; i < m->ndevs; i++) {
		struct rt_dev *d = &m->devs[i];

		/* In sysfs is alive, whoever reported it this interval. */
		d->seen = dev_exists(sp, d) ? m->gen : 0;
		if (d->seen)
			d->gone_since = 0;
		else if (!d->gone_since)
			d->gone_since = m->now;
		p = d->pool[0] ? model_find_pool(m, d->pool) : NULL;
		d->restricted = p && p->restricted;
	}
}
