/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fdt-verify.h - bounded validation of a blob's header and structure
 * block, so that libfdt's own walks (fdt_check_full() first) always end.
 */
#ifndef RDMA_DTCHECK_FDT_VERIFY_H
#define RDMA_DTCHECK_FDT_VERIFY_H

#include <stddef.h>

/* The kernel's FDT_MAX_DEPTH: the model's walks rely on it. */
#define FDT_VERIFY_MAX_DEPTH 64

/*
 * Check that @fdt (@len bytes available) has a sane header, and that its
 * structure block is a sequence of well-formed tags that each move
 * forward, one root node, balanced nodes at most 64 deep, property values and names
 * inside their blocks, and a final FDT_END. Runs in time linear in the
 * block size. Returns 0 or a negative FDT_ERR_* code with a sentence in
 * @why.
 */
int fdt_verify(const void *fdt, size_t len, char *why, size_t whylen);

#endif
