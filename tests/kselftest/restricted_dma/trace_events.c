// SPDX-License-Identifier: GPL-2.0
/*
 * The series' swiotlb trace events and mainline 6.12's dma events (which
 * the 6.1 backport reproduces) exist in tracefs with the fields their
 * headers define, print their direction as a number user space can
 * decode, and fire with the right pool and device when the test driver
 * drives the DMA API.
 *
 * The field lists are include/trace/events/swiotlb.h and dma.h of 6.12
 * with the series. Firing: with every event of
 * both systems on, the test driver binds to the test device (attach),
 * maps, syncs and unmaps a buffer and a scatterlist, allocates and frees
 * coherent memory, fails an allocation, fills the pool until a map fails
 * and maps a device register (out of pool). Events no driver operation
 * can reach on this board (detach: nothing releases a device's pool;
 * swiotlb_bounced: the stock event, other tests use it; the sg syncs and
 * the page, sgt and error events: the test driver has no such calls) are
 * checked for their fields only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "rdma_board.h"
#include "rdma_driver.h"
#include "rdma_trace.h"

#define POOL_FIELDS	"dev_name pool "

static const struct {
	const char *event;
	const char *fields;
} formats[] = {
	{ "swiotlb/swiotlb_bounced", "dev_name dma_mask dev_addr size force" },
	{ "swiotlb/swiotlb_attach", POOL_FIELDS "base size" },
	{ "swiotlb/swiotlb_detach", POOL_FIELDS "base size" },
	{ "swiotlb/swiotlb_map", POOL_FIELDS "orig_addr tlb_addr size dir attrs" },
	{ "swiotlb/swiotlb_unmap", POOL_FIELDS "orig_addr tlb_addr size dir attrs" },
	{ "swiotlb/swiotlb_sync", POOL_FIELDS "tlb_addr size dir for_cpu" },
	{ "swiotlb/swiotlb_alloc", POOL_FIELDS "tlb_addr size" },
	{ "swiotlb/swiotlb_free", POOL_FIELDS "tlb_addr size" },
	{ "swiotlb/swiotlb_map_failed", POOL_FIELDS "size used nslabs" },
	{ "swiotlb/swiotlb_alloc_failed", POOL_FIELDS "size used nslabs" },
	{ "swiotlb/swiotlb_out_of_pool", POOL_FIELDS "api dma_addr size refused mmio" },
	{ "dma/dma_map_page", "device phys_addr dma_addr size dir attrs" },
	{ "dma/dma_map_resource", "device phys_addr dma_addr size dir attrs" },
	{ "dma/dma_unmap_page", "device addr size dir attrs" },
	{ "dma/dma_unmap_resource", "device addr size dir attrs" },
	{ "dma/dma_alloc", "device virt_addr dma_addr size flags dir attrs" },
	{ "dma/dma_alloc_pages", "device virt_addr dma_addr size flags dir attrs" },
	{ "dma/dma_alloc_sgt_err", "device virt_addr dma_addr size flags dir attrs" },
	{ "dma/dma_alloc_sgt", "device phys_addrs dma_addr size dir flags attrs" },
	{ "dma/dma_free", "device virt_addr dma_addr size dir attrs" },
	{ "dma/dma_free_pages", "device virt_addr dma_addr size dir attrs" },
	{ "dma/dma_free_sgt", "device phys_addrs dma_addr size dir" },
	{ "dma/dma_map_sg", "device full_nents full_ents truncated phys_addrs dma_addrs "
	  "lengths dir attrs" },
	{ "dma/dma_map_sg_err", "device phys_addrs err dir attrs" },
	{ "dma/dma_unmap_sg", "device addrs dir attrs" },
	{ "dma/dma_sync_single_for_cpu", "device dma_addr size dir" },
	{ "dma/dma_sync_single_for_device", "device dma_addr size dir" },
	{ "dma/dma_sync_sg_for_cpu", "device dma_addrs lengths dir" },
	{ "dma/dma_sync_sg_for_device", "device dma_addrs lengths dir" },
};
#define NFORMATS	ARRAY_SIZE(formats)

/* Events the driver's operations fire; swiotlb ones name the pool too. */
static const char *const fired[] = {
	"swiotlb_attach", "swiotlb_map", "swiotlb_sync", "swiotlb_unmap", "swiotlb_alloc",
	"swiotlb_free", "swiotlb_alloc_failed", "swiotlb_map_failed", "swiotlb_out_of_pool",
	"dma_map_page", "dma_unmap_page", "dma_sync_single_for_cpu",
	"dma_sync_single_for_device", "dma_map_sg", "dma_unmap_sg", "dma_alloc", "dma_free",
	"dma_map_resource", "dma_unmap_resource",
};
#define NFIRED		ARRAY_SIZE(fired)

static const char *const systems[] = { "swiotlb", "dma" };

#define UART_PHYS	0x9000000ULL
#define BIG		(256 * 1024)
#define MAX_MAPS	64

/* Events whose dir field user space must be able to decode. */
static const char *const dir_events[] = {
	"swiotlb/swiotlb_map", "swiotlb/swiotlb_unmap", "swiotlb/swiotlb_sync",
	"dma/dma_map_page", "dma/dma_unmap_sg", "dma/dma_sync_single_for_cpu",
};
#define NDIR		ARRAY_SIZE(dir_events)

/*
 * An enum in an event's print format is only decodable by user space
 * (perf, trace-cmd, libtraceevent) once TRACE_DEFINE_ENUM has made the
 * kernel write its value in place of its name.
 */
static void check_dir_decodable(void)
{
	static const char *const names[] = {
		"DMA_BIDIRECTIONAL", "DMA_TO_DEVICE", "DMA_FROM_DEVICE", "DMA_NONE",
	};
	char path[256], *text, *fmt;

	for (size_t i = 0; i < NDIR; i++) {
		bool ok;

		rdma_fmt(path, sizeof(path), "/sys/kernel/tracing/events/%s/format",
			 dir_events[i]);
		text = rdma_read_file(path, NULL);
		fmt = text ? strstr(text, "print fmt:") : NULL;
		ok = fmt && strstr(fmt, "BIDIRECTIONAL");
		for (size_t j = 0; ok && j < ARRAY_SIZE(names); j++)
			if (strstr(fmt, names[j])) {
				ksft_print_msg("%s: print fmt names %s\n", dir_events[i], names[j]);
				ok = false;
			}
		ksft_test_result(ok, "event %s: dir printed as a value user space decodes\n",
				 dir_events[i]);
		free(text);
	}
}

static void check_formats(void)
{
	char why[512];

	for (size_t i = 0; i < NFORMATS; i++) {
		int ret = rdma_trace_check_fields(formats[i].event, formats[i].fields, why,
						  sizeof(why));

		if (ret)
			ksft_print_msg("%s: %s\n", formats[i].event, why);
		ksft_test_result(!ret, "event %s: exists with fields %s\n", formats[i].event,
				 formats[i].fields);
	}
}

/* One command that must succeed; its id (0 when it has none). */
static uint64_t must(struct rdma_ctl *c, const char *cmd)
{
	uint64_t id = 0;

	if (rdma_ctl_cmd(c, "%s", cmd))
		ksft_print_msg("%s: %s\n", cmd, c->res);
	rdma_res_u64(c->res, "id", &id);
	return id;
}

/* Everything the driver can make the kernel trace; 0 or -1. */
static int drive(const struct rdma_device *dev, uint64_t *map_dma)
{
	struct rdma_map m[MAX_MAPS];
	struct rdma_ctl c;
	char cmd[64];
	uint64_t id;
	int n = 0;
	bool ok;

	if (rdma_drv_bind(dev->name) || rdma_ctl_open(&c, dev->name))
		return -1;
	if (rdma_map(&c, 4096, 16, "bidi", &m[0]))
		ksft_print_msg("map: %s\n", c.res);
	*map_dma = m[0].dma;
	snprintf(cmd, sizeof(cmd), "sync %d cpu", m[0].id);
	must(&c, cmd);
	snprintf(cmd, sizeof(cmd), "sync %d device", m[0].id);
	must(&c, cmd);
	rdma_unmap(&c, m[0].id, &ok);

	id = must(&c, "map_sg 2 3000 5 to");
	snprintf(cmd, sizeof(cmd), "unmap_sg %llu", (unsigned long long)id);
	must(&c, cmd);

	id = must(&c, "alloc 8192");
	snprintf(cmd, sizeof(cmd), "free %llu", (unsigned long long)id);
	must(&c, cmd);
	rdma_ctl_cmd(&c, "alloc %d", 2 * BIG);		/* fails: alloc_failed */

	while (n < MAX_MAPS && !rdma_map(&c, BIG, 0, "to", &m[n]))
		n++;					/* the last fails: map_failed */
	while (n--)
		rdma_unmap(&c, m[n].id, &ok);

	snprintf(cmd, sizeof(cmd), "map_resource %#llx 4096 to", UART_PHYS);
	id = must(&c, cmd);
	snprintf(cmd, sizeof(cmd), "unmap_resource %llu", (unsigned long long)id);
	must(&c, cmd);
	rdma_ctl_close(&c);
	return 0;
}

static void check_fired(const struct rdma_device *dev, const char *trace, uint64_t map_dma)
{
	char dev_needle[RDMA_NAME_LEN + 16], pool_needle[RDMA_NAME_LEN + 16];
	char dma_needle[64], tlb_needle[64];

	/* On this board a pool's DMA addresses are its physical addresses. */
	rdma_fmt(pool_needle, sizeof(pool_needle), "pool=%s ", dev->pool);
	rdma_fmt(dma_needle, sizeof(dma_needle), " dma_addr=%llx ", (unsigned long long)map_dma);
	rdma_fmt(tlb_needle, sizeof(tlb_needle), " tlb_addr=%llx ", (unsigned long long)map_dma);
	for (size_t i = 0; i < NFIRED; i++) {
		bool swiotlb = !strncmp(fired[i], "swiotlb_", 8);
		const char *needles[] = { dev_needle, swiotlb ? pool_needle : NULL, NULL, NULL };
		long n;

		/* swiotlb events print "dev_name: DEV", dma ones "EVENT: DEV". */
		if (swiotlb)
			rdma_fmt(dev_needle, sizeof(dev_needle), "dev_name: %s ", dev->name);
		else
			rdma_fmt(dev_needle, sizeof(dev_needle), "%s: %s ", fired[i], dev->name);
		if (!strcmp(fired[i], "swiotlb_map"))
			needles[2] = tlb_needle;
		if (!strcmp(fired[i], "dma_map_page"))
			needles[1] = dma_needle;
		if (!strcmp(fired[i], "swiotlb_out_of_pool"))
			needles[2] = "api=dma_map_resource ";
		n = rdma_trace_count(trace, fired[i], needles);
		ksft_test_result(n > 0, "event %s: fired for %s%s%s (%ld)\n", fired[i], dev->name,
				 swiotlb ? " in " : "", swiotlb ? dev->pool : "", n);
	}
}

int main(void)
{
	const struct rdma_device *dev;
	struct rdma_board b;
	uint64_t map_dma = 0;
	char *trace = NULL;
	int ret;

	ksft_print_header();
	rdma_board_load(&b);
	dev = rdma_board_test_device(&b, false);
	if (!dev)
		ksft_exit_fail_msg("the layout lists no test device\n");
	ksft_set_plan(NFORMATS + NDIR + NFIRED);
	check_formats();
	check_dir_decodable();

	rdma_drv_unbind(dev->name);
	ret = rdma_trace_start_events(systems, 2);
	if (!ret)
		ret = drive(dev, &map_dma);
	rdma_trace_stop_events(systems, 2);
	rdma_drv_unbind(dev->name);
	if (!ret)
		trace = rdma_trace_read();
	if (!trace) {
		ksft_print_msg("could not trace the test driver on %s\n", dev->name);
		for (size_t i = 0; i < NFIRED; i++)
			ksft_test_result_fail("event %s: fired\n", fired[i]);
	} else {
		check_fired(dev, trace, map_dma);
		free(trace);
	}
	ksft_finished();
}
