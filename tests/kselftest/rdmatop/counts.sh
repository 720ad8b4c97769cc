#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop counts what the test driver does on dma-test, exactly: N maps
# of S bytes each way are N maps, N*S bytes mapped, N*S bytes towards the
# device, N in flight with N*S bytes while held; their unmaps are N
# unmaps, the from-device bytes back, nothing left in flight. A
# scatterlist counts one mapping per DMA segment. The size histogram puts
# them in the log2 bucket of S.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
dev=dma-test
size=3000	# not a power of 2, and more than one 2 KiB pool slot
n=5		# maps per direction
cleanup_hook() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	unbind_test_driver $dev
}

bind_test_driver $dev
json_watch $dev

# val KEY: the device's KEY in $line.
val() { json_dev_val "$dev" "$1" "$line"; }

# expect KEY BEFORE WANT_DELTA
expect() {
	now=$(val "$1") || fail "no $1 for $dev in: $line"
	got=$((now - $2))
	note "$1: +$got (want +$3)"
	[ "$got" = "$3" ] || fail "$1 moved by $got, not $3"
}

lines_after 1
base_lines=$(wc -l < "$WORK/out")
for k in maps_total unmaps_total map_bytes_total bytes_to_device_total \
	 bytes_from_device_total inflight inflight_bytes; do
	v=$(val $k) || fail "no $k for $dev in: $line"
	eval "b_$k=$v"
done

ids=
for dir in to from; do
	for i in $(seq 1 $n); do
		res=$("$HERE/rdt_ctl" $dev map $size 1 $dir) || fail "map $size $dir: $res"
		echo "$res" | grep -q "inpool=1" || fail "map $size $dir not in the pool: $res"
		ids="$ids $(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')"
	done
done
res=$("$HERE/rdt_ctl" $dev map_sg 3 $size 0 to) || fail "map_sg: $res"
sg_id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
sg_ents=$(echo "$res" | sed -n 's/.* ents=\([0-9]*\).*/\1/p')
note "map_sg: $res"
[ -n "$sg_ents" ] || fail "map_sg gave no segment count: $res"

lines_after 2
maps=$((2 * n + sg_ents))
expect maps_total "$b_maps_total" $maps
expect unmaps_total "$b_unmaps_total" 0
expect bytes_to_device_total "$b_bytes_to_device_total" $((n * size + 3 * size))
expect map_bytes_total "$b_map_bytes_total" $((2 * n * size + 3 * size))
expect inflight "$b_inflight" $maps
expect inflight_bytes "$b_inflight_bytes" $((2 * n * size + 3 * size))

# Every interval with maps of $size has as its median the bound of their
# log2 bucket, (2048, 4096]: 4096, whatever the number of maps in it.
p50s=$(tail -n +$((base_lines + 1)) "$WORK/out" |
	sed -n "s/.*{\"name\":\"$dev\",[^{}]*\"size_p50_bytes\":\([0-9][0-9.]*\)[,}].*/\1/p")
note "size p50 of the intervals with maps: $(echo $p50s)"
[ -n "$p50s" ] || fail "no interval gave $dev a size p50"
for v in $p50s; do
	[ "$v" = 4096 ] || fail "size p50 $v is not the bound of the log2 bucket of $size, 4096"
done

for id in $ids; do
	res=$("$HERE/rdt_ctl" $dev unmap "$id") || fail "unmap $id: $res"
	echo "$res" | grep -q "data=ok" || fail "unmap $id: $res"
done
"$HERE/rdt_ctl" $dev unmap_sg "$sg_id" > /dev/null || fail "unmap_sg $sg_id"

lines_after 2
expect unmaps_total "$b_unmaps_total" $maps
expect bytes_from_device_total "$b_bytes_from_device_total" $((n * size))
expect inflight "$b_inflight" 0
expect inflight_bytes "$b_inflight_bytes" 0
pass "rdmatop counted $maps maps and their unmaps on $dev exactly"
