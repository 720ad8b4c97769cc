// SPDX-License-Identifier: GPL-2.0
/*
 * Driving the restricted-DMA test driver through its debugfs control file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdma_board.h"
#include "rdma_driver.h"

#define CONTROL_DIR	"/sys/kernel/debug/" RDMA_TEST_DRIVER

int rdma_drv_bind(const char *devname)
{
	char path[PATH_MAX];
	struct stat st;
	int ret = rdma_bind_driver(devname, RDMA_TEST_DRIVER);

	if (ret)
		return ret;
	rdma_fmt(path, sizeof(path), CONTROL_DIR "/%s/control", devname);
	return stat(path, &st) ? -errno : 0;
}

void rdma_drv_unbind(const char *devname)
{
	rdma_unbind_driver(devname, RDMA_TEST_DRIVER);
}

int rdma_ctl_open(struct rdma_ctl *c, const char *devname)
{
	char path[PATH_MAX];

	memset(c, 0, sizeof(*c));
	rdma_fmt(path, sizeof(path), CONTROL_DIR "/%s/control", devname);
	c->fd = open(path, O_RDWR);
	return c->fd < 0 ? -errno : 0;
}

void rdma_ctl_close(struct rdma_ctl *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int rdma_ctl_cmd(struct rdma_ctl *c, const char *fmt, ...)
{
	char cmd[128];
	uint64_t err;
	va_list ap;
	ssize_t n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	c->res[0] = '\0';
	if (n < 0 || (size_t)n >= sizeof(cmd))
		return -ENAMETOOLONG;
	if (write(c->fd, cmd, n) != n) {
		int ret = -errno;

		snprintf(c->res, sizeof(c->res), "write: %s", strerror(errno));
		return ret;
	}
	n = pread(c->fd, c->res, sizeof(c->res) - 1, 0);
	if (n < 0)
		return -errno;
	c->res[n] = '\0';
	c->res[strcspn(c->res, "\n")] = '\0';
	if (!strncmp(c->res, "error=", 6))
		return rdma_res_u64(c->res, "error", &err) ? -EPROTO : (int)(int64_t)err;
	return 0;
}

/* The value of key=... in a result, or NULL. */
static const char *res_value(const char *res, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = res; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return p + klen + 1;
	return NULL;
}

int rdma_res_u64(const char *res, const char *key, uint64_t *val)
{
	const char *v = res_value(res, key);
	char *end;

	if (!v)
		return -ENOENT;
	errno = 0;
	*val = strtoull(v, &end, 0);
	if (*v == '-')		/* error=-12 */
		*val = (uint64_t)strtoll(v, &end, 0);
	if (errno || end == v || (*end && *end != ' ' && *end != ','))
		return -ENOENT;
	return 0;
}

bool rdma_res_is(const char *res, const char *key, const char *want)
{
	const char *v = res_value(res, key);
	size_t len = strlen(want);

	return v && !strncmp(v, want, len) && (v[len] == ' ' || !v[len]);
}

int rdma_map(struct rdma_ctl *c, size_t size, size_t offset, const char *dir,
	     struct rdma_map *m)
{
	uint64_t id, inpool;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = rdma_ctl_cmd(c, "map %zu %zu %s", size, offset, dir);
	if (ret)
		return ret;
	if (rdma_res_u64(c->res, "id", &id) || rdma_res_u64(c->res, "dma", &m->dma) ||
	    rdma_res_u64(c->res, "size", &m->size) || rdma_res_u64(c->res, "inpool", &inpool))
		return -EPROTO;
	m->id = id;
	m->inpool = inpool;
	m->bounce_ok = rdma_res_is(c->res, "bounce", "ok");
	return 0;
}

int rdma_unmap(struct rdma_ctl *c, int id, bool *data_ok)
{
	int ret = rdma_ctl_cmd(c, "unmap %d", id);

	*data_ok = !ret && rdma_res_is(c->res, "data", "ok");
	return ret;
}

int rdma_testdev_open(struct rdma_testdev *t, const struct rdma_board *b, bool odd,
		      char *why, size_t len)
{
	const struct rdma_device *d = rdma_board_test_device(b, odd);

	if (!d) {
		memset(t, 0, sizeof(*t));
		t->ctl.fd = -1;
		rdma_fmt(why, len, "the layout lists no test device with a%s pool",
			 odd ? "n odd-size" : " 256 KiB-multiple");
		return -ENOENT;
	}
	return rdma_testdev_open_dev(t, b, d, why, len);
}

int rdma_testdev_open_dev(struct rdma_testdev *t, const struct rdma_board *b,
			  const struct rdma_device *d, char *why, size_t len)
{
	uint64_t size;
	int ret;

	memset(t, 0, sizeof(*t));
	t->ctl.fd = -1;
	t->dev = d;
	t->pool = rdma_board_pool(b, t->dev->pool);
	if (!t->pool) {
		rdma_fmt(why, len, "device %s: no pool in the layout", d->name);
		return -ENOENT;
	}
	ret = rdma_dt_pool_reg(t->pool->name, &t->base, &size);
	if (ret) {
		rdma_fmt(why, len, "pool %s: no reg in the device tree", t->pool->name);
		return ret;
	}
	t->end = t->base + size;
	ret = rdma_drv_bind(t->dev->name);
	if (ret) {
		rdma_fmt(why, len, "cannot bind %s to %s: %s", RDMA_TEST_DRIVER, t->dev->name,
			 strerror(-ret));
		rdma_drv_unbind(t->dev->name);
		return ret;
	}
	ret = rdma_ctl_open(&t->ctl, t->dev->name);
	if (ret) {
		rdma_fmt(why, len, "%s: cannot open the control file: %s", t->dev->name,
			 strerror(-ret));
		rdma_drv_unbind(t->dev->name);
	}
	return ret;
}

void rdma_testdev_close(struct rdma_testdev *t)
{
	rdma_ctl_close(&t->ctl);
	if (t->dev)
		rdma_drv_unbind(t->dev->name);
}
