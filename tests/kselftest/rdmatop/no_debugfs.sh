#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop without debugfs (as on an Android user build): with debugfs
# unmounted it still runs from BTF, the device tree and its BPF program:
# the board's pools are listed with their use unknown ("-"), bounces are
# counted, the line under the header says "no debugfs", and --check
# passes with I/O running. debugfs is mounted again afterwards.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
DEBUGFS=/sys/kernel/debug
cleanup_hook() {
	workload stop
	mountpoint -q $DEBUGFS || mount -t debugfs debugfs $DEBUGFS
}

workload start
umount $DEBUGFS || skip "cannot unmount debugfs"
rdmatop -b -d 1 -n 3 > "$WORK/out" 2> "$WORK/err"
rc=$?
sed 's/^/# /' "$WORK/err" "$WORK/out"
[ $rc = 0 ] || fail "rdmatop -b exited $rc without debugfs"
grep -q "no debugfs: unavailable: USED USE%" "$WORK/out" || fail "no 'no debugfs' line"
grep -q "fallback mode" "$WORK/out" && fail "a patched kernel without debugfs called fallback"
for pool in $(layout_pools); do
	grep -q "^$pool " "$WORK/out" || fail "pool $pool not listed from the device tree"
done
used=$(awk '$1 == "blk-pool@70000000" { u = $4 } END { print u }' "$WORK/out")
maps=$(busiest_maps "$WORK/out" blk-pool@70000000)
note "blk-pool: USED $used, MAPS/s $maps"
[ "$used" = - ] || fail "blk-pool USED is $used, not unknown"
[ -n "$maps" ] && [ "$maps" != - ] && [ "$maps" != 0 ] || fail "no bounces counted: $maps"
rdmatop --check --duration 2 > "$WORK/check" 2>&1
rc=$?
sed 's/^/# /' "$WORK/check"
[ $rc = 0 ] || fail "--check exited $rc without debugfs"
pass "without debugfs: pools from the device tree, $maps bounces/s, --check ok"
