// SPDX-License-Identifier: GPL-2.0
/*
 * The pools and devices model: lookups, intervals, derived numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "model.h"

static const char *const feature_names[] = {
	"bpf", "unmap", "direction", "failures", "out_of_pool_kernel",
	"out_of_pool_check", "hiwater", "coherent", "dma_api",
};

const char *rt_feature_name(unsigned int feature)
{
	unsigned int i;

	for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
		if (feature == 1u << i)
			return feature_names[i];
	return "?";
}

const char *rt_source_name(unsigned int s)
{
	switch (s) {
	case RDMA_SRC_TP:
		return "tracepoints";
	case RDMA_SRC_FENTRY:
		return "fentry";
	default:
		return "swiotlb_bounced";
	}
}

void model_init(struct rt_model *m)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	if (!uname(&u)) {
		snprintf(m->host, sizeof(m->host), "%s", u.nodename);
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	}
}

void model_free(struct rt_model *m)
{
	free(m->pools);
	free(m->devs);
	free(m->interval_events);
	memset(m, 0, sizeof(*m));
}

void model_begin(struct rt_model *m, double now)
{
	size_t i;

	m->dt = m->gen ? now - m->now : 0;
	if (!m->gen)
		m->started = now;
	m->now = now;
	m->gen++;
	for (i = 0; i < m->npools; i++) {
		m->pools[i].prev = m->pools[i].cur;
		m->pools[i].have_used = false;
		m->pools[i].have_hiwater = false;
	}
	for (i = 0; i < m->ndevs; i++)
		m->devs[i].prev = m->devs[i].cur;
	m->prev_prog_runs = m->prog_runs;
	m->prev_prog_run_ns = m->prog_run_ns;
}

void model_record_use(struct rt_model *m)
{
	struct rt_pool *p;
	size_t i;

	for (i = 0; i < m->npools; i++) {
		p = &m->pools[i];
		p->use_hist[p->use_n++ % RT_USE_HISTORY] = p->have_used && p->size ?
			(uint8_t)(rt_pct(rt_used_bytes(p), p->size) + 0.5) : RT_USE_UNKNOWN;
	}
}

void model_events_done(struct rt_model *m)
{
	m->ninterval = 0;
}

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	ncap = *cap ? *cap * 2 : 8;
	p = realloc(arr, ncap * size);
	if (!p)
		return NULL;
	memset((char *)p + *cap * size, 0, (ncap - *cap) * size);
	*cap = ncap;
	return p;
}

static void copy_name(char *dst, const char *src)
{
	strncpy(dst, src, RDMA_NAME_LEN - 1);
	dst[RDMA_NAME_LEN - 1] = '\0';
}

struct rt_pool *model_find_pool(const struct rt_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->npools; i++)
		if (!strncmp(m->pools[i].name, name, RDMA_NAME_LEN - 1))
			return &m->pools[i];
	return NULL;
}

struct rt_pool *model_pool_by_key(const struct rt_model *m, uint64_t key)
{
	size_t i;

	for (i = 0; key && i < m->npools; i++)
		if (m->pools[i].key == key)
			return &m->pools[i];
	return NULL;
}

struct rt_pool *model_pool_by_base(const struct rt_model *m, uint64_t base)
{
	size_t i;

	for (i = 0; i < m->npools; i++)
		if (m->pools[i].size && m->pools[i].base == base)
			return &m->pools[i];
	return NULL;
}

struct rt_dev *model_find_dev(const struct rt_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->ndevs; i++)
		if (!strncmp(m->devs[i].name, name, RDMA_NAME_LEN - 1))
			return &m->devs[i];
	return NULL;
}

struct rt_pool *model_pool(struct rt_model *m, const char *name)
{
	struct rt_pool *p = model_find_pool(m, name), *arr;

	if (!p) {
		arr = grow(m->pools, &m->pools_cap, m->npools, sizeof(*arr));
		if (!arr)
			return NULL;
		m->pools = arr;
		p = &m->pools[m->npools++];
		copy_name(p->name, name);
	}
	p->seen = m->gen;
	return p;
}

struct rt_dev *model_dev(struct rt_model *m, const char *name)
{
	struct rt_dev *d = model_find_dev(m, name), *arr;

	if (!d) {
		arr = grow(m->devs, &m->devs_cap, m->ndevs, sizeof(*arr));
		if (!arr)
			return NULL;
		m->devs = arr;
		d = &m->devs[m->ndevs++];
		copy_name(d->name, name);
	}
	d->seen = m->gen;
	return d;
}

bool model_pool_live(const struct rt_model *m, const struct rt_pool *p)
{
	return p->seen == m->gen;
}

bool model_dev_live(const struct rt_model *m, const struct rt_dev *d)
{
	return d->seen == m->gen;
}

static void record_oop(struct rt_dev *d, const struct rdma_event *ev)
{
	memcpy(d->last_oop.api, ev->api, sizeof(d->last_oop.api));
	d->last_oop.api[RDMA_API_LEN - 1] = '\0';
	d->last_oop.addr = ev->addr;
	d->last_oop.size = ev->size;
	d->last_oop.pool_start = ev->pool_start;
	d->last_oop.pool_end = ev->pool_end;
}

void model_event(struct rt_model *m, const struct rdma_event *ev, double time)
{
	struct rt_event *slot, *arr;
	struct rt_dev *d;
	char name[RDMA_NAME_LEN];

	slot = &m->recent[m->recent_head];
	slot->ev = *ev;
	slot->ev.dev_name[RDMA_NAME_LEN - 1] = '\0';
	slot->ev.pool_name[RDMA_NAME_LEN - 1] = '\0';
	slot->ev.api[RDMA_API_LEN - 1] = '\0';
	slot->time = time;
	m->recent_head = (m->recent_head + 1) % RT_RECENT;
	if (m->nrecent < RT_RECENT)
		m->nrecent++;

	arr = grow(m->interval_events, &m->interval_cap, m->ninterval, sizeof(*arr));
	if (arr) {
		m->interval_events = arr;
		arr[m->ninterval++] = *slot;
	}

	memcpy(name, slot->ev.dev_name, sizeof(name));
	if (!name[0])
		return;
	d = model_dev(m, name);
	if (!d)
		return;
	switch (ev->type) {
	case RDMA_EV_ATTACH:
		copy_name(d->pool, slot->ev.pool_name);
		d->restricted = true;
		break;
	case RDMA_EV_DETACH:
		d->pool[0] = '\0';
		d->restricted = false;
		break;
	case RDMA_EV_OOP_KERNEL:
	case RDMA_EV_OOP_CHECK:
		record_oop(d, &slot->ev);
		break;
	}
}

double rt_rate(uint64_t cur, uint64_t prev, double dt)
{
	if (dt <= 0 || cur < prev)
		return 0;
	return (double)(cur - prev) / dt;
}

uint64_t rt_used_bytes(const struct rt_pool *p)
{
	return p->used * RT_SLOT_SIZE;
}

uint64_t rt_hiwater_bytes(const struct rt_pool *p)
{
	return p->hiwater * RT_SLOT_SIZE;
}

double rt_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

uint64_t rt_oop(const rt_counters *c)
{
	return c->oop_kernel > c->oop_check ? c->oop_kernel : c->oop_check;
}

uint64_t rt_failures(const rt_counters *c)
{
	return c->map_failures + c->alloc_failures;
}

void rt_counters_add(rt_counters *sum, const rt_counters *one)
{
	__u64 *s = (__u64 *)sum;
	const __u64 *o = (const __u64 *)one;
	size_t i;

	/* Every field is 64 bits wide; the in-flight deltas wrap to their sum. */
	for (i = 0; i < sizeof(*sum) / sizeof(__u64); i++)
		s[i] += o[i];
}

void rt_counters_add_mappings(rt_counters *sum, const rt_counters *one)
{
	int i;

	for (i = 0; i < RDMA_HIST_SLOTS; i++) {
		sum->size_hist[i] += one->size_hist[i];
		sum->time_hist[i] += one->time_hist[i];
	}
	sum->maps += one->maps;
	sum->unmaps += one->unmaps;
	sum->map_bytes += one->map_bytes;
	sum->bytes_to_device += one->bytes_to_device;
	sum->bytes_from_device += one->bytes_from_device;
	sum->inflight += one->inflight;
	sum->inflight_bytes += one->inflight_bytes;
	sum->time_ns += one->time_ns;
}

void rt_hist_delta(const __u64 *cur, const __u64 *prev, uint64_t *out)
{
	int i;

	for (i = 0; i < RDMA_HIST_SLOTS; i++)
		out[i] = cur[i] >= prev[i] ? cur[i] - prev[i] : 0;
}

uint64_t model_total_used(const struct rt_model *m)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->npools; i++)
		if (model_pool_live(m, &m->pools[i]))
			sum += rt_used_bytes(&m->pools[i]);
	return sum;
}

uint64_t model_total_size(const struct rt_model *m)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < m->npools; i++)
		if (model_pool_live(m, &m->pools[i]) && m->pools[i].restricted)
			sum += m->pools[i].size;
	return sum;
}

/* Pool maps and unmaps per second: every bounce is counted at its pool. */
double model_events_per_s(const struct rt_model *m)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < m->npools; i++) {
		const struct rt_pool *p = &m->pools[i];

		sum += rt_rate(p->cur.maps, p->prev.maps, m->dt);
		sum += rt_rate(p->cur.unmaps, p->prev.unmaps, m->dt);
	}
	return sum;
}

static const char *const sort_names[RT_SORT_COUNT] = {
	[RT_SORT_NAME] = "name",
	[RT_SORT_POOL] = "pool",
	[RT_SORT_USED] = "used",
	[RT_SORT_MAPS] = "maps",
	[RT_SORT_BYTES] = "bytes",
	[RT_SORT_INFLIGHT] = "inflight",
	[RT_SORT_FAILURES] = "failures",
	[RT_SORT_OOP] = "oop",
};

const char *rt_sort_name(enum rt_sort s)
{
	return s < RT_SORT_COUNT ? sort_names[s] : "?";
}

int rt_sort_parse(const char *name)
{
	int i;

	for (i = 0; i < RT_SORT_COUNT; i++)
		if (!strcmp(name, sort_names[i]))
			return i;
	return -1;
}

/* qsort has no context argument: the key lives here for one sort. */
static enum rt_sort sort_by;
static bool sort_reverse;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_double(double a, double b)
{
	return a < b ? -1 : a > b;
}

static int cmp_counters(const rt_counters *a, const rt_counters *ap,
			const rt_counters *b, const rt_counters *bp)
{
	switch (sort_by) {
	case RT_SORT_MAPS:
		return cmp_u64(a->maps - ap->maps, b->maps - bp->maps);
	case RT_SORT_BYTES:
		return cmp_u64(a->map_bytes - ap->map_bytes, b->map_bytes - bp->map_bytes);
	case RT_SORT_INFLIGHT:
		return cmp_double((double)a->inflight, (double)b->inflight);
	case RT_SORT_FAILURES:
		return cmp_u64(rt_failures(a), rt_failures(b));
	case RT_SORT_OOP:
		return cmp_u64(rt_oop(a), rt_oop(b));
	default:
		return 0;
	}
}

static int finish(int r, const char *an, const char *bn)
{
	/* Numbers sort biggest first; names alphabetically; ties by name. */
	if (!r)
		return strcmp(an, bn);
	return sort_reverse ? r : -r;
}

static int cmp_pool(const void *va, const void *vb)
{
	const struct rt_pool *a = va, *b = vb;
	int r;

	switch (sort_by) {
	case RT_SORT_NAME:
	case RT_SORT_POOL:
		r = strcmp(a->name, b->name);
		return sort_reverse ? -r : r;
	case RT_SORT_USED:
		r = cmp_u64(a->used, b->used);
		break;
	default:
		r = cmp_counters(&a->cur, &a->prev, &b->cur, &b->prev);
	}
	return finish(r, a->name, b->name);
}

static int cmp_dev(const void *va, const void *vb)
{
	const struct rt_dev *a = va, *b = vb;
	int r;

	switch (sort_by) {
	case RT_SORT_NAME:
		r = strcmp(a->name, b->name);
		return sort_reverse ? -r : r;
	case RT_SORT_POOL:
		r = strcmp(a->pool, b->pool);
		if (!r)
			r = strcmp(a->name, b->name);
		return sort_reverse ? -r : r;
	case RT_SORT_USED:
		r = cmp_double((double)a->cur.inflight_bytes, (double)b->cur.inflight_bytes);
		break;
	default:
		r = cmp_counters(&a->cur, &a->prev, &b->cur, &b->prev);
	}
	return finish(r, a->name, b->name);
}

void model_sort(struct rt_model *m, enum rt_sort by, bool reverse)
{
	sort_by = by;
	sort_reverse = reverse;
	if (m->npools)
		qsort(m->pools, m->npools, sizeof(*m->pools), cmp_pool);
	if (m->ndevs)
		qsort(m->devs, m->ndevs, sizeof(*m->devs), cmp_dev);
}

bool rt_pool_match(const struct rt_pool *p, const char *filter)
{
	return !filter || !*filter || strstr(p->name, filter);
}

bool model_dev_listed(const struct rt_model *m, const struct rt_dev *d)
{
	return model_dev_live(m, d) || !d->gone_since || m->now - d->gone_since < RT_GONE_KEEP;
}

bool rt_full_mode(const struct rt_model *m)
{
	unsigned int f = m->features | (m->no_debugfs ? RT_F_HIWATER : 0);

	return (f & RT_F_ALL) == RT_F_ALL;
}

unsigned int rt_dev_features(const struct rt_model *m, const struct rt_dev *d)
{
	if (m->restricted_only && !d->restricted)
		return m->features & (RT_F_HIWATER | RT_F_OOP_KERNEL);
	return m->features;
}

bool rt_dev_match(const struct rt_dev *d, const char *filter)
{
	return !filter || !*filter || strstr(d->name, filter) || strstr(d->pool, filter);
}
