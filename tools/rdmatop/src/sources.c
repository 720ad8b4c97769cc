// SPDX-License-Identifier: GPL-2.0
/*
 * Which programs of rdma_trace a kernel gets (see sources.h).
 */
#include <stdio.h>
#include <string.h>
#include "model.h"
#include "sources.h"

static bool have_tracepoint(const struct btf *vmlinux, const char *event)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) >= 0;
}

static bool have_function(const struct btf *vmlinux, const char *func)
{
	return btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC) >= 0;
}

/* Whether a program attached to @sec ("tp_btf/EVENT", "fexit/FUNC") should load. */
static bool wanted(const char *sec, const struct btf *vmlinux, const struct rt_sources *s)
{
	const char *target = strchr(sec, '/');

	if (!target)
		return false;
	target++;
	if (!strncmp(sec, "fentry/", 7) || !strncmp(sec, "fexit/", 6))
		return s->dma == RDMA_SRC_FENTRY && have_function(vmlinux, target);
	if (!have_tracepoint(vmlinux, target))
		return false;
	/* The last resort: with any DMA API source it would count bounces twice. */
	if (!strcmp(target, "swiotlb_bounced"))
		return s->dma == RDMA_SRC_NONE;
	if (!strncmp(target, "dma_", 4))
		return s->dma == RDMA_SRC_TP;
	return true;
}

/*
 * Whether fentry/fexit can attach to a kernel function here: the BPF
 * trampoline is entered through ftrace's direct calls
 * (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS), whose functions are then in
 * the kernel's BTF. Without them the attach fails with ENOTSUPP: arm64
 * before 6.4, so every arm64 6.1 (its trampolines serve BPF-to-BPF only).
 */
static bool fentry_attaches(const struct btf *vmlinux)
{
	return have_function(vmlinux, "register_ftrace_direct") ||
	       have_function(vmlinux, "register_ftrace_direct_multi");
}

void sources_select(struct bpf_object *obj, const struct btf *vmlinux, bool no_fentry,
		    struct rt_sources *out)
{
	struct bpf_program *prog;
	bool load;

	memset(out, 0, sizeof(*out));
	if (have_tracepoint(vmlinux, "dma_map_page"))
		out->dma = RDMA_SRC_TP;
	else if (!no_fentry && have_function(vmlinux, "dma_map_page_attrs") &&
		 fentry_attaches(vmlinux))
		out->dma = RDMA_SRC_FENTRY;
	else
		out->dma = RDMA_SRC_NONE;
	out->series = have_tracepoint(vmlinux, "swiotlb_map");
	out->pool_failure_events = have_tracepoint(vmlinux, "swiotlb_map_failed");

	bpf_object__for_each_program(prog, obj) {
		load = wanted(bpf_program__section_name(prog), vmlinux, out);
		bpf_program__set_autoload(prog, load);
		out->programs += load;
	}

	out->features = RT_F_BPF;
	if (out->dma != RDMA_SRC_NONE)
		out->features |= RT_F_DMA_API | RT_F_OOP_CHECK | RT_F_UNMAP | RT_F_DIRECTION |
				 RT_F_FAILURES | RT_F_COHERENT;
	if (out->pool_failure_events)
		out->features |= RT_F_FAILURES;
	if (have_tracepoint(vmlinux, "swiotlb_out_of_pool"))
		out->features |= RT_F_OOP_KERNEL;
}
