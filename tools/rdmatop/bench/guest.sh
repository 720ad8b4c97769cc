#!/bin/sh
# Runs in the guest: dma_map_benchmark on the board's test device
# (restricted pool test-pool) with no tracing, with rdmatop attached, and
# with ftrace recording the same events, interleaved ROUNDS times.
#   guest.sh ROUNDS SECONDS THREADS PAGES
# Prints "RESULT config map_us unmap_us" lines and, for rdmatop,
# "SELF cpu_pct rss_kib tick_cpu_pct kernel_bytes": its exact CPU share
# (cputime, the scheduler's runtime), beside it the tick-sampled one of
# /proc/PID/stat, which only counts the 4 ms ticks that land on it, and
# the kernel memory its BPF maps and programs take (its --json says).
rounds=$1 secs=$2 threads=$3 pages=$4
dev=dma-test
t=/sys/kernel/tracing
hz=100	# USER_HZ on arm64

echo dma_map_benchmark > /sys/bus/platform/devices/$dev/driver_override
echo $dev > /sys/bus/platform/drivers/dma_map_benchmark/bind || exit 1

bench() {
	out=$(dma_map_benchmark -t "$threads" -g "$pages" -s "$secs" -d 0) || exit 1
	map=$(echo "$out" | sed -n 's/^average map latency(us):\([0-9.]*\).*/\1/p')
	unmap=$(echo "$out" | sed -n 's/^average unmap latency(us):\([0-9.]*\).*/\1/p')
	echo "RESULT $1 $map $unmap"
}

cpu_ticks() { awk '{ print $14 + $15 }' /proc/$1/stat; }

for r in $(seq 1 "$rounds"); do
	bench none

	# No stale file: the wait below must see this instance's first line.
	rm -f /tmp/rdmatop.json
	rdmatop --json -d 1 > /tmp/rdmatop.json 2> /tmp/rdmatop.err &
	pid=$!
	# Attached once the first interval is out. Loading and verifying the
	# BPF program is a lot of instructions: on the instruction-counting
	# clock (scripts/vm --icount) that is tens of guest seconds.
	i=0
	while [ ! -s /tmp/rdmatop.json ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s /tmp/rdmatop.json ] || { cat /tmp/rdmatop.err >&2; exit 1; }
	t0=$(cpu_ticks $pid)
	c0=$(cputime $pid) || exit 1
	s0=$(cut -d' ' -f1 /proc/uptime)
	bench rdmatop
	t1=$(cpu_ticks $pid)
	c1=$(cputime $pid) || exit 1
	s1=$(cut -d' ' -f1 /proc/uptime)
	rss=$(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status)
	kmem=$(tail -n 1 /tmp/rdmatop.json | sed -n 's/.*"kernel_memory_bytes":\([0-9]*\).*/\1/p')
	kill $pid
	wait $pid 2>/dev/null
	cpu=$(echo "$c0 $c1" | awk '{ printf "%.3f", 100 * ($3 - $1) / ($4 - $2) }')
	echo "SELF $cpu $rss $(awk -v t="$((t1 - t0))" -v a="$s0" -v b="$s1" -v hz=$hz \
		'BEGIN { printf "%.2f", 100 * t / hz / (b - a) }') ${kmem:-0}"

	# The events rdmatop uses that this kernel has (stock 6.1: only
	# swiotlb_bounced; stock 6.12 no swiotlb_map family).
	for sys in swiotlb dma; do [ -d $t/events/$sys ] && echo 1 > $t/events/$sys/enable; done
	echo 1 > $t/tracing_on
	bench ftrace
	echo 0 > $t/tracing_on
	for sys in swiotlb dma; do [ -d $t/events/$sys ] && echo 0 > $t/events/$sys/enable; done
	echo "# ftrace entries: $(wc -l < $t/trace)"
	echo > $t/trace
done
exit 0
