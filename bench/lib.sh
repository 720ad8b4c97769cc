# Shared by the benchmarks (bench/*/run, tools/*/bench/run). Source it.

# bench_dma_map_benchmark DIR: build the kernel's dma_map_benchmark tool,
# static for the board, into DIR/usr/local/bin (a scripts/vm --overlay).
bench_dma_map_benchmark() {
	local tree=$top/build/src/linux
	mkdir -p "$1/usr/local/bin"
	aarch64-linux-gnu-gcc -static -O2 -I"$top/build/arm64/usr/include" -I"$tree/include" \
		-o "$1/usr/local/bin/dma_map_benchmark" \
		"$tree/tools/testing/selftests/dma/dma_map_benchmark.c"
}

# An awk function for the benchmarks' tables: median(LIST) of a
# space-separated list of numbers. Use as: awk "$bench_awk_median"'...'.
bench_awk_median='
function median(list,    n, i, j, t, a) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# bench_insn_scale SHIFT: guest instructions per microsecond of guest time
# under scripts/vm --icount SHIFT (one instruction is 2^SHIFT ns).
bench_insn_scale() {
	awk -v s="$1" 'BEGIN { print 1000 / 2 ^ s }'
}
