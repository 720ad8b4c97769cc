#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A device behind a bus whose dma-ranges put RAM 1 GiB higher than the
# CPUs see it (board/restricted-dma.dtso: dma-offset). rdmatop
# translates each DMA address through the device's dma_range_map before
# it checks it against the pool, as the kernel's audit does:
# - bounces through the pool are counted, and none is out of the pool;
# - a resource whose bus address 0x90000000 reaches RAM at 0x50000000,
#   outside the pool, fails --check, on both the kernel's audit and
#   rdmatop's own check (untranslated, 0x90000000 is no RAM at all and
#   rdmatop's own check would say nothing).
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
dev=dma-offset:offset-test
n=8
[ -d /sys/bus/platform/devices/$dev ] || skip "the board has no $dev"
cleanup_hook() {
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	unbind_test_driver $dev
}
bind_test_driver $dev

# Bounces: in the pool (the driver checks its own), counted, none out of it.
json_watch $dev
lines_after 1
maps0=$(json_dev_val $dev maps_total "$line") || fail "no maps_total for $dev in: $line"
for i in $(seq 1 $n); do
	res=$("$HERE/rdt_ctl" $dev map 4096 1 to) || fail "map: $res"
	echo "$res" | grep -q "inpool=1" || fail "map not in the pool: $res"
	id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
	"$HERE/rdt_ctl" $dev unmap "$id" > /dev/null || fail "unmap $id"
done
note "last map: $res"
lines_after 2
maps=$(($(json_dev_val $dev maps_total "$line") - maps0))
[ "$maps" = $n ] || fail "$n maps through the offset counted as $maps"
for k in out_of_pool_check_total out_of_pool_kernel_total; do
	v=$(json_dev_val $dev $k "$line") || fail "no $k for $dev in: $line"
	[ "$v" = 0 ] || fail "$k is $v after bounces inside the pool"
done
kill $pid
wait $pid 2>/dev/null
pid=
note "$n bounces through the offset: counted, none out of the pool"

# A resource reaching RAM outside the pool through the offset.
map_through_offset() {
	res=$("$HERE/rdt_ctl" $dev map_resource 0x90000000 4096 to) || fail "map_resource: $res"
	note "map_resource 0x90000000: $res"
	id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
	"$HERE/rdt_ctl" $dev unmap_resource "$id" > /dev/null || fail "unmap_resource $id"
}
check_during map_through_offset
cat "$WORK/out" "$WORK/err" | sed 's/^/# /'
[ $rc = 1 ] || fail "rdmatop --check exited $rc after an out-of-pool mapping, not 1"
grep -q "^rdmatop: FAIL $dev: " "$WORK/out" || fail "no FAIL line naming $dev"
grep -q "(kernel audit 1, rdmatop check 1)" "$WORK/out" ||
	fail "not 1 range of RAM out of pool to both the kernel and rdmatop's own check"
pass "an out-of-pool resource through the offset failed --check on both checks"
