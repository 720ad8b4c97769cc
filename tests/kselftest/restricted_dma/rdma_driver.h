/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The restricted-DMA test driver (restricted_dma_test, CONFIG_DMA_RESTRICTED_POOL_TEST)
 * as the tests drive it: bind it to a board device, then write one
 * command at a time to the device's debugfs control file and read the
 * result ("key=value" words, or "error=<errno>") from the same open file.
 * Each control handle has its own result, so threads use one each.
 */
#ifndef RDMA_DRIVER_H
#define RDMA_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDMA_TEST_DRIVER	"restricted_dma_test"
#define RDMA_RESULT_LEN		1024

/* Bind the test driver to a platform device (driver_override); 0 or -errno. */
int rdma_drv_bind(const char *devname);
/* Unbind it (releases every handle left open) and clear driver_override. */
void rdma_drv_unbind(const char *devname);

struct rdma_ctl {
	int fd;
	char res[RDMA_RESULT_LEN];	/* the last command's result line */
};

/* Open the device's control file; 0 or -errno. */
int rdma_ctl_open(struct rdma_ctl *c, const char *devname);
void rdma_ctl_close(struct rdma_ctl *c);

/*
 * Run one command and read its result into c->res. Returns 0 when the
 * command succeeded, the driver's negative errno when the result reads
 * "error=<errno>", or -errno when the control file itself failed.
 */
int rdma_ctl_cmd(struct rdma_ctl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A number in a result ("id=3 dma=0x70c01000 ..."): 0, or -ENOENT. */
int rdma_res_u64(const char *res, const char *key, uint64_t *val);
/* Whether the result has exactly key=want. */
bool rdma_res_is(const char *res, const char *key, const char *want);

/* A single mapping, as "map" reported it. */
struct rdma_map {
	int id;
	uint64_t dma;
	uint64_t size;
	bool inpool;
	bool bounce_ok;
};

/* map SIZE OFFSET DIR; 0 or negative errno (see rdma_ctl_cmd). */
int rdma_map(struct rdma_ctl *c, size_t size, size_t offset, const char *dir,
	     struct rdma_map *m);
/* unmap ID; *data_ok tells whether the data survived. */
int rdma_unmap(struct rdma_ctl *c, int id, bool *data_ok);

struct rdma_board;
struct rdma_device;
struct rdma_pool;

/* A test device of the board with the driver bound and one handle open. */
struct rdma_testdev {
	const struct rdma_device *dev;
	const struct rdma_pool *pool;
	uint64_t base, end;		/* the pool, from the device tree */
	struct rdma_ctl ctl;
};

/*
 * Bind the test driver to the layout's test device (odd: the one whose
 * pool ends in a partial segment, see rdma_board_test_device()) and open
 * its control file. 0, or -errno with why filled in.
 */
int rdma_testdev_open(struct rdma_testdev *t, const struct rdma_board *b, bool odd,
		      char *why, size_t len);
/* The same for a given device of the layout (its pool must be listed). */
int rdma_testdev_open_dev(struct rdma_testdev *t, const struct rdma_board *b,
			  const struct rdma_device *d, char *why, size_t len);
/* Close the handle and unbind: the driver releases what is still mapped. */
void rdma_testdev_close(struct rdma_testdev *t);

#endif /* RDMA_DRIVER_H */
