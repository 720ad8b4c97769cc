#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On the stock kernel (no series: only swiotlb:swiotlb_bounced and two
# debugfs files per pool) rdmatop runs in its fallback mode, says which
# columns are unavailable, still counts bounces per pool and device, and
# --check refuses (exit 2) rather than pass without the means to verify.
# Run it with: scripts/vm --stock -- /kselftest/run_kselftest.sh -t rdmatop:stock_fallback.sh
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
patched_kernel && skip "patched kernel (events/swiotlb/swiotlb_map exists): run under scripts/vm --stock"
[ -d $TRACEFS/events/swiotlb/swiotlb_bounced ] || skip "no swiotlb_bounced event either"
cleanup_hook() { workload stop; }

workload start
rdmatop -b -d 1 -n 2 > "$WORK/out" 2> "$WORK/err"
rc=$?
cat "$WORK/err" | sed 's/^/# /'
sed 's/^/# /' "$WORK/out"
[ $rc = 0 ] || fail "rdmatop -b exited $rc on the stock kernel"
grep -q "^rdmatop: fallback mode" "$WORK/err" || fail "no fallback notice on stderr"
grep -q "^fallback mode.*unavailable: .*INFLT" "$WORK/out" || fail "batch output does not name the unavailable columns"
for pool in $(layout_pools); do
	grep -q "^$pool " "$WORK/out" || fail "pool $pool not listed"
done
maps=$(awk '$1 == "blk-pool@70000000" { m = $8 } END { print m }' "$WORK/out")
note "blk-pool MAPS/s: $maps"
[ -n "$maps" ] && [ "$maps" != 0 ] && [ "$maps" != - ] || fail "no bounces counted on blk-pool"
rdmatop --json -n 1 > "$WORK/json" 2>/dev/null || fail "--json failed"
"$HERE/json_check" "$WORK/json" > /dev/null || fail "--json output is not NDJSON"
grep -q '"mode":"fallback"' "$WORK/json" || fail "--json does not say fallback"
rdmatop --check --duration 1 > /dev/null 2> "$WORK/err"
rc=$?
[ $rc = 2 ] || fail "--check exited $rc on the stock kernel, not 2"
pass "fallback mode: $(head -n 1 "$WORK/err")"
