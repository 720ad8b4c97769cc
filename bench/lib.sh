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
