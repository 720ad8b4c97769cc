// SPDX-License-Identifier: GPL-2.0
/*
 * --check: did every DMA of every restricted device land inside its pool,
 * and did no pool fail, during the window? The BPF program's counters
 * start at zero when it attaches, so they cover exactly the window.
 */
#include "options.h"
#include "output.h"

static void oop_line(FILE *out, const struct rt_dev *d)
{
	const rt_counters *c = &d->cur;
	const struct rt_oop *o = &d->last_oop;

	fprintf(out, "rdmatop: FAIL %s: %llu out-of-pool DMA range(s) (kernel audit %llu, "
		"rdmatop check %llu), pool %s",
		d->name, (unsigned long long)rt_oop(c), (unsigned long long)c->oop_kernel,
		(unsigned long long)c->oop_check, d->pool[0] ? d->pool : "?");
	if (o->api[0])
		fprintf(out, "; last %s %#llx+%llu outside [%#llx-%#llx)", o->api,
			(unsigned long long)o->addr, (unsigned long long)o->size,
			(unsigned long long)o->pool_start, (unsigned long long)o->pool_end);
	fputc('\n', out);
}

int check_verdict(const struct rt_model *m, bool failures_warn, double secs, int signo,
		  FILE *out)
{
	bool see_failures = m->features & RT_F_FAILURES;
	uint64_t maps = 0, checked = 0;
	int status = RT_EXIT_OK;
	char missed[128] = "";
	size_t i;

	for (i = 0; i < m->ndevs; i++) {
		const struct rt_dev *d = &m->devs[i];
		const rt_counters *c = &d->cur;

		maps += c->maps;
		checked += d->restricted;
		if (rt_oop(c)) {
			oop_line(out, d);
			status = RT_EXIT_CHECK_FAILED;
		} else if (rt_failures(c)) {
			fprintf(out, "rdmatop: %s %s: %llu map and %llu coherent allocation "
				"failure(s) in pool %s\n",
				failures_warn ? "WARN" : "FAIL", d->name,
				(unsigned long long)c->map_failures,
				(unsigned long long)c->alloc_failures,
				d->pool[0] ? d->pool : "?");
			if (!failures_warn)
				status = RT_EXIT_CHECK_FAILED;
		}
		if (c->unchecked) {
			fprintf(out, "rdmatop: FAIL %s: %llu scatterlist segment(s) past the first "
				"%d of their list, not checked\n", d->name,
				(unsigned long long)c->unchecked, RDMA_MAX_SG);
			status = RT_EXIT_CHECK_FAILED;
		}
	}
	/* What no device of the model carries: devices past the BPF tables. */
	if (m->self.oop_untracked) {
		fprintf(out, "rdmatop: FAIL: %llu out-of-pool DMA range(s) of devices past "
			"rdmatop's table (%d devices); their events name them\n",
			(unsigned long long)m->self.oop_untracked, RDMA_MAX_DEVICES);
		status = RT_EXIT_CHECK_FAILED;
	}
	if (m->self.unchecked && status == RT_EXIT_OK) {
		fprintf(out, "rdmatop: FAIL: %llu scatterlist segment(s) past the first %d of "
			"their list, not checked\n", (unsigned long long)m->self.unchecked,
			RDMA_MAX_SG);
		status = RT_EXIT_CHECK_FAILED;
	}
	if (m->self.untracked)
		fprintf(out, "rdmatop: note: %llu event(s) of devices or pools past rdmatop's "
			"tables (%d devices, %d pools): checked, counted on no device\n",
			(unsigned long long)m->self.untracked, RDMA_MAX_DEVICES, RDMA_MAX_POOLS);
	if (status == RT_EXIT_OK && signo) {
		fprintf(out, "rdmatop: interrupted after %.1fs: no verdict (nothing wrong seen in "
			"that time)\n", secs);
		return 128 + signo;
	}
	if (m->runs_missed)
		snprintf(missed, sizeof(missed), "; %llu DMA API calls not seen (program runs the "
			 "kernel skipped: nested on a CPU)", (unsigned long long)m->runs_missed);
	if (status == RT_EXIT_OK)
		fprintf(out, "rdmatop: ok: no out-of-pool DMA%s in %.1fs (%zu devices, %llu with "
			"a restricted pool, %llu mappings)%s%s\n",
			failures_warn || !see_failures ? "" : " and no pool failure", secs,
			m->ndevs, (unsigned long long)checked, (unsigned long long)maps,
			see_failures ? "" : "; pool failures are not visible on this kernel", missed);
	return status;
}
