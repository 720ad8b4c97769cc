#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop --json: every line is one JSON object, and each pool's used
# slots match debugfs io_tlb_used (the board idle: they do not move).
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched

rdmatop --json -d 1 -n 2 > "$WORK/out" 2> "$WORK/err" || fail "rdmatop --json: $(cat "$WORK/err")"
"$HERE/json_check" "$WORK/out" | sed 's/^/# /'
"$HERE/json_check" "$WORK/out" > /dev/null || fail "--json output is not NDJSON"
[ "$(wc -l < "$WORK/out")" = 2 ] || fail "-n 2 gave $(wc -l < "$WORK/out") lines"
last=$(tail -n 1 "$WORK/out")
for pool in $(layout_pools); do
	got=$(echo "$last" | sed -n "s/.*\"name\":\"$pool\",[^}]*\"used_slots\":\([0-9]*\),.*/\1/p")
	[ -n "$got" ] || fail "pool $pool missing from --json (or no used_slots)"
	f=/sys/kernel/debug/swiotlb/$pool/io_tlb_used
	want=0
	[ -r "$f" ] && want=$(cat "$f")
	note "$pool: json used_slots $got, debugfs $want"
	[ "$got" = "$want" ] || fail "$pool: used_slots $got in --json, $want in debugfs"
done
pass "$(wc -l < "$WORK/out") objects, used slots match debugfs"
