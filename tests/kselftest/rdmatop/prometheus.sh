#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop --prometheus FILE: written (atomically: no temporary left),
# well-formed text exposition format, rdma_ names, counters in _total,
# one used_bytes sample per pool of the board.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched

f=$WORK/rdma.prom
rdmatop --prometheus "$f" -d 1 -n 2 2> "$WORK/err" || fail "rdmatop --prometheus: $(cat "$WORK/err")"
[ -s "$f" ] || fail "$f not written"
[ "$(ls "$WORK" | grep -c '^rdma.prom.')" = 0 ] || fail "temporary files left: $(ls "$WORK")"
awk '
function bad(why) { print "# line " NR ": " why ": " $0; err = 1 }
/^# HELP / { if ($3 !~ /^rdma_[a-z0-9_]+$/) bad("bad name"); help[$3] = 1; next }
/^# TYPE / {
	if (!help[$3]) bad("TYPE without HELP")
	if ($4 !~ /^(counter|gauge|histogram)$/) bad("bad type")
	if ($4 == "counter" && $3 !~ /_total$/) bad("counter not ending in _total")
	type[$3] = $4; next
}
/^#/ { bad("stray comment"); next }
{
	line = $0
	if (line !~ /^rdma_[a-z0-9_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [-+0-9.eE]+(Inf)?$/) {
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
	grep -q "^rdma_pool_used_bytes{pool=\"$pool\"} " "$f" || fail "no rdma_pool_used_bytes for $pool"
done
pass "$(grep -vc '^#' "$f") samples, well-formed"
