#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The board's side of tests/fleet/e2e (scripts/vm --workload --overlay):
# rdmatop --prometheus runs as the exporter would, with I/O on the disks;
# its file is printed twice, between "# prom-begin" and "# prom-end"
# lines (tests/fleet/prom-extract): "a" before, "b" after the test driver
# mapped two ranges outside dma-test's pool (as check_out_of_pool.sh).
# The board has no RTC: the host's clock comes in /etc/fleet/epoch, as
# a device gets its time from the network.
K=/kselftest/rdmatop
D=/tmp/fleet
F=$D/restricted_dma.prom
dev=/sys/bus/platform/devices/dma-test
pid=''
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid"
	[ -e $dev/driver ] && echo dma-test > $dev/driver/unbind
	echo > $dev/driver_override
}
trap cleanup EXIT
fail() { echo "capture: $*"; exit 1; }

# wait_for SECS COMMAND: polls the shell COMMAND every 0.2 s until it
# succeeds, for SECS of the clock at most.
wait_for() {
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt $end ]; do
		sh -c "$2" && return 0
		sleep 0.2
	done
	return 1
}

show() {
	echo "# prom-begin $(uname -r) patched $1"
	sed 's/^/# prom| /' $F
	echo "# prom-end"
}

[ -r /etc/fleet/epoch ] || fail "no /etc/fleet/epoch"
date -s "@$(cat /etc/fleet/epoch)" > /dev/null || fail "cannot set the clock"
mkdir -p $D
rdmatop --prometheus $F -d 2 --self 2> $D/err &
pid=$!
wait_for 30 "[ -s $F ]" || fail "rdmatop wrote no file: $(cat $D/err)"
sleep 5
show a
echo restricted_dma_test > $dev/driver_override
echo dma-test > /sys/bus/platform/drivers/restricted_dma_test/bind || fail "cannot bind the test driver"
for phys in 0x40000000 0x7f000000; do
	res=$($K/rdt_ctl dma-test map_resource $phys 4096 to) || fail "map_resource $phys: $res"
	echo "capture: map_resource $phys: $res"
	id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
	$K/rdt_ctl dma-test unmap_resource "$id" > /dev/null || fail "unmap_resource $id"
done
wait_for 30 "grep -q '^restricted_dma_device_out_of_pool_total{device=\"dma-test\",.*} [1-9]' $F" ||
	fail "no out-of-pool range of dma-test in rdmatop's file"
sleep 2
show b
