// SPDX-License-Identifier: GPL-2.0
/*
 * overlay.c - --base: apply an overlay to its base tree with libfdt's
 * fdt_overlay_apply() (what fdtoverlay and the bootloader do), so that
 * the checks see the tree the kernel boots, and keep what is needed to
 * report each finding at the overlay line that caused it.
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdt-verify.h"
#include "overlay.h"
#include "util.h"

/* Path in the base of a fragment's target, or NULL. */
static char *target_in_base(const void *base, const void *ov, int frag)
{
	char path[4096], loc[4200];
	const char *tp;
	const fdt32_t *ph;
	int len, fx, p, n;

	tp = fdt_stringlist_get(ov, frag, "target-path", 0, NULL);
	if (tp)
		return xstrdup(tp);
	/* &label: __fixups__ names it, the base's __symbols__ knows where */
	if (fdt_get_path(ov, frag, path, sizeof(path)))
		return NULL;
	snprintf(loc, sizeof(loc), "%s:target:0", path);
	fx = fdt_path_offset(ov, "/__fixups__");
	if (fx >= 0) {
		fdt_for_each_property_offset(p, ov, fx) {
			const char *name, *v;

			v = fdt_getprop_by_offset(ov, p, &name, &len);
			if (v && len > 0 && fdt_stringlist_contains(v, len, loc)) {
				int sy = fdt_path_offset(base, "/__symbols__");
				const char *sym = sy < 0 ? NULL :
					fdt_stringlist_get(base, sy, name, 0, NULL);

				return sym ? xstrdup(sym) : NULL;
			}
		}
	}
	ph = fdt_getprop(ov, frag, "target", &len);
	if (!ph || len != 4)
		return NULL;
	n = fdt_node_offset_by_phandle(base, fdt32_to_cpu(*ph));
	if (n < 0 || fdt_get_path(base, n, path, sizeof(path)))
		return NULL;
	return xstrdup(path);
}

static void record_fragments(const void *base, const void *ov,
			     struct overlay_map *map)
{
	int frag, o;

	fdt_for_each_subnode(frag, ov, 0) {
		char opath[4096];
		char *t;
		struct overlay_frag *f;

		o = fdt_subnode_offset(ov, frag, "__overlay__");
		if (o < 0 || fdt_get_path(ov, o, opath, sizeof(opath)))
			continue;
		t = target_in_base(base, ov, frag);
		if (!t)
			continue;
		f = array_push(&map->frag, &map->nfrag, sizeof(*f));
		f->target = t;
		f->ovpath = xstrdup(opath);
	}
}

int overlay_merge(const void *base, const char *base_name,
		  struct dt_input *ov, char *err, size_t errlen)
{
	size_t size = fdt_totalsize(base) + 2 * ov->size + 4096;
	char why[256];
	void *merged, *ovcopy;
	int r;

	if (size > 64u << 20) {
		snprintf(err, errlen, "%s: base and overlay too large to merge", ov->name);
		return -1;
	}
	merged = xmalloc(size);
	ovcopy = xmalloc(ov->size);
	memcpy(ovcopy, ov->blob, ov->size);
	r = fdt_open_into(base, merged, (int)size);
	if (!r) {
		ov->map = xcalloc(1, sizeof(*ov->map));
		ov->map->base_name = xstrdup(base_name);
		record_fragments(base, ov->blob, ov->map);
		/* fdt_overlay_apply() consumes the overlay: give it a copy */
		r = fdt_overlay_apply(merged, ovcopy);
	}
	free(ovcopy);
	if (r) {
		snprintf(err, errlen,
			 "%s: cannot apply to %s: %s%s", ov->name, base_name, fdt_strerror(r),
			 r == -FDT_ERR_NOTFOUND ?
			 " (a label or target-path the overlay uses is not in the base; build the base with dtc -@)" : "");
		free(merged);
		return -1;
	}
	fdt_pack(merged);
	if (fdt_verify(merged, fdt_totalsize(merged), why, sizeof(why))) {
		snprintf(err, errlen, "%s: merged tree is corrupt: %s", ov->name, why);
		free(merged);
		return -1;
	}
	free(ov->blob);
	ov->blob = merged;
	ov->size = fdt_totalsize(merged);
	return 0;
}

char *overlay_source_path(const struct overlay_map *map, const char *path)
{
	for (int i = 0; map && i < map->nfrag; i++) {
		const char *t = map->frag[i].target;
		size_t l = strcmp(t, "/") ? strlen(t) : 0;

		if (strncmp(path, t, l) || (path[l] && path[l] != '/'))
			continue;
		return xasprintf("%s%s", map->frag[i].ovpath,
				 strcmp(path, "/") ? path + l : "");
	}
	return NULL;
}

void overlay_map_free(struct overlay_map *map)
{
	if (!map)
		return;
	for (int i = 0; i < map->nfrag; i++) {
		free(map->frag[i].target);
		free(map->frag[i].ovpath);
	}
	free(map->frag);
	free(map->base_name);
	free(map);
}
