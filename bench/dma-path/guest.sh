#!/bin/sh
# Runs in the guest for bench/dma-path/trace: dma_map_benchmark mapping one
# page at a time on the board's test device (restricted pool test-pool)
# while the host's debugger traces its calls; MODE "rdmatop" attaches
# rdmatop first. Prints READY just before the calls start: once they run,
# console output may wait for them to end (the benchmark's thread keeps
# its CPU), and the debugger waits for the first call anyway.
#   guest.sh SECONDS MODE        (SECONDS: each benchmark run, at most 300)
secs=$1 mode=$2
dev=dma-test

echo dma_map_benchmark > /sys/bus/platform/devices/$dev/driver_override
echo $dev > /sys/bus/platform/drivers/dma_map_benchmark/bind || exit 1
if [ "$mode" = rdmatop ]; then
	rdmatop --json -d 1 > /tmp/rdmatop.json 2> /tmp/rdmatop.err &
	i=0
	while [ ! -s /tmp/rdmatop.json ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s /tmp/rdmatop.json ] || { cat /tmp/rdmatop.err >&2; exit 1; }
fi
echo READY
# Until the host stops the guest: a slow trace may outlast one run.
while :; do
	dma_map_benchmark -t 1 -g 1 -s "$secs" -d 0 > /dev/null || exit 1
done
