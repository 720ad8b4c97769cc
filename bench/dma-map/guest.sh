#!/bin/sh
# Runs in the guest: bind dma_map_benchmark to the board's test device
# (restricted pool test-pool) and time map/unmap for each case.
#   guest.sh SECONDS off|traced
# Prints "RESULT threads pages map_us unmap_us" lines.
secs=$1 mode=$2
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

for threads in 1 2; do
	for pages in 1 16; do
		out=$(dma_map_benchmark -t $threads -g $pages -s "$secs" -d 0) || exit 1
		map=$(echo "$out" | sed -n 's/^average map latency(us):\([0-9.]*\).*/\1/p')
		unmap=$(echo "$out" | sed -n 's/^average unmap latency(us):\([0-9.]*\).*/\1/p')
		echo "RESULT $threads $pages $map $unmap"
	done
done
[ "$mode" = traced ] && echo "# trace entries: $(wc -l < $t/trace)"
exit 0
