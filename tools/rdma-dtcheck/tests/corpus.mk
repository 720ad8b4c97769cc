# SPDX-License-Identifier: GPL-2.0
# Compile every arm64, arm and riscv .dts of a kernel tree as
# scripts/Makefile.lib (cmd_dtc) does, into OUTDIR/ARCH/..., keeping cpp's
# dependency files so a DTB is rebuilt when any file it includes changes.
# Nothing of the kernel is built. Usage:
#   make -f corpus.mk KSRC=<tree> OUTDIR=<dir> -j2 -k

ARCHES      := arm64 arm riscv
DTC_INCLUDE := $(KSRC)/scripts/dtc/include-prefixes
DTC_FLAGS   := -Wno-interrupt_provider -Wno-unit_address_vs_reg \
	-Wno-avoid_unnecessary_addr_size -Wno-alias_paths \
	-Wno-graph_child_address -Wno-simple_bus_reg -Wno-unique_unit_address

dts_of = $(shell cd $(KSRC)/arch/$(1)/boot/dts 2>/dev/null && find . -name '*.dts' | sed 's|^\./||' | sort)
DTBS := $(foreach a,$(ARCHES),$(patsubst %.dts,$(OUTDIR)/$(a)/%.dtb,$(call dts_of,$(a))))

all: $(DTBS)

define arch_rule
$(OUTDIR)/$(1)/%.dtb: $(KSRC)/arch/$(1)/boot/dts/%.dts
	@mkdir -p $$(@D)
	@cpp -MMD -MT $$@ -MF $$@.d -nostdinc -I$(DTC_INCLUDE) -undef -D__DTS__ \
		-x assembler-with-cpp -o $$@.pp $$< && \
	dtc -q -O dtb -o $$@.tmp -b 0 -i $$(dir $$<) -i $(DTC_INCLUDE) \
		$(DTC_FLAGS) $$@.pp 2>$$@.log && mv $$@.tmp $$@ && rm -f $$@.pp
endef
$(foreach a,$(ARCHES),$(eval $(call arch_rule,$(a))))

-include $(wildcard $(patsubst %,%.d,$(DTBS)))
