#!/bin/sh
# Runs in the guest: rdmatop's cost split by BPF program. dma_map_benchmark
# on the board's test device with rdmatop attached and the kernel's BPF
# run-time statistics on; prints progstats' lines before and after
# ("PROG name runs ns", "PROG0" before; "JIT name hex" after) and the
# benchmark's latency lines.
#   progs.sh SECONDS
secs=$1
dev=dma-test

echo dma_map_benchmark > /sys/bus/platform/devices/$dev/driver_override
echo $dev > /sys/bus/platform/drivers/dma_map_benchmark/bind || exit 1
rdmatop --json -d 1 > /tmp/rdmatop.json 2> /tmp/rdmatop.err &
pid=$!
i=0
while [ ! -s /tmp/rdmatop.json ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
[ -s /tmp/rdmatop.json ] || { cat /tmp/rdmatop.err >&2; exit 1; }
echo 1 > /proc/sys/kernel/bpf_stats_enabled
progstats | sed 's/^PROG /PROG0 /'
out=$(dma_map_benchmark -t 1 -g 1 -s "$secs" -d 0) || exit 1
progstats -j
echo 0 > /proc/sys/kernel/bpf_stats_enabled
echo "$out" | grep -i 'latency\|ops'
kill $pid
wait $pid 2>/dev/null
exit 0
