/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collectors: where the model's numbers come from.
 *  - sys: debugfs (pools, their use, their devices) and the device tree
 *    (which device names which pool, whether a driver is bound);
 *  - bpf: the rdma_trace program's maps and ring buffer.
 * One interval: model_begin, sys_pools, bpf_read, sys_devices.
 */
#ifndef RDMATOP_COLLECT_H
#define RDMATOP_COLLECT_H

#include <stddef.h>
#include "model.h"

/* Where the kernel's files are; tests point these elsewhere. */
struct sys_paths {
	const char *debugfs;		/* /sys/kernel/debug */
	const char *devicetree;		/* /proc/device-tree */
	const char *sysfs;		/* /sys */
};

extern const struct sys_paths sys_default_paths;

/*
 * sys_paths_at - the kernel's files under @root (a test's fake tree) in
 * @p, the names in @buf (three times PATH_MAX); the default ones when
 * @root is NULL or empty.
 */
void sys_paths_at(struct sys_paths *p, const char *root, char *buf, size_t len);

/*
 * Pools: with @rescan, found in debugfs (both layouts) and the device tree,
 * with their devices (sets RT_F_HIWATER); without, only the used and peak
 * slots of the pools already found: two small reads each, where a rescan
 * walks directories.
 */
void sys_pools(struct rt_model *m, const struct sys_paths *p, bool rescan);
/*
 * Devices: liveness and binding; with @rescan, also the device tree's pool
 * assignments (a walk of every platform and PCI device: not every interval).
 */
void sys_devices(struct rt_model *m, const struct sys_paths *p, bool rescan);

/*
 * sys_memlock - the kernel memory charged to one BPF object: the
 * "memlock:" line of its /proc/PID/fdinfo/FD file at @path. Returns 0, or
 * -1 when the file or the line is missing.
 */
int sys_memlock(const char *path, uint64_t *bytes);

/*
 * sys_ram - the board's RAM from /proc/iomem at @path: its top-level
 * "System RAM" and "reserved" ranges (arm64 lists memory the kernel does
 * not map, no-map reserved-memory, as "reserved"), merged where they
 * touch, into @r (at most @max). Returns how many, or 0 when it cannot
 * tell: the file is unreadable, lists no RAM, shows the zero addresses it
 * gives a reader without CAP_SYS_ADMIN, or has more ranges than @max.
 */
int sys_ram(const char *path, struct rdma_ram *r, int max);

struct rt_bpf;

/*
 * bpf_open - load and attach rdma_trace, with the programs this kernel's
 * BTF calls for (sources.h). Sets @m's features and source. Returns NULL
 * with a one-line reason in @err.
 */
struct rt_bpf *bpf_open(int verbose, bool restricted_only, bool self, struct rt_model *m,
			char *err, size_t errlen);
/* An fd that polls readable when rare events wait. */
int bpf_events_fd(struct rt_bpf *b);
/* Moves waiting rare events into the model. */
void bpf_events(struct rt_bpf *b, struct rt_model *m);
/* Reads the maps into the model. */
void bpf_read(struct rt_bpf *b, struct rt_model *m);
void bpf_close(struct rt_bpf *b);

/*
 * Checks what rdmatop needs before it loads anything: privileges, debugfs,
 * tracefs, BTF. Returns 0 or -1 with one line naming what is missing and
 * how to fix it.
 */
int env_check(bool need_bpf, char *err, size_t errlen);

/* The environment variable that points rdmatop at a fake tree (tests). */
#define RDMATOP_SYSROOT_ENV	"RDMATOP_SYSROOT"

#endif
