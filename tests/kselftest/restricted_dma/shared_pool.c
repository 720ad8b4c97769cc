// SPDX-License-Identifier: GPL-2.0
/*
 * Two devices that share a restricted pool (the board's role "shared"
 * devices) and probe at the same moment get one allocator (the series'
 * "swiotlb: set up a restricted pool shared by devices only once"):
 * together their mappings fill the pool exactly once, never overlap, and
 * the pool lists both devices. With two allocators over the same memory
 * each device could fill the whole pool, over the other's mappings.
 *
 * A pool is set up by the first probe of one of its devices, once per
 * boot, so the race is only tried when nothing bound them before: this
 * program comes first in the restricted_dma collection. Run again in the
 * same boot, first_probe_at_once skips; one_allocator still checks.
 *
 * The race's window is the pool's setup. With restricted_dma=scrub (the
 * strict boot) it includes zeroing the 4 MiB pool, and a kernel without
 * the fix failed first_probe_at_once in 3 boots of 3; without scrubbing
 * the window is shorter and one boot may miss it.
 *
 * With restricted_dma=exclusive (also the strict boot) a pool serves the
 * first device given it ("swiotlb: let strict mode keep a restricted pool
 * to one device"): of the two probes exactly one succeeds, the other
 * fails with EBUSY and is not listed; its mappings would fail (fenced).
 * Two allocators would let both probe, each the owner of its own.
 *
 * The pool's devices file says which of its devices are live: a device
 * that unbinds stays listed, as "unbound".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_harness.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_stats.h"

#define EXCLUSIVE	"restricted_dma=exclusive"
#define CHUNK		(128 * 1024)	/* half a segment: a pool holds a whole number */
#define MAX_CHUNKS	256

static struct rdma_board board;

struct binder {
	const char *dev;
	pthread_barrier_t *go;
	int ret;
};

static void *bind_at_once(void *arg)
{
	struct binder *b = arg;

	pthread_barrier_wait(b->go);
	b->ret = rdma_drv_bind(b->dev);
	return NULL;
}

FIXTURE(shared) {
	const struct rdma_device *dev[2];
	const struct rdma_pool *pool;
	bool was_up;		/* the pool was set up before this fixture */
	bool exclusive;		/* restricted_dma=exclusive: one device probes */
	struct rdma_ctl ctl[2];
	bool bound[2];
};

FIXTURE_SETUP(shared)
{
	struct binder b[2];
	pthread_barrier_t go;
	pthread_t th[2];
	char path[PATH_MAX];
	int n = 0;

	for (int i = 0; i < board.ndevices && n < 2; i++)
		if (!strcmp(board.devices[i].role, "shared"))
			self->dev[n++] = &board.devices[i];
	ASSERT_EQ(2, n) TH_LOG("the layout has no two devices of role shared");
	ASSERT_STREQ(self->dev[0]->pool, self->dev[1]->pool);
	self->pool = rdma_board_pool(&board, self->dev[0]->pool);
	ASSERT_NE(NULL, self->pool);
	self->was_up = !rdma_pool_file(self->pool->name, "io_tlb_nslabs", path, sizeof(path));

	ASSERT_EQ(0, pthread_barrier_init(&go, NULL, 2));
	for (int i = 0; i < 2; i++) {
		b[i] = (struct binder){ .dev = self->dev[i]->name, .go = &go };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, bind_at_once, &b[i]));
	}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&go);
	for (int i = 0; i < 2; i++)
		self->bound[i] = !b[i].ret;
	self->exclusive = rdma_cmdline_has(EXCLUSIVE);
	if (self->exclusive) {
		int loser = self->bound[0];

		ASSERT_EQ(1, self->bound[0] + self->bound[1]) {
			TH_LOG("%s: %s and %s both probed on one pool", EXCLUSIVE,
			       self->dev[0]->name, self->dev[1]->name);
		}
		EXPECT_EQ(-EBUSY, b[loser].ret) {
			TH_LOG("%s: binding %s: %s", EXCLUSIVE, self->dev[loser]->name,
			       strerror(-b[loser].ret));
		}
	}
	for (int i = 0; i < 2; i++) {
		if (!self->exclusive) {
			ASSERT_EQ(0, b[i].ret) {
				TH_LOG("binding %s: %s", self->dev[i]->name, strerror(-b[i].ret));
			}
		}
		if (self->bound[i])
			ASSERT_EQ(0, rdma_ctl_open(&self->ctl[i], self->dev[i]->name));
	}
}

FIXTURE_TEARDOWN(shared)
{
	for (int i = 0; i < 2; i++) {
		if (self->ctl[i].fd > 0)
			rdma_ctl_close(&self->ctl[i]);
		/* also clears a refused device's driver_override */
		rdma_drv_unbind(self->dev[i]->name);
	}
}

static int by_dma(const void *a, const void *b)
{
	const struct rdma_map *x = a, *y = b;

	return x->dma < y->dma ? -1 : x->dma > y->dma;
}

/*
 * The state the pool's devices file gives a device ("live", "unbound" ...)
 * into state, or "" when the device is not listed; -errno if unreadable.
 */
static int listed_state(const char *pool, const char *name, char *state, size_t len)
{
	char path[PATH_MAX], *text, *line, *save;
	size_t n = strlen(name);

	if (rdma_pool_file(pool, "devices", path, sizeof(path)))
		return -ENOENT;
	text = rdma_read_file(path, NULL);
	if (!text)
		return -errno;
	rdma_fmt(state, len, "%s", "");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, name, n) && line[n] == ' ')
			rdma_fmt(state, len, "%s", line + n + 1);
	free(text);
	return 0;
}

/*
 * The bound devices map, in turn, until the pool is full: one pool's
 * worth, no overlap; each bound device is listed live, a refused one not.
 */
static void check_one_allocator(struct __test_metadata *_metadata,
				FIXTURE_DATA(shared) *self)
{
	static struct rdma_map maps[MAX_CHUNKS];
	static int owner[MAX_CHUNKS];
	uint64_t want = self->pool->size / CHUNK, used;
	bool full[2] = { !self->bound[0], !self->bound[1] }, ok;
	int n = 0, per[2] = { 0, 0 }, d = 1;
	char state[32];

	ASSERT_GT((uint64_t)MAX_CHUNKS, 2 * want);
	while (n < MAX_CHUNKS && !(full[0] && full[1])) {
		d = full[!d] ? d : !d;
		if (rdma_map(&self->ctl[d], CHUNK, 0, "to", &maps[n])) {
			full[d] = true;
			continue;
		}
		EXPECT_TRUE(maps[n].inpool);
		owner[n] = d;
		per[d]++;
		n++;
	}
	EXPECT_EQ(want, (uint64_t)n) {
		TH_LOG("%s and %s mapped %d + %d chunks of %d bytes into a pool of %llu",
		       self->dev[0]->name, self->dev[1]->name, per[0], per[1], CHUNK,
		       (unsigned long long)want);
	}
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(self->bound[i], per[i] > 0) {
			TH_LOG("%s: %s, %d chunks", self->dev[i]->name,
			       self->bound[i] ? "bound" : "refused", per[i]);
		}
	}
	ASSERT_EQ(0, rdma_pool_u64(self->pool->name, "io_tlb_used", &used));
	EXPECT_EQ(self->pool->size / RDMA_SLOT_SIZE, used);

	/* Unmap in the order mapped, before sorting loses the owners. */
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(0, rdma_unmap(&self->ctl[owner[i]], maps[i].id, &ok));
		EXPECT_TRUE(ok) TH_LOG("chunk %d of %s: its data did not survive", i,
				       self->dev[owner[i]]->name);
	}
	qsort(maps, n, sizeof(maps[0]), by_dma);
	for (int i = 1; i < n; i++) {
		EXPECT_LE(maps[i - 1].dma + CHUNK, maps[i].dma) {
			TH_LOG("mappings at %#llx and %#llx overlap",
			       (unsigned long long)maps[i - 1].dma,
			       (unsigned long long)maps[i].dma);
		}
	}

	for (int i = 0; i < 2; i++) {
		const char *want_state = self->bound[i] ? "live" : "";

		ASSERT_EQ(0, listed_state(self->pool->name, self->dev[i]->name, state,
					  sizeof(state)));
		EXPECT_STREQ(want_state, state) {
			TH_LOG("%s's devices: %s is '%s', not '%s'", self->pool->name,
			       self->dev[i]->name, state, want_state);
		}
	}
}

/* The first probes of the pool's devices, at once: one allocator. */
TEST_F(shared, first_probe_at_once)
{
	if (self->was_up)
		SKIP(return, "%s was set up before: run this first in a fresh boot",
		     self->pool->name);
	check_one_allocator(_metadata, self);
}

/* Later probes of a pool that is up find the same allocator. */
TEST_F(shared, one_allocator)
{
	check_one_allocator(_metadata, self);
}

/* A device that unbinds stays listed, as unbound: it still has the pool. */
TEST_F(shared, devices_say_which_are_live)
{
	int i = self->bound[0] ? 0 : 1;
	char state[32];

	ASSERT_EQ(0, listed_state(self->pool->name, self->dev[i]->name, state, sizeof(state)));
	EXPECT_STREQ("live", state);
	rdma_ctl_close(&self->ctl[i]);
	rdma_drv_unbind(self->dev[i]->name);
	self->bound[i] = false;
	ASSERT_EQ(0, listed_state(self->pool->name, self->dev[i]->name, state, sizeof(state)));
	EXPECT_STREQ("unbound", state);
}

/* restricted_dma=exclusive shows in the pool's exclusive file. */
TEST_F(shared, exclusive_as_booted)
{
	char path[PATH_MAX], *s;

	ASSERT_EQ(0, rdma_pool_file(self->pool->name, "exclusive", path, sizeof(path)));
	s = rdma_read_file(path, NULL);
	ASSERT_NE(NULL, s);
	EXPECT_STREQ(self->exclusive ? "Y\n" : "N\n", s);
	free(s);
}

int main(int argc, char **argv)
{
	rdma_board_load(&board);
	return test_harness_run(argc, argv);
}
