#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop -b lists every pool and every device of the board's expected
# layout, each device with its pool ("none" for the control disk, which
# shows up through its DMA API traffic: I/O runs during the test).
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
cleanup_hook() { workload stop; }

workload start
rdmatop -b -d 1 -n 1 > "$WORK/out" 2> "$WORK/err" || fail "rdmatop -b: $(cat "$WORK/err")"
sed 's/^/# /' "$WORK/out"
for pool in $(layout_pools); do
	grep -q "^$pool " "$WORK/out" || fail "pool $pool not listed"
done
layout_devices | while read -r dev pool; do
	grep -Eq "^$dev +$pool( |\$)" "$WORK/out" || fail "device $dev not listed with pool $pool"
done || exit $KSFT_FAIL
pass "every pool and device of $LAYOUT listed"
