#!/bin/sh
# Runs in the guest: bind dma_map_benchmark to the board's test device
# (restricted pool test-pool) and time map/unmap for each case.
#   guest.sh SECONDS off|traced [REPEAT]
# Prints "RESULT threads pages map_us unmap_us" lines: one per 1-thread
# case, REPEAT (default 8) per 2-thread case, of 1 s each. With one
# thread the cost repeats to a few instructions; with two it depends on
# how the threads' mappings interleave in the pool (where the slot search
# starts, how far it walks), which moves a run's mean by up to 7% either
# way: the median of many short runs is what compares.
secs=$1 mode=$2 repeat=${3:-8}
dev=dma-test
t=/sys/kernel/tracing

echo dma_map_benchmark > /sys/bus/platform/devices/$dev/driver_override
echo $dev > /sys/bus/platform/drivers/dma_map_benchmark/bind || exit 1

if [ "$mode" = traced ]; then
	for sys in swiotlb dma; do
		[ -d $t/events/$sys ] || { echo "no $sys events: not the patched kernel" >&2; exit 1; }
		echo 1 > $t/events/$sys/enable
	done
	echo 1 > $t/tracing_on
fi

# run THREADS PAGES SECONDS
run() {
	out=$(dma_map_benchmark -t "$1" -g "$2" -s "$3" -d 0) || exit 1
	map=$(echo "$out" | sed -n 's/^average map latency(us):\([0-9.]*\).*/\1/p')
	unmap=$(echo "$out" | sed -n 's/^average unmap latency(us):\([0-9.]*\).*/\1/p')
	echo "RESULT $1 $2 $map $unmap"
}

for pages in 1 16; do
	run 1 $pages "$secs"
	for i in $(seq 1 "$repeat"); do
		run 2 $pages 1
	done
done
[ "$mode" = traced ] && echo "# trace entries: $(wc -l < $t/trace)"
exit 0
