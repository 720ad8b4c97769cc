#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop --restricted-only: with I/O on every disk, the disk with a
# restricted pool is counted and the one without (a003c00, no pool) is
# not traced (absent from --json, or null), the maps hold less kernel
# memory than without the option, and --check still passes.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
cleanup_hook() { workload stop; }

# dev_field FILE DEVICE KEY: KEY of DEVICE in the last object of FILE
dev_field() {
	tail -n 1 "$1" | sed -n "s/.*{\"name\":\"$2\",[^{}]*\"$3\":\([^,}]*\).*/\1/p"
}
# top_field FILE KEY
top_field() { tail -n 1 "$1" | sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p"; }

workload start
rdmatop --json -d 1 -n 2 > "$WORK/all" 2> "$WORK/err" || fail "rdmatop --json: $(cat "$WORK/err")"
rdmatop --json --restricted-only -d 1 -n 2 > "$WORK/out" 2> "$WORK/err" ||
	fail "rdmatop --json --restricted-only: $(cat "$WORK/err")"
all_mem=$(top_field "$WORK/all" kernel_memory_bytes)
mem=$(top_field "$WORK/out" kernel_memory_bytes)
maps=$(dev_field "$WORK/out" a003e00.virtio_mmio maps_total)
other=$(dev_field "$WORK/out" a003c00.virtio_mmio maps_total)
other_all=$(dev_field "$WORK/all" a003c00.virtio_mmio maps_total)
note "kernel memory: $all_mem bytes, $mem with --restricted-only"
note "maps: a003e00 (blk-pool) $maps; a003c00 (no pool) $other ($other_all without the option)"
grep -q '"restricted_only":true' "$WORK/out" || fail "--json does not say restricted_only"
[ -n "$maps" ] && [ "$maps" != null ] && [ "$maps" -gt 0 ] ||
	fail "the restricted disk's maps are not counted: $maps"
# Never seen by the program: not listed, or listed (sysfs) with null numbers.
[ -z "$other" ] || [ "$other" = null ] || fail "a003c00 (no pool) has maps_total $other"
[ -n "$mem" ] && [ -n "$all_mem" ] && [ "$mem" -lt "$all_mem" ] ||
	fail "kernel memory $mem is not below $all_mem"
rdmatop --check --restricted-only --duration 2 > "$WORK/check" 2>&1
rc=$?
sed 's/^/# /' "$WORK/check"
[ $rc = 0 ] || fail "--check --restricted-only exited $rc"
pass "restricted-only: $mem bytes of kernel memory (was $all_mem)"
