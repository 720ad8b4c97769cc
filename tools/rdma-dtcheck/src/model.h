/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what the kernel sees in a tree: memory, reserved regions,
 * restricted pools, their consumers and the PCI topology. Built once per
 * input; every check and every output mode reads only this.
 */
#ifndef RDMA_DTCHECK_MODEL_H
#define RDMA_DTCHECK_MODEL_H

#include <stdbool.h>
#include <stdint.h>

struct region {
	uint64_t base;
	uint64_t size;
};

/* A child of /reserved-memory, or a restricted-dma-pool found elsewhere. */
struct rmem {
	int node;
	char *path;		/* logical path (overlays: at their target) */
	bool available;		/* status okay (of_fdt_device_is_available) */
	bool pool;		/* compatible "restricted-dma-pool" */
	bool shared_pool;	/* compatible "shared-dma-pool" */
	bool in_resmem;		/* a direct child of /reserved-memory */
	bool cells_known;	/* we know the cells its reg/size use */
	bool has_reg, has_size;
	bool reg_bad;		/* reg length not a multiple of one entry */
	bool size_bad;		/* size/alignment length wrong */
	int nreg;
	struct region *regs;	/* every reg entry; regs[0] becomes the pool */
	uint64_t base, size;	/* regs[0], or 0 + "size" for dynamic pools */
	uint64_t align;
	uint32_t phandle;
	int refs;		/* memory-region entries naming it */
	int users;		/* consumers for which it is the effective pool */
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
	int busnr;		/* bus field of reg (informative only) */
	const char *why;	/* DEV_PCI_UNREAD: reason */
};

struct mref {
	uint32_t phandle;
	int target;		/* node offset, -1 when it does not resolve */
	struct rmem *rm;	/* target as a reserved region, or NULL */
	const char *fixup;	/* overlay: label resolved against the base */
};

struct consumer {
	int node;
	char *path;
	bool bad_len;		/* memory-region length not a multiple of 4 */
	int nref;
	struct mref *refs;
	int pool_idx;		/* of_dma_set_restricted_buffer() choice, or -1 */
	struct rmem *pool;
	int iommu;		/* node of the IOMMU that wins over the pool, or -1 */
	const char *iommu_prop;	/* "iommus" or "iommu-map" */
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

struct model {
	const void *fdt;
	bool overlay;
	int root_ac, root_sc;	/* dt_root_addr_cells / dt_root_size_cells */
	bool root_cells_known;
	int resmem;		/* /reserved-memory node, or -1 */
	int nmem;
	struct region *mem;	/* /memory ranges, merged and sorted */
	bool mem_known;		/* at least one non-empty /memory range */
	int nrsv;
	struct region *rsv;	/* /memreserve/ entries */
	int nrmem;
	struct rmem *rmem;
	int npools;
	int ncons;
	struct consumer *cons;
	int npci;
	struct pci_node *pci;
	/* Node index from one walk; per-node data indexed by offset / 4. */
	int *parents;		/* parent offset, -1 for the root */
	uint32_t *phandles;
	uint8_t *flags;		/* NODE_* */
	int nparents;
	int *nodes;		/* offsets in document order, meta subtrees left out */
	int nnodes;
	bool has_pci;
	int nfrag;
	struct fragment {
		int overlay;	/* the __overlay__ node */
		char *target;	/* target path, "&label" or "?" */
	} *frag;
};

int model_build(struct model *m, const void *fdt);
void model_free(struct model *m);

/* Logical path of @node (overlay fragments mapped to their target). */
char *model_path(const struct model *m, int node);
/* Real path of @node in the blob, for source positions. */
char *model_real_path(const struct model *m, int node);

/* Parent node offset (-1 for the root); O(1). */
int node_parent(const struct model *m, int node);

struct rmem *model_rmem_at(const struct model *m, int node);

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

#endif
