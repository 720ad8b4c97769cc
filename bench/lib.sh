# Shared by the benchmarks (bench/*/run, tools/*/bench/run). Source it
# after scripts/lib.sh.

# The kernel the benchmarks boot: BENCH_KERNEL (a release scripts/vm
# --kernel takes), default the primary kernel. rdmatop's benchmark needs
# BENCH_KERNEL=6.1 for now (its BPF object only loads there).
bench_kernel=${BENCH_KERNEL:-$KERNEL_DEFAULT}
kernel_version_ok "$bench_kernel" ||
	die "BENCH_KERNEL=$bench_kernel: not one of ${KERNEL_VERSIONS[*]}"

# bench_dma_map_benchmark DIR: build the dma_map_benchmark tool of
# $bench_kernel, static for the board, into DIR/usr/local/bin (a
# scripts/vm --overlay). Its source comes from the pristine tree (the
# series does not touch it; a patched kernel from the build cache has no
# source tree), its UAPI headers from the patched kernel.
bench_dma_map_benchmark() {
	local kd tree
	kd=$(kdir "$bench_kernel" patched)
	"$top/scripts/kernel-build" --kernel "$bench_kernel" --stock --source-only ||
		die "no Linux $bench_kernel source tree for dma_map_benchmark"
	tree=$(kdir "$bench_kernel" stock)/src
	mkdir -p "$1/usr/local/bin"
	aarch64-linux-gnu-gcc -static -O2 -I"$kd/usr/include" -I"$tree/include" \
		-o "$1/usr/local/bin/dma_map_benchmark" \
		"$tree/tools/testing/selftests/dma/dma_map_benchmark.c"
}

# awk functions for the benchmarks' tables, on space-separated lists of
# numbers: median(LIST), quantile(LIST, Q), median_rse(LIST). Use as:
# awk "$bench_awk_median"'...'.
bench_awk_median='
function median(list) {
	return quantile(list, 0.5)
}
# quantile(LIST, Q): the Q-quantile (0 to 1), interpolated between ranks.
function quantile(list, q,    n, i, j, t, a, pos, lo) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	pos = 1 + q * (n - 1); lo = int(pos)
	return lo >= n ? a[n] : a[lo] + (pos - lo) * (a[lo + 1] - a[lo])
}
# median_rse(LIST): the standard error of LIST'"'"'s median relative to it,
# from its interquartile range (about 1.25 sigma / sqrt(n), sigma from the
# IQR): how far another set of runs may put the median. -1 when LIST has
# under 4 numbers: too few for a spread.
function median_rse(list,    n, a, m) {
	n = split(list, a, " "); m = median(list)
	if (n < 4 || m == 0) return -1
	return 1.2533 * (quantile(list, 0.75) - quantile(list, 0.25)) / 1.349 / sqrt(n) / m
}'

# The benchmarks' instruction-counting clock: scripts/vm --icount
# $bench_icount_shift, 16 ns of guest time per instruction (fine enough
# for dma_map_benchmark's 0.1 us steps, coarse enough for short runs).
bench_icount_shift=4

# bench_insn_scale: guest instructions per microsecond of guest time on
# that clock (one instruction is 2^shift ns).
bench_insn_scale() {
	awk -v s="$bench_icount_shift" 'BEGIN { print 1000 / 2 ^ s }'
}
