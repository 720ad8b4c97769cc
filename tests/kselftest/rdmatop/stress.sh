#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Everything at once, under rdmatop --check, for RDMA_STRESS_SECONDS
# (default 20; make stress runs 600 on the debug kernel):
#  - O_DIRECT I/O on every disk (rdma-workload);
#  - the test device mapped and unmapped from four threads, run after run
#    (restricted_dma's pool_concurrency, which checks its own counts);
#  - the other test devices bound to the test driver, mapped through and
#    unbound, in a loop each.
# Every run and every mapping must succeed inside its pool, the pools of
# the rebound devices must end empty, and rdmatop's verdict over the whole
# window must be ok. On the debug kernel scripts/vm also fails the boot on
# any report (KASAN, lockdep, kmemleak, DMA-API debug).
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
secs=${RDMA_STRESS_SECONDS:-20}
concurrency=$HERE/../restricted_dma/pool_concurrency
# A pool_concurrency run that starts just before the end still finishes
# inside rdmatop's window (a run takes 4 to 5 s, on the debug kernel too).
tail_secs=8
pids='' rdmatop_pid=''
rebind=$(awk '$1 == "device" && $4 == "test" && $2 != "dma-test" { print $2 }' $LAYOUT)
# Stopped early (a failure, the runner's TERM), the loops see the stop
# file and end their round: killed in one, they would leave its
# pool_concurrency or rdt_ctl running, and a device bound.
STOP=$WORK/stop
stop_parts() {
	: > "$STOP"
	for p in $pids; do
		t=0
		while kill -0 "$p" 2>/dev/null && [ $t -lt 20 ]; do
			sleep 1
			t=$((t + 1))
		done
		kill "$p" 2>/dev/null
	done
	pids=''
}
cleanup_hook() {
	stop_parts
	[ -z "$rdmatop_pid" ] || kill "$rdmatop_pid" 2>/dev/null
	workload stop
	for d in $rebind; do unbind_test_driver "$d"; done
}

case $secs in
'' | *[!0-9]*) fail "RDMA_STRESS_SECONDS=$secs: not a whole number of seconds" ;;
esac
[ -x "$concurrency" ] || fail "no $concurrency (the restricted_dma kselftests)"
[ -n "$rebind" ] || fail "the layout has no test device besides dma-test"

# rebind_loop DEV END: bind, map 64 KiB through the pool, unbind, until END.
rebind_loop() {
	n=0
	while [ ! -e "$STOP" ] && [ "$(date +%s)" -lt "$2" ]; do
		d=/sys/bus/platform/devices/$1
		echo restricted_dma_test > "$d/driver_override"
		echo "$1" > /sys/bus/platform/drivers/restricted_dma_test/bind ||
			{ echo "round $n: cannot bind $1"; exit 1; }
		res=$("$HERE/rdt_ctl" "$1" map 65536 0 bidi) ||
			{ echo "round $n: map on $1: $res"; exit 1; }
		case $res in
		*inpool=1*) ;;
		*) echo "round $n: $1 mapped outside its pool: $res"; exit 1 ;;
		esac
		id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
		"$HERE/rdt_ctl" "$1" unmap "$id" > /dev/null ||
			{ echo "round $n: unmap $id on $1"; exit 1; }
		unbind_test_driver "$1"
		n=$((n + 1))
	done
	echo "$1: $n rounds of bind, map, unmap, unbind"
}

# concurrency_loop END: pool_concurrency, run after run, until END.
concurrency_loop() {
	n=0
	while [ ! -e "$STOP" ] && [ "$(date +%s)" -lt "$1" ]; do
		"$concurrency" > "$WORK/concurrency.out" 2>&1 ||
			{ sed 's/^/  /' "$WORK/concurrency.out"; echo "run $n of pool_concurrency failed"; exit 1; }
		n=$((n + 1))
	done
	echo "pool_concurrency: $n runs"
}

workload start
rdmatop --check --duration $((secs + tail_secs)) > "$WORK/verdict" 2> "$WORK/err" &
rdmatop_pid=$!
wait_for_line "$WORK/err" "checking every DMA" $START_WAIT || {
	sed 's/^/# /' "$WORK/err"
	fail "rdmatop --check did not start its window"
}

end=$(($(date +%s) + secs))
concurrency_loop $end > "$WORK/part.concurrency" 2>&1 &
pids="$pids $!"
for d in $rebind; do
	rebind_loop "$d" $end > "$WORK/part.$d" 2>&1 &
	pids="$pids $!"
done

failed=''
for p in $pids; do
	wait "$p" || failed=1
done
pids=''
sed 's/^/# /' "$WORK"/part.*
[ -z "$failed" ] || fail "a part of the stress failed (above)"

for d in $rebind; do
	pool=$(awk -v d="$d" '$1 == "device" && $2 == d { print $3 }' $LAYOUT)
	used=$(cat "/sys/kernel/debug/swiotlb/$pool/io_tlb_used" 2>/dev/null)
	[ "$used" = 0 ] || fail "$pool of $d: io_tlb_used is ${used:-unreadable}, not 0"
done

wait $rdmatop_pid
rc=$?
rdmatop_pid=''
sed 's/^/# /' "$WORK/verdict" "$WORK/err"
[ $rc = 0 ] || fail "rdmatop --check exited $rc over the stress window"
grep -q '^rdmatop: ok:' "$WORK/verdict" || fail "no 'ok' verdict line"
pass "$secs s of everything at once: rdmatop's verdict ok"
