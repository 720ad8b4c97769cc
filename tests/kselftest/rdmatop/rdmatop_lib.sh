#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the rdmatop tests: kselftest exit codes, the board's layout,
# the test driver.
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

LAYOUT=/etc/rdma-board/expected-layout
TRACEFS=/sys/kernel/tracing
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/rdmatop-test.XXXXXX)
trap 'cleanup_hook; rm -rf "$WORK"' EXIT
# The runner's timeout sends TERM: exit, so that the EXIT trap cleans up.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cleanup_hook() { :; }

fail() { echo "# FAIL: $*"; exit $KSFT_FAIL; }
skip() { echo "# SKIP: $*"; exit $KSFT_SKIP; }
pass() { echo "# $*"; exit $KSFT_PASS; }
note() { echo "# $*"; }

need_rdmatop() {
	command -v rdmatop >/dev/null || fail "rdmatop is not installed (make tools)"
}

# The patched kernel has the series' events (swiotlb_map and the rest); a stock one does not.
patched_kernel() { [ -d $TRACEFS/events/swiotlb/swiotlb_map ]; }
need_patched() {
	patched_kernel || skip "kernel without the restricted DMA series (see stock_fallback.sh)"
}

layout_pools() { awk '$1 == "pool" { print $2 }' $LAYOUT; }
# "device pool" pairs
layout_devices() { awk '$1 == "device" { print $2, $3 }' $LAYOUT; }

# bind_test_driver DEV: the restricted-DMA test driver, through driver_override.
bind_test_driver() {
	d=/sys/bus/platform/devices/$1
	[ -d /sys/bus/platform/drivers/restricted_dma_test ] ||
		skip "no restricted_dma_test driver (CONFIG_DMA_RESTRICTED_POOL_TEST)"
	[ -e $d/driver ] && echo "$1" > $d/driver/unbind
	echo restricted_dma_test > $d/driver_override
	echo "$1" > /sys/bus/platform/drivers/restricted_dma_test/bind ||
		fail "cannot bind restricted_dma_test to $1"
}

unbind_test_driver() {
	d=/sys/bus/platform/devices/$1
	[ -e $d/driver ] && echo "$1" > $d/driver/unbind
	echo > $d/driver_override
}

# How long rdmatop may take to load and attach its programs: about 1 s
# on the board's kernels, 7 s on the debug kernel (KASAN, lockdep and
# kmemleak under TCG, mostly the verifier), several times that beside
# other boots. The waits end as soon as it is up, so the bound costs
# nothing when rdmatop works.
START_WAIT=${RDMATOP_START_WAIT:-120}

# wait_for_line FILE TEXT SECS
wait_for_line() {
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

workload() { rdma-workload "$1" >/dev/null 2>&1; }

# complete_lines FILE: the lines of FILE that rdmatop has finished. A
# --json record can be longer than its stdio buffer (about 10 KB on the
# board, 4 KB buffered), so a file it is still writing may end in part of
# one, which tail -n 1 would take for the last record.
complete_lines() { head -n "$(wc -l < "$1")" "$1"; }

# busiest_maps FILE POOL: the highest MAPS/s that rdmatop -b printed for POOL
# over all its samples, as printed ("2.7k"); "-" when every sample had none.
# Each disk's workload sleeps a second between rounds, so any one 1 s sample
# may see no I/O on a given pool; three consecutive ones cannot.
busiest_maps() {
	awk -v pool="$2" '
	function val(t) {
		if (t ~ /k$/) return t * 1e3
		if (t ~ /M$/) return t * 1e6
		return t + 0
	}
	$1 == pool && $8 != "-" && (best == "" || val($8) > val(best)) { best = $8 }
	$1 == pool && $8 == "-" && best == "" { dash = 1 }
	END { print (best != "" ? best : (dash ? "-" : "")) }' "$1"
}

# lines_after N: waits (up to START_WAIT) for N more lines in $WORK/out, where
# a background rdmatop --json writes, than there are now, then sets $line
# to the newest: an interval that began after whatever the caller did
# before.
lines_after() {
	want=$(($(wc -l < "$WORK/out") + $1))
	i=0
	while [ "$(wc -l < "$WORK/out")" -lt $want ] && [ $i -lt $((START_WAIT * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(wc -l < "$WORK/out")" -ge $want ] || fail "rdmatop printed no line: $(cat "$WORK/err")"
	# That line, whole: the last one may still be being written.
	line=$(sed -n "${want}p" "$WORK/out")
}

# json_watch DEV: rdmatop --json -d 1 on DEV alone in the background
# ($pid), its lines in $WORK/out; a test's cleanup_hook kills it.
json_watch() {
	: > "$WORK/out"
	rdmatop --json -d 1 -f "$1" >> "$WORK/out" 2> "$WORK/err" &
	pid=$!
}

# json_dev_val DEV KEY LINE: device DEV's KEY in the --json LINE (its
# counters come before any nested object, so the match stays inside the
# device's object); fails when there is none.
json_dev_val() {
	v=$(echo "$3" | sed -n "s/.*{\"name\":\"$1\",[^{}]*\"$2\":\(-\{0,1\}[0-9][0-9]*\)[,}].*/\1/p")
	[ -n "$v" ] && echo "$v"
}

# check_during FN: rdmatop --check over a window in which FN runs; the
# verdict in $WORK/out and $WORK/err, rdmatop's status in $rc. FN must
# fall inside the window. It takes a few milliseconds on an idle board
# and seconds on the debug kernel beside other boards, where a window
# too short cost a whole new rdmatop start: the first window is 4 s plus
# four times what FN took just before rdmatop started (so what it did
# then is in no count rdmatop checks), and one it still outlasts is
# tried again, twice as long.
uptime_cs() { awk '{ printf "%d", $1 * 100 }' /proc/uptime; }
check_during() {
	t0=$(uptime_cs)
	$1 > /dev/null
	took=$(($(uptime_cs) - t0))
	secs=$((4 + took * 4 / 100))
	note "$1 took ${took}0 ms: a ${secs}s window"
	for try in 1 2 3 4; do
		rdmatop --check --duration $secs > "$WORK/out" 2> "$WORK/err" &
		pid=$!
		wait_for_line "$WORK/err" "checking" $START_WAIT ||
			{ kill $pid; fail "rdmatop did not start: $(cat "$WORK/err")"; }
		$1
		kill -0 $pid 2> /dev/null && break
		wait $pid
		[ $try = 4 ] && fail "$1 outlasted every window, up to ${secs}s"
		note "$1 outlasted a ${secs}s window: again"
		secs=$((secs * 2))
	done
	wait $pid
	rc=$?
	pid=
}
