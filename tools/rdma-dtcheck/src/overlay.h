/* SPDX-License-Identifier: GPL-2.0 */
/*
 * overlay.h - lint an overlay merged onto its base tree (--base).
 */
#ifndef RDMA_DTCHECK_OVERLAY_H
#define RDMA_DTCHECK_OVERLAY_H

#include <stddef.h>

#include "input.h"

/* Where each fragment of the overlay landed in the base. */
struct overlay_map {
	char *base_name;
	int nfrag;
	struct overlay_frag {
		char *target;	/* path in the base */
		char *ovpath;	/* real path of the fragment's __overlay__ */
	} *frag;
};

/*
 * Apply overlay @ov onto a copy of @base with fdt_overlay_apply();
 * @ov->blob becomes the merged tree and @ov->map says where each
 * fragment went. Returns 0, or -1 with a message in @err.
 */
int overlay_merge(const void *base, const char *base_name,
		  struct dt_input *ov, char *err, size_t errlen);

/* The overlay's real path for merged-tree @path, or NULL (base only). */
char *overlay_source_path(const struct overlay_map *map, const char *path);

void overlay_map_free(struct overlay_map *map);

#endif
