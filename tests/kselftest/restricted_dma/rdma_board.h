/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the restricted-DMA tests know about the board under test.
 *
 * The board's contract is a layout file (default
 * /etc/rdma-board/expected-layout, or $RDMA_BOARD_LAYOUT): which
 * restricted pools exist, their sizes, and which device uses which pool.
 * The tests check that contract against the live device tree, the kernel
 * log, debugfs and tracefs, so a board that drifts from it fails.
 */
#ifndef RDMA_BOARD_H
#define RDMA_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDMA_MAX_POOLS		16
#define RDMA_MAX_DEVICES	32
#define RDMA_NAME_LEN		128
#define RDMA_SLOT_SIZE		2048	/* IO_TLB_SIZE: 1 << IO_TLB_SHIFT */

struct rdma_pool {
	char name[RDMA_NAME_LEN];	/* reserved-memory node name */
	uint64_t size;			/* from the layout */
};

struct rdma_device {
	char name[RDMA_NAME_LEN];	/* dev_name(), as in sysfs */
	char pool[RDMA_NAME_LEN];	/* "" when the device has no pool */
	char role[16];			/* blk, bridge, test */
};

struct rdma_board {
	struct rdma_pool pools[RDMA_MAX_POOLS];
	int npools;
	struct rdma_device devices[RDMA_MAX_DEVICES];
	int ndevices;
};

/*
 * Load the layout. Exits with KSFT_SKIP when there is no layout file (a
 * board these tests know nothing about) and KSFT_FAIL when it is broken.
 */
void rdma_board_load(struct rdma_board *b);

/* The pool of that name in the layout, or NULL. */
const struct rdma_pool *rdma_board_pool(const struct rdma_board *b, const char *name);

/*
 * snprintf() that says whether it truncated: 0, or -ENAMETOOLONG. Paths
 * built from sysfs and device-tree names go through it.
 */
int rdma_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL on error. */
char *rdma_read_file(const char *path, size_t *len);

/* Read one unsigned number from a file (decimal or 0x hex). */
int rdma_read_u64(const char *path, uint64_t *val);

/* Write a string to a file; 0 or -errno. */
int rdma_write_str(const char *path, const char *s);

/*
 * The pool's debugfs directory. 6.1 puts a pool at the debugfs root when
 * its device probes before swiotlb's late_initcall; *misplaced tells.
 * Returns 0 and fills dir, or -ENOENT.
 */
int rdma_pool_debugfs(const char *pool, char *dir, size_t len, bool *misplaced);

/* Base and size of the reserved-memory node, from its reg in the live DT. */
int rdma_dt_pool_reg(const char *pool, uint64_t *base, uint64_t *size);
int rdma_dt_pool_size(const char *pool, uint64_t *size);

/*
 * The restricted pool the device tree gives the device: its own node's
 * memory-region, else the nearest ancestor's with a node (the PCI host
 * bridge, as of_dma_configure() does for PCI; a PCI function's own node
 * without one falls back to it too). Fills pool ("" when
 * none); -ENOENT when the device does not exist.
 */
int rdma_dt_device_pool(const char *devname, char *pool, size_t len);

/*
 * The first reserved-memory node of a compatible ("shared-dma-pool") in
 * the memory-region of the device's own DT node: 0, or -ENOENT.
 */
int rdma_dt_device_region(const char *devname, const char *compat, char *region, size_t len);

/* The sysfs directory of a device by dev_name(), or -ENOENT. */
int rdma_sysfs_device(const char *devname, char *path, size_t len);

/*
 * What a pool's devices file should say of a device, from sysfs: "live"
 * (a driver is bound), "unbound", or "gone" (not in sysfs: never right).
 */
const char *rdma_device_state(const char *devname);

/*
 * Bind a platform driver to a device through driver_override, as tests do
 * with the board's test device; 0 or -errno. rdma_unbind_driver() undoes
 * it (unbind, clear the override).
 */
int rdma_bind_driver(const char *devname, const char *driver);
void rdma_unbind_driver(const char *devname, const char *driver);

/*
 * A device of class CLS ("block", "net") anywhere below the device in
 * sysfs: the disk of a storage controller (however deep its bus puts it:
 * nvme, ata, usb, mmc) or a NIC's interface. Fills name (no /dev/);
 * -ENOENT when the device has none (yet: USB and SD cards appear late).
 */
int rdma_device_class(const char *devname, const char *cls, char *name, size_t len);

/* rdma_device_class(), waiting up to secs for the device to appear. */
int rdma_device_class_wait(const char *devname, const char *cls, char *name, size_t len,
			   int secs);

/*
 * open() of a disk node that may exist before its disk can be opened: a
 * USB disk's node appears, then the SCSI layer resets the device and
 * open() fails with ENXIO until the reset is over. Retries those errors
 * for up to secs; a file descriptor, or -1 with errno set.
 */
int rdma_disk_open(const char *path, int flags, int secs);

/* The /dev node of the virtio block disk on that transport device. */
int rdma_block_device(const char *devname, char *dev, size_t len);

/* The whole kernel log (klogctl); malloc'd, NULL on error. */
char *rdma_kernel_log(void);

/* Fill len bytes with pseudo-random data from a seed. */
void rdma_fill_random(void *buf, size_t len, uint64_t seed);

/*
 * A pool smaller than this was shrunk by an overlay (zoo-exhaust.dtso) so
 * that the zoo tests' load cannot fit: the tests then expect it to run dry.
 */
#define RDMA_SHRUNK_POOL	(2u << 20)

/*
 * Whether the pool's device-tree size is known and under RDMA_SHRUNK_POOL;
 * *size: that size, or 0 when unknown.
 */
bool rdma_pool_shrunk(const char *pool, uint64_t *size);

/*
 * The first test-role device of the layout whose pool size is (odd ==
 * false) or is not (odd == true) a whole number of 256 KiB segments;
 * NULL when there is none.
 */
const struct rdma_device *rdma_board_test_device(const struct rdma_board *b, bool odd);
/* Roles test and shared: devices that no driver binds at boot. */
bool rdma_device_driverless(const struct rdma_device *d);

/*
 * A fuzzer's bounds: RDMA_FUZZ_SECONDS (else def) and RDMA_FUZZ_SEED (a
 * seed to replay, else a random one), which it prints. Exits the test on
 * a bad value.
 */
void rdma_fuzz_setup(double def, double *secs, uint64_t *seed);
/* CLOCK_MONOTONIC in seconds. */
double rdma_now(void);

/*
 * Whether the kernel command line has this word. A "key=value" word also
 * matches a key=a,b,... parameter that lists value ("restricted_dma=strict"
 * matches restricted_dma=strict,scrub).
 */
bool rdma_cmdline_has(const char *word);

/*
 * Tracing through tracefs, in a fresh buffer. An event is "system/name",
 * or "system" for all of its events.
 */
int rdma_trace_start(const char *event);
int rdma_trace_stop(const char *event);
int rdma_trace_start_events(const char *const *events, int n);
void rdma_trace_stop_events(const char *const *events, int n);
/* Count trace lines of the last session that mention "dev_name: DEV ". */
long rdma_trace_count_device(const char *devname);

#endif /* RDMA_BOARD_H */
