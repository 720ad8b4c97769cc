#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The test driver maps resources outside dma-test's pool (test-pool):
# RAM below it and above it, and the UART's registers. rdmatop --check
# must exit 1 and name dma-test. The RAM above the pool also tests
# rdmatop's own check against the kernel's audit: it reports both counts,
# 2 each, for the UART is MMIO to both (the kernel counts it as mmio,
# rdmatop's own check finds no RAM in it), not out of pool.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
dev=dma-test
cleanup_hook() { unbind_test_driver $dev; }

bind_test_driver $dev

map_out_of_pool() {
	for phys in 0x40000000 0x9000000 0x7f000000; do
		res=$("$HERE/rdt_ctl" $dev map_resource $phys 4096 to) || fail "map_resource $phys: $res"
		note "map_resource $phys: $res"
		id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
		"$HERE/rdt_ctl" $dev unmap_resource "$id" > /dev/null || fail "unmap_resource $id"
	done
}

check_during map_out_of_pool
cat "$WORK/out" "$WORK/err" | sed 's/^/# /'
[ $rc = 1 ] || fail "rdmatop --check exited $rc after out-of-pool mappings, not 1"
grep -q "^rdmatop: FAIL $dev: " "$WORK/out" || fail "no FAIL line naming $dev"
[ "$(grep -c '^rdmatop: FAIL' "$WORK/out")" = 1 ] || fail "devices other than $dev blamed"
grep -q "(kernel audit 2, rdmatop check 2)" "$WORK/out" ||
	fail "not 2 ranges of RAM out of pool to both the kernel and rdmatop's own check"
pass "rdmatop --check failed and named $dev"
