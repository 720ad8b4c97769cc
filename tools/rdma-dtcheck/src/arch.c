// SPDX-License-Identifier: GPL-2.0
/*
 * arch.c - which architecture a tree boots, for the checks whose rules
 * differ (32-bit ARM's highmem). --arch says it; otherwise the first CPU
 * node's compatible does: cores that only run 32-bit ARM code mean arm.
 */
#include <libfdt.h>
#include <string.h>

#include "model.h"
#include "util.h"

/* 32-bit-only ARM cores, as CPU nodes name them (prefixes). */
static const char *const arm32_cores[] = {
	"arm,cortex-a5", "arm,cortex-a7", "arm,cortex-a8", "arm,cortex-a9",
	"arm,cortex-a12", "arm,cortex-a15", "arm,cortex-a17", "arm,cortex-r",
	"arm,cortex-m", "arm,arm9", "arm,arm10", "arm,arm11", "arm,arm7",
	"marvell,pj4", "marvell,sheeva", "marvell,feroceon", "qcom,krait",
	"qcom,scorpion", "brcm,brahma-b15", "brcm,brahma-b53-32", "intel,xscale",
	"faraday,fa526", "mrvl,pj4",
};

static bool arm32_core(const char *c)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(arm32_cores); i++) {
		size_t l = strlen(arm32_cores[i]);

		/* "arm,cortex-a5" must not match "arm,cortex-a55" */
		if (!strncmp(c, arm32_cores[i], l) &&
		    (!c[l] || !strchr("0123456789", c[l]) ||
		     !strcmp(arm32_cores[i], "arm,cortex-r") ||
		     !strcmp(arm32_cores[i], "arm,cortex-m") ||
		     !strncmp(arm32_cores[i], "arm,arm", 7)))
			return true;
	}
	return false;
}

enum arch model_guess_arch(const struct model *m)
{
	const void *fdt = m->fdt;
	int cpus = m->root_cpus, cpu;

	if (cpus < 0)
		return ARCH_UNKNOWN;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		const char *c = fdt_stringlist_get(fdt, cpu, "compatible", 0, NULL);
		int len;
		const char *list = fdt_getprop(fdt, cpu, "compatible", &len);

		/* RISC-V harts list "riscv" after the vendor's core name */
		if ((list && has_string(list, len, "riscv")) ||
		    fdt_getprop(fdt, cpu, "riscv,isa", NULL) ||
		    fdt_getprop(fdt, cpu, "riscv,isa-base", NULL))
			return ARCH_RISCV;
		if (!c)
			continue;
		return arm32_core(c) ? ARCH_ARM : ARCH_ARM64;
	}
	return ARCH_UNKNOWN;
}
