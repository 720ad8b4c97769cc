/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what the kernel sees in a tree: memory, reserved regions,
 * restricted pools, their consumers and the PCI topology. Built once per
 * input; every check and every output mode reads only this.
 *
 * Every lookup the checks make (parent, phandle, path, the region or
 * consumer at a node) goes through an index built in one walk, so a
 * model costs O(nodes * depth) with depth capped at the kernel's 64.
 */
#ifndef RDMA_DTCHECK_MODEL_H
#define RDMA_DTCHECK_MODEL_H

#include <stdbool.h>
#include <stdint.h>

struct region {
	uint64_t base;
	uint64_t size;
};

/* Kernel releases whose behaviour differs somewhere a check looks. */
enum kver {
	KVER_6_1,
	KVER_6_12,
};

enum arch {
	ARCH_UNKNOWN,		/* guess from the CPU nodes */
	ARCH_ARM64,
	ARCH_ARM,
	ARCH_RISCV,
};

/*
 * 32-bit ARM lowmem with the default 3G/1G split and 240 MiB vmalloc:
 * RAM above its first 768 MiB is highmem, outside the linear map.
 */
#define ARM32_LOWMEM_SIZE 0x30000000ULL

struct usage;

/* What the command line says about the target, not the tree. */
struct model_opts {
	enum kver kernel;
	enum arch arch;		/* --arch, or ARCH_UNKNOWN */
	uint64_t page_size;	/* 4 KiB unless --page-size */
	int nmem;
	struct region *mem;	/* --memory BASE:SIZE: RAM the bootloader passes */
	const struct usage *usage;	/* --usage: what rdmatop saw, or NULL */
};

/* A child of /reserved-memory, or a restricted-dma-pool found elsewhere. */
struct rmem {
	int node;
	char *path;		/* logical path (overlays: at their target) */
	bool available;		/* status okay (of_fdt_device_is_available) */
	bool pool;		/* compatible "restricted-dma-pool" */
	bool shared_pool;	/* compatible "shared-dma-pool" */
	bool in_resmem;		/* a direct child of /reserved-memory */
	bool where_unknown;	/* overlay aimed at a label the tool cannot resolve */
	bool cells_known;	/* we know the cells its reg/size use */
	bool has_reg, has_size;
	bool reg_bad;		/* reg length not a multiple of one entry */
	bool size_bad;		/* size/alignment length wrong */
	int nreg;
	struct region *regs;	/* every reg entry; regs[0] becomes the pool */
	uint64_t base, size;	/* regs[0], or 0 + "size" for dynamic pools */
	uint64_t align;
	int nalloc;
	struct region *alloc;	/* alloc-ranges of a dynamic region */
	bool dyn_tried;		/* dynamic, and RAM is known: placement was tried */
	bool dyn_placed;	/* memblock finds room for it ... */
	struct region dyn_at;	/* ... here */
	uint32_t phandle;
	int refs;		/* memory-region entries naming it */
	int users;		/* available DMA masters for which it is the pool */
};

enum dev_kind {
	DEV_PLATFORM,		/* becomes a platform device (or is a child of one) */
	DEV_PCI_HOST,		/* PCI host bridge node */
	DEV_PCI_FUNC,		/* node the PCI lookup reads for a function */
	DEV_PCI_UNREAD,		/* under a PCI bus but never read by the lookup */
};

struct pci_info {
	enum dev_kind kind;
	int host;		/* host bridge node offset, or -1 */
	int devfn;		/* -1 when reg gives none */
	int busnr;		/* bus field of reg */
	const char *why;	/* DEV_PCI_UNREAD: reason */
};

/* Does the kernel ever call of_dma_configure() with this node? */
enum master {
	MASTER_YES,		/* platform/AMBA device, PCI host or function */
	MASTER_UNKNOWN,		/* created by its parent's driver, if at all */
	MASTER_NO,		/* SDIO/I2C/SPI/USB child, bus node, no device */
};

struct mref {
	uint32_t phandle;
	int target;		/* node offset, -1 when it does not resolve */
	struct rmem *rm;	/* target as a reserved region, or NULL */
	const char *fixup;	/* overlay: label resolved against the base */
};

/* One requester ID the pool's IOMMU question was asked for. */
struct rid_iommu {
	int rid;
	int iommu;		/* node, or -1: no translation, the pool applies */
};

struct consumer {
	int node;
	char *path;
	bool available;		/* status okay: otherwise no device at all */
	bool bad_len;		/* memory-region length not a multiple of 4 */
	int nref;
	struct mref *refs;
	int pool_idx;		/* of_dma_set_restricted_buffer() choice, or -1 */
	struct rmem *pool;
	int iommu;		/* node of the IOMMU that wins over the pool, or -1 */
	const char *iommu_prop;	/* "iommus" or "iommu-map" */
	int nrid;		/* PCI: the requester IDs looked up in iommu-map */
	struct rid_iommu *rids;
	bool iommu_all;		/* every requester ID has an IOMMU */
	enum master master;
	const char *master_why;	/* MASTER_NO: why not */
	int carrier;		/* MASTER_NO: the node that should carry it, or -1 */
	bool uses_pool;		/* a device that really bounces through ->pool */
	struct pci_info pci;
};

/* A PCI host bridge or a device position under one. */
struct pci_node {
	int node;
	char *path;
	struct pci_info pci;
	struct consumer *own;	/* this node's memory-region, if any */
	struct consumer *host;	/* the host bridge's memory-region, if any */
};

/* What the index knows of a node (model->flags), from one property pass. */
enum {
	NODE_MEMORY = 1,	/* device_type = "memory" */
	NODE_POOL = 2,		/* compatible has "restricted-dma-pool" */
	NODE_MEMREGION = 4,	/* has memory-region */
	NODE_PCI = 8,		/* device_type = "pci"/"pciex" */
	NODE_META = 16,		/* in __symbols__, __fixups__, __local_fixups__ */
	NODE_OVERLAY = 32,	/* /<fragment>/__overlay__ */
	NODE_RESMEM = 64,	/* /reserved-memory, or an overlay's stand-in */
};

struct fragment {
	int overlay;		/* the __overlay__ node */
	char *target;		/* target path, "&label" or "?" */
	bool resolved;		/* target is a path */
};

/* What the index knows of one node. */
struct mnode {
	int parent;		/* parent offset, -1 for the root */
	int rmem;		/* index + 1 into rmem, 0 for none */
	int cons;		/* index + 1 into cons */
	int frag;		/* __overlay__ nodes: index + 1 into frag */
	uint8_t flags;		/* NODE_* */
};

struct model {
	const void *fdt;
	const struct model_opts *opts;
	bool overlay;
	enum arch arch;		/* --arch, else guessed (arch.c) */
	int root_ac, root_sc;	/* dt_root_addr_cells / dt_root_size_cells */
	bool root_cells_known;
	int resmem;		/* /reserved-memory node, or -1 */
	bool resmem_base;	/* it lives in the base tree (overlay target) */
	int nmem;
	struct region *mem;	/* /memory ranges (or --memory), merged and sorted */
	bool mem_known;		/* at least one non-empty range */
	bool mem_from_opts;	/* ranges come from --memory */
	int nrsv;
	struct region *rsv;	/* /memreserve/ entries */
	int nrmem;
	struct rmem *rmem;
	int npools;
	int ncons;
	struct consumer *cons;
	int npci;
	struct pci_node *pci;
	/*
	 * Node index from one walk: slot[offset / 4] is index + 1 into nd,
	 * 0 where no node starts. Per-node data lives in nd, not in arrays
	 * per slot: those were four times the structure block, and clearing
	 * them was most of a one-file run's page faults.
	 */
	int nslots;
	int *slot;
	struct mnode *nd;
	int nnd;
	int *nodes;		/* offsets in document order, meta subtrees left out */
	int nnodes;
	int root_cpus, root_resmem, root_fixups;	/* children of /, or -1 */
	struct phandle_ent { uint32_t ph; int node; } *phs;	/* sorted */
	int nphs;
	struct fixup_ent { char *loc; const char *label; } *fixups;	/* sorted */
	int nfixups;
	bool has_pci;
	int nfrag;
	struct fragment *frag;
};

int model_build(struct model *m, const void *fdt, const struct model_opts *o);

/* The index's entry for the node at offset @node, or NULL; O(1). */
static inline struct mnode *model_node(const struct model *m, int node)
{
	if (node < 0 || node / 4 >= m->nslots || !m->slot[node / 4])
		return NULL;
	return &m->nd[m->slot[node / 4] - 1];
}

/* Index + 1 into m->frag of the __overlay__ node @node, 0 for none. */
static inline int model_frag_at(const struct model *m, int node)
{
	const struct mnode *n = model_node(m, node);

	return n ? n->frag : 0;
}
void model_free(struct model *m);

/* Logical path of @node (overlay fragments mapped to their target). */
char *model_path(const struct model *m, int node);
/* Real path of @node in the blob, for source positions. */
char *model_real_path(const struct model *m, int node);

/* Parent node offset (-1 for the root); O(1). */
int node_parent(const struct model *m, int node);
/* The node with phandle (or linux,phandle) @ph, or -1; O(log n). */
int model_by_phandle(const struct model *m, uint32_t ph);
/* Label of an overlay fixup at "@path:@prop:@off", or NULL; O(log n). */
const char *model_fixup(const struct model *m, const char *path,
			const char *prop, int off);

struct rmem *model_rmem_at(const struct model *m, int node);
struct consumer *model_consumer_at(const struct model *m, int node);

/* Parent bus of a device as of_dma_configure_id() picks it. */
int model_dma_bus(const struct model *m, const struct consumer *c);

/*
 * DMA windows (in CPU addresses) that of_dma_get_range() gives devices
 * below @bus. Returns the number of windows (allocated in *win), 0 when
 * no dma-ranges limit them, and sets *owner to the node carrying them.
 */
int model_dma_windows(const struct model *m, int bus, struct region **win,
		      int *owner);

bool fdt_is_available(const void *fdt, int node);
bool node_is_pci_bus(const struct model *m, int node);
bool node_name_is(const void *fdt, int node, const char *name);
bool has_string(const char *list, int len, const char *s);
/* Property @name as one NUL-terminated string, or NULL. */
const char *prop_string(const void *fdt, int node, const char *name);

/* arch.c: the architecture the CPU nodes name, or ARCH_UNKNOWN */
enum arch model_guess_arch(const struct model *m);

/*
 * Where memblock puts dynamic region @rm (size, alignment, alloc-ranges):
 * top-down in the first alloc-range (or all RAM) with room, around the
 * static regions, /memreserve/ and the dynamic regions before it. False
 * when RAM or the size is unknown, or nothing fits (rm->dyn_tried says
 * which).
 */
bool model_dynamic_place(const struct model *m, const struct rmem *rm,
			 struct region *out);

/* model-dev.c: consumers, PCI, IOMMU and the DMA-master question */
void model_scan_consumers(struct model *m);
void model_scan_pci(struct model *m);
struct pci_info model_classify(const struct model *m, int node);

#endif
