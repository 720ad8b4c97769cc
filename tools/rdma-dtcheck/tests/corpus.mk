# SPDX-License-Identifier: GPL-2.0
# Compile every arm64 .dts of a kernel tree as scripts/Makefile.lib
# (cmd_dtc) does, into OUTDIR, keeping cpp's dependency files so a DTB is
# rebuilt when any file it includes changes. Usage:
#   make -f corpus.mk KSRC=<tree> OUTDIR=<dir> -j2 -k

DTS_DIR     := $(KSRC)/arch/arm64/boot/dts
DTC_INCLUDE := $(KSRC)/scripts/dtc/include-prefixes
DTC_FLAGS   := -Wno-interrupt_provider -Wno-unit_address_vs_reg \
	-Wno-avoid_unnecessary_addr_size -Wno-alias_paths \
	-Wno-graph_child_address -Wno-simple_bus_reg -Wno-unique_unit_address

SRCS := $(shell cd $(DTS_DIR) && find . -name '*.dts' | sed 's|^\./||' | sort)
DTBS := $(patsubst %.dts,$(OUTDIR)/%.dtb,$(SRCS))

all: $(DTBS)

$(OUTDIR)/%.dtb: $(DTS_DIR)/%.dts
	@mkdir -p $(@D)
	@cpp -MMD -MT $@ -MF $@.d -nostdinc -I$(DTC_INCLUDE) -undef -D__DTS__ \
		-x assembler-with-cpp -o $@.pp $< && \
	dtc -q -O dtb -o $@.tmp -b 0 -i $(dir $<) -i $(DTC_INCLUDE) \
		$(DTC_FLAGS) $@.pp 2>$@.log && mv $@.tmp $@ && rm -f $@.pp

-include $(wildcard $(patsubst %,%.d,$(DTBS)))
