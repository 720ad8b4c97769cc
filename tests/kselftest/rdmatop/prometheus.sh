#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop --prometheus FILE, with I/O running, on every kernel (patched
# and stock): written atomically (no temporary left), well-formed text
# exposition format, restricted_dma_ names, counters in _total, every
# feature in restricted_dma_feature, one used_bytes sample per pool of
# the board, out_of_pool_total exactly where a source of it exists.
# The file is printed between "# prom-begin" and "# prom-end" lines
# (each line after "# prom| "): scripts/check runs promtool check metrics
# on every kernel's copy, and tests/fleet feeds it to a real Prometheus.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
cleanup_hook() { workload stop; }

f=$WORK/restricted_dma.prom
workload start
rdmatop --prometheus "$f" -d 1 -n 3 2> "$WORK/err"
rc=$?
grep -v '^rdmatop: fallback mode' "$WORK/err" | sed 's/^/# /'
[ $rc = 0 ] || fail "rdmatop --prometheus exited $rc: $(cat "$WORK/err")"
[ -s "$f" ] || fail "$f not written"
[ "$(ls "$WORK" | grep -c '^restricted_dma.prom.')" = 0 ] || fail "temporary files left: $(ls "$WORK")"
flavour=stock
patched_kernel && flavour=patched
echo "# prom-begin $(uname -r) $flavour"
sed 's/^/# prom| /' "$f"
echo "# prom-end"
awk '
function bad(why) { print "# line " NR ": " why ": " $0; err = 1 }
/^# HELP / { if ($3 !~ /^restricted_dma_[a-z0-9_]+$/) bad("bad name"); help[$3] = 1; next }
/^# TYPE / {
	if (!help[$3]) bad("TYPE without HELP")
	if ($4 !~ /^(counter|gauge|histogram)$/) bad("bad type")
	if ($4 == "counter" && $3 !~ /_total$/) bad("counter not ending in _total")
	type[$3] = $4; next
}
/^#/ { bad("stray comment"); next }
{
	line = $0
	if (line !~ /^restricted_dma_[a-z0-9_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [-+0-9.eE]+(Inf)?$/) {
		bad("malformed sample"); next
	}
	name = line; sub(/[{ ].*/, "", name)
	fam = name
	if (!(fam in type)) sub(/_(bucket|sum|count)$/, "", fam)
	if (!(fam in type)) bad("sample before its TYPE")
	samples++
}
END { if (!samples) { print "# no samples"; err = 1 }; exit err }' "$f" || fail "malformed $f"
for pool in $(layout_pools); do
	grep -q "^restricted_dma_pool_used_bytes{pool=\"$pool\"} " "$f" ||
		fail "no restricted_dma_pool_used_bytes for $pool"
done
[ "$(grep -c '^restricted_dma_feature{' "$f")" = 10 ] || fail "not 10 restricted_dma_feature series"
has_feature() { grep -q "^restricted_dma_feature{feature=\"$1\",.*} 1\$" "$f"; }
if has_feature out_of_pool_kernel || has_feature out_of_pool_check; then
	grep -q '^restricted_dma_device_out_of_pool_total{' "$f" ||
		fail "a source of out-of-pool counts, yet no restricted_dma_device_out_of_pool_total"
else
	! grep -q '_out_of_pool' "$f" || fail "out-of-pool families without a source of them"
fi
has_feature out_of_pool_kernel || ! grep -q '_out_of_pool_kernel_total' "$f" ||
	fail "a kernel out-of-pool count on a kernel without the audit event"
if has_feature bpf; then
	maps=$(sed -n 's/^restricted_dma_pool_maps_total{pool="blk-pool@70000000"} //p' "$f")
	[ -n "$maps" ] && [ "$maps" -gt 0 ] 2>/dev/null || fail "no maps counted on blk-pool with I/O running: '$maps'"
fi
pass "$flavour: $(grep -vc '^#' "$f") samples, well-formed, blk-pool maps ${maps:-n/a}"
