# Restricted DMA that operators can see and verify.
#
# `make help` lists the targets. Every target installs or builds what it
# needs first; outputs go to build/ (never committed).

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build
HOST_BIN := $(BUILD)/host/bin
BOARD_BIN := $(BUILD)/arm64/bin
KSRC := $(BUILD)/src/linux
# Guest test run timeout (seconds) for make check.
CHECK_TIMEOUT ?= 900

.DEFAULT_GOAL := help
.PHONY: help deps kernel kernel-stock kselftest tools initramfs dtb board board-stock \
	vm run check check-host check-guest bench clean distclean

help: ## this list
	@echo "Restricted DMA board, kernel series and tools. Targets:"
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  make %-14s %s\n", $$1, $$2 }'

deps: ## install Debian packages (host and arm64) and busybox for the board
	@scripts/deps

kernel: deps ## build the patched arm64 kernel: build/arm64/{Image,vmlinux,vmlinux.h}
	@scripts/kernel-build

kernel-stock: deps ## build the same kernel without kernel/series: build/arm64-stock/
	@scripts/kernel-build --stock

kselftest: kernel ## build the kselftests for the board: build/arm64/kselftest/
	@scripts/kselftest-build $(BUILD)/arm64/kselftest

tools: deps ## build the tools: host binaries in build/host/bin, board ones in build/arm64/bin
	@mkdir -p $(HOST_BIN) $(BOARD_BIN)
	@for t in $(wildcard tools/*/Makefile); do \
		$(MAKE) --no-print-directory -s -C $$(dirname $$t) OUT=$(HOST_BIN) \
			BOARD_OUT=$(BOARD_BIN) || exit 1; \
	done

initramfs: tools kselftest ## pack the board's initramfs: build/arm64/initramfs.cpio
	@scripts/initramfs $(BUILD)/arm64/initramfs.cpio

dtb: deps ## build the board's device tree: build/board/board.dtb
	@mkdir -p $(BUILD)/board
	@scripts/board-dtb $(BUILD)/board/board.dtb

board: kernel initramfs dtb ## everything scripts/vm boots (patched kernel)

board-stock: kernel-stock initramfs dtb ## everything scripts/vm --stock boots

vm: board ## run CMD='...' on the board (scripts/vm -- CMD)
	@scripts/vm -- $(CMD)

run: board ## the main job: the board with I/O running, rdmatop on the console, then a shell
	@scripts/vm --workload --top --timeout 0

check: ## run every test (host and board) and print one summary line
	@scripts/check

check-host: tools ## only the host-side tests
	@scripts/check --host

check-guest: board ## only the kselftests on the board
	@scripts/check --guest

bench: tools ## benchmarks (not timed tests): numbers for the issues' targets
	@for t in $(wildcard tools/*/Makefile); do \
		$(MAKE) --no-print-directory -s -C $$(dirname $$t) bench KSRC=$(KSRC) || exit 1; \
	done
	@for b in $(wildcard bench/*/run); do $$b || exit 1; done

clean: ## remove build outputs (keeps the unpacked kernel tree and downloads)
	rm -rf $(BUILD)/arm64 $(BUILD)/arm64-stock $(BUILD)/host $(BUILD)/board $(BUILD)/vm

distclean: ## remove everything under build/, kernel tree included
	rm -rf $(BUILD)
