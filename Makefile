# Restricted DMA that operators can see and verify.
#
# `make help` lists the targets. Every target installs or builds what it
# needs first; outputs go to build/ (never committed).

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build
HOST_BIN := $(BUILD)/host/bin
# The board's userspace, shared by every kernel it boots.
BOARD_DIR := $(BUILD)/board
BOARD_BIN := $(BOARD_DIR)/bin
# The kernels (scripts/kernel-build): 6.12 is the primary one, 6.1 the
# backport. Each is built patched (kernel/VER/series) and stock in
# build/kernel/VER/{patched,stock}/.
KERNELS := 6.12 6.1
KERNEL_DEFAULT := 6.12
KDIR = $(BUILD)/kernel/$(1)/$(2)
# The kselftests build against the primary kernel's headers, and so does
# rdmatop's BPF object, which relocates on every kernel
# (tools/rdmatop/Makefile: RDMATOP_VMLINUX_H, the patched 6.12 kernel's
# vmlinux.h): make tools builds that kernel first.
KSELFTEST_KERNEL := $(KERNEL_DEFAULT)
# Pristine trees (stock sources) for the tools' tests and benchmarks:
# rdma-dtcheck's corpus and benchmark read both releases' device trees.
DTCHECK_KSRC := KSRC_6_12=$(call KDIR,6.12,stock)/src KSRC_6_1=$(call KDIR,6.1,stock)/src
# The kernel the benchmarks boot (make bench BENCH_KERNEL=6.1).
BENCH_KERNEL ?= $(KERNEL_DEFAULT)
# Guest test run timeout (seconds) for make check.
CHECK_TIMEOUT ?= 900

.DEFAULT_GOAL := help
.PHONY: help deps kernel kernel-stock $(addprefix kernel-,$(KERNELS)) \
	$(addprefix kernel-stock-,$(KERNELS)) $(addprefix kernel-debug-,$(KERNELS)) \
	$(addprefix kernel-kcsan-,$(KERNELS)) $(addprefix check-debug-,$(KERNELS)) kernel-debug kernel-kcsan kernel-sources kselftest tools initramfs dtb \
	board board-stock vm run check check-host check-guest bench fuzz stress kcsan clean distclean

help: ## this list
	@echo "Restricted DMA board, kernel series and tools. Targets:"
	@grep -hE '^[a-z0-9.%-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  make %-16s %s\n", $$1, $$2 }'
	@printf '  make %-16s %s\n' kernel-VER "one patched kernel, VER one of: $(KERNELS)" \
		kernel-stock-VER "one stock kernel" kernel-debug-VER "one debug kernel" \
		check-debug-VER "the debug kernel's boots of make check, on VER (6.1's is not in make check)"
	@echo "The default kernel is $(KERNEL_DEFAULT); each is in build/kernel/VER/{patched,stock,debug}/."

deps: ## install Debian packages (host and arm64) and busybox for the board
	@scripts/deps

# One kernel build at a time (two cores): the loops run them in turn.
kernel: deps ## build the patched kernels, 6.12 then 6.1: build/kernel/VER/patched/
	@for v in $(KERNELS); do scripts/kernel-build --kernel $$v || exit 1; done

kernel-stock: deps ## build both kernels without their series: build/kernel/VER/stock/
	@for v in $(KERNELS); do scripts/kernel-build --kernel $$v --stock || exit 1; done

kernel-debug: deps ## the 6.12 debug kernel (patched + KASAN, lockdep, ...): build/kernel/6.12/debug/
	@scripts/kernel-build --kernel $(KERNEL_DEFAULT) --debug

# kernel-VER and kernel-stock-VER: one kernel (make help lists them).
define kernel_rules
kernel-$(1): deps
	@scripts/kernel-build --kernel $(1)

kernel-stock-$(1): deps
	@scripts/kernel-build --kernel $(1) --stock

kernel-debug-$(1): deps
	@scripts/kernel-build --kernel $(1) --debug

kernel-kcsan-$(1): deps
	@scripts/kernel-build --kernel $(1) --kcsan

check-debug-$(1): deps
	@scripts/check --debug $(1)
endef
$(foreach v,$(KERNELS),$(eval $(call kernel_rules,$(v))))

kernel-kcsan: deps ## the 6.12 KCSAN kernel (patched + KCSAN): build/kernel/6.12/kcsan/
	@scripts/kernel-build --kernel $(KERNEL_DEFAULT) --kcsan

kernel-sources: deps ## only unpack the pristine trees the host tests read
	@for v in $(KERNELS); do scripts/kernel-build --kernel $$v --stock --source-only || exit 1; done

kselftest: kernel-$(KSELFTEST_KERNEL) ## build the kselftests for the board: build/board/kselftest/
	@scripts/kselftest-build $(KSELFTEST_KERNEL) $(BOARD_DIR)/kselftest

tools: deps kernel-$(KERNEL_DEFAULT) ## build the tools: host binaries in build/host/bin, board ones in build/board/bin
	@mkdir -p $(HOST_BIN) $(BOARD_BIN)
	@for t in $(wildcard tools/*/Makefile); do \
		$(MAKE) --no-print-directory -s -C $$(dirname $$t) OUT=$(HOST_BIN) \
			BOARD_OUT=$(BOARD_BIN) || exit 1; \
	done

initramfs: tools kselftest ## pack the board's initramfs: build/board/initramfs.cpio
	@scripts/initramfs $(BOARD_DIR)/initramfs.cpio

dtb: deps ## build the boards' device trees: build/board/board.dtb, build/board/zoo.dtb
	@mkdir -p $(BOARD_DIR)
	@scripts/board-dtb $(BOARD_DIR)/board.dtb
	@scripts/board-dtb $(BOARD_DIR)/zoo.dtb zoo

board: kernel initramfs dtb ## everything scripts/vm boots (patched kernels)

board-stock: kernel-stock initramfs dtb ## everything scripts/vm --stock boots

vm: ## run CMD='...' on the board, KERNEL=6.1 for the backport (scripts/vm -- CMD)
	@scripts/vm --kernel $(or $(KERNEL),$(KERNEL_DEFAULT)) -- $(CMD)

run: ## the main job: the board (Linux 6.12) with I/O running, rdmatop on the console, then a shell
	@scripts/vm --kernel $(KERNEL_DEFAULT) --workload --top --timeout 0

check: ## run every test (host and board) and print one summary line
	@scripts/check

check-host: ## only the host-side tests
	@scripts/check --host

check-guest: ## only the tests on the board (both kernels, patched and stock)
	@scripts/check --guest

bench: tools kernel-sources ## benchmarks (not timed tests): numbers for the issues' targets
	@for t in $(wildcard tools/*/Makefile); do \
		$(MAKE) --no-print-directory -s -C $$(dirname $$t) bench $(DTCHECK_KSRC) || exit 1; \
	done
	@for b in $(wildcard bench/*/run); do BENCH_KERNEL=$(BENCH_KERNEL) $$b || exit 1; done

# The fuzzers' long run, on the debug kernel (make check runs them for 20 s
# and 10 s a boot): the test driver's control file, then the pools' debugfs knobs.
# FUZZ_SECONDS=3600 make fuzz; FUZZ_SEED replays a run.
FUZZ_SECONDS ?= 600
fuzz: ## fuzz the control file and debugfs knobs on the 6.12 debug kernel (FUZZ_SECONDS each, 600)
	@scripts/vm --debug --timeout $$(( 2 * $(FUZZ_SECONDS) + 300 )) -- sh -c \
		'cd /kselftest/restricted_dma && export RDMA_FUZZ_SECONDS=$(FUZZ_SECONDS) \
		RDMA_FUZZ_SEED=$(FUZZ_SEED) && ./fuzz_control && ./fuzz_debugfs'

# Everything at once for longer, on the debug kernel (make check runs it
# for 20 s a boot): I/O, four mapping threads, devices bound and unbound,
# all under rdmatop --check (tests/kselftest/rdmatop/stress.sh).
STRESS_SECONDS ?= 600
stress: ## I/O, mapping threads and rebinds under rdmatop --check on the 6.12 debug kernel (STRESS_SECONDS, 600)
	@scripts/vm --debug --timeout $$(( $(STRESS_SECONDS) + 600 )) -- sh -c \
		'RDMA_STRESS_SECONDS=$(STRESS_SECONDS) /kselftest/rdmatop/stress.sh'

# The data-race hunt: the tests that do things at once, on the KCSAN kernel
# (KCSAN cannot share a kernel with KASAN).
kcsan: ## the concurrent tests on the 6.12 KCSAN kernel: make fails on a data race
	@scripts/vm --kcsan --timeout 1800 -- sh -c 'exec /kselftest/run_kselftest.sh "$$@"' \
		run_kselftest -o 600 -t restricted_dma:shared_pool -t restricted_dma:pool_concurrency \
		-t restricted_dma:fuzz_control -t restricted_dma:fuzz_debugfs -t rdmatop:stress.sh

clean: ## remove build outputs (keeps the kernel trees, ccache and downloads)
	rm -rf $(BUILD)/host $(BUILD)/board $(BUILD)/vm $(BUILD)/check.log
	rm -rf $(BUILD)/kernel/*/kbuild/obj $(BUILD)/kernel/*/kbuild/.config-id
	@for d in $(BUILD)/kernel/*/patched $(BUILD)/kernel/*/stock; do \
		[ -d "$$d" ] || continue; \
		echo "rm -rf $${d#$(TOP)/}/* (but src/)"; \
		find "$$d" -mindepth 1 -maxdepth 1 ! -name src -exec rm -rf {} +; \
	done

distclean: ## remove everything under build/, kernel trees included (ccache stays)
	rm -rf $(BUILD)
