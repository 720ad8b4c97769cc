#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On a stock kernel (no series) rdmatop loads, takes the DMA API from what
# the kernel has (6.12: the dma: trace events; 6.1 on arm64: nothing, as
# fentry needs ftrace direct calls, which arm64 has from 6.4: only
# swiotlb_bounced counts bounces), says so, leaves empty exactly the
# documented columns, counts bounces per pool and device, and --check
# passes with I/O running where it sees every DMA API range of the
# restricted devices (6.12), and exits 2 where it cannot (6.1).
# Exact counts: bounce_counts.sh.
# Run it with: scripts/vm --stock [--kernel 6.1] -- /kselftest/run_kselftest.sh -t rdmatop:stock_fallback.sh
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
patched_kernel && skip "patched kernel (events/swiotlb/swiotlb_map exists): run under scripts/vm --stock"
cleanup_hook() { workload stop; }

# What Documentation/rdmatop.8 (FALLBACK) says each stock kernel lacks.
case $(uname -r) in
6.1.*)	source=swiotlb_bounced
	unavailable="INFLT T50 T99 TODEV/s FROMDEV/s PEAK PEAK% FAIL OOP OOP(kernel audit) devices without a pool"
	check=2 ;;
*)	source=tracepoints; unavailable="OOP(kernel audit)"; check=0 ;;
esac

workload start
rdmatop -b -d 1 -n 3 > "$WORK/out" 2> "$WORK/err"
rc=$?
sed 's/^/# /' "$WORK/err" "$WORK/out"
[ $rc = 0 ] || fail "rdmatop -b exited $rc on the stock kernel"
grep -q "^rdmatop: fallback mode.*DMA API from $source): unavailable: $unavailable\$" "$WORK/err" ||
	fail "stderr does not say: DMA API from $source, unavailable: $unavailable"
for pool in $(layout_pools); do
	grep -q "^$pool " "$WORK/out" || fail "pool $pool not listed"
done
maps=$(busiest_maps "$WORK/out" blk-pool@70000000)
note "blk-pool MAPS/s: $maps"
[ -n "$maps" ] && [ "$maps" != 0 ] && [ "$maps" != - ] || fail "no bounces counted on blk-pool"
inflt=$(awk '$1 == "blk-pool@70000000" { m = $11 } END { print m }' "$WORK/out")
if [ $check = 0 ]; then
	[ -n "$inflt" ] && [ "$inflt" != - ] || fail "no in-flight count on blk-pool: $inflt"
else
	[ "$inflt" = - ] || fail "an in-flight count ($inflt) without unmap events"
fi
rdmatop --json -n 1 > "$WORK/json" 2>/dev/null || fail "--json failed"
"$HERE/json_check" "$WORK/json" > /dev/null || fail "--json output is not NDJSON"
grep -q '"mode":"fallback"' "$WORK/json" || fail "--json does not say fallback"
rdmatop --check --duration 3 > "$WORK/check" 2> "$WORK/err"
rc=$?
sed 's/^/# /' "$WORK/check" "$WORK/err"
[ $rc = $check ] || fail "--check exited $rc on the stock kernel with I/O running, not $check"
if [ $check = 0 ]; then
	grep -q '^rdmatop: ok:' "$WORK/check" || fail "no ok verdict"
else
	grep -q 'cannot verify' "$WORK/err" || fail "--check does not say it cannot verify"
	grep -q '^rdmatop: ok:' "$WORK/check" && fail "an ok verdict it cannot vouch for"
fi
pass "stock kernel: DMA API from $source, unavailable: $unavailable"
