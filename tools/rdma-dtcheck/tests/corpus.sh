# SPDX-License-Identifier: GPL-2.0
# Corpora: every arm64, arm and riscv board of a kernel tree (6.12 and
# 6.1), compiled as the kernel does and linted with that kernel's
# semantics. The DTBs are cached for the whole host (corpus-build.sh), so
# a second run, from any checkout, only lints.
. "$TOOLDIR/tests/corpus-build.sh"

# corpus_compile VER KSRC ORIGIN: sets CORPUS_LIST_<VER> (empty if skipped)
corpus_compile() {
	ver=$1 ksrc=$2 origin=$3 v=$(echo "$1" | tr . _)
	eval "CORPUS_LIST_$v="
	if [ ! -d "$ksrc/arch/arm64/boot/dts" ]; then
		if [ "$origin" = file ] || [ "$origin" = undefined ]; then
			t_skip "corpus $ver: compile the arm64, arm and riscv .dts files" \
				"no kernel tree at $ksrc"
		else
			t_fail "corpus $ver: $ksrc is not a kernel tree"
		fi
		return 0
	fi
	if ! corpus_build "$ksrc" "$WORK/corpus-$ver-make.log"; then
		t_fail "corpus $ver: compile the arm64, arm and riscv .dts files into $CORPUS_CACHE"
		return 0
	fi
	dir=$CORPUS_DIR
	nsrc=0
	for a in arm64 arm riscv; do
		n=$(find "$ksrc/arch/$a/boot/dts" -name '*.dts' 2>/dev/null | wc -l)
		nsrc=$((nsrc + n))
	done
	list=$WORK/corpus-$ver.list
	# The DTBs of this tree's sources, in their order.
	for a in arm64 arm riscv; do
		(cd "$ksrc/arch/$a/boot/dts" 2>/dev/null && find . -name '*.dts') |
			sed "s|^\./\(.*\)\.dts\$|$dir/$a/\1.dtb|"
	done | sort | while read -r f; do [ -f "$f" ] && echo "$f"; done >"$list"
	ndtb=$(wc -l <"$list")
	# dtc 1.6.1 (Debian) rejects a few boards the kernel's own dtc takes.
	find "$dir" -name '*.dtb.log' -size +0 | while read -r l; do
		[ -f "${l%.log}" ] || { echo "${l#"$dir"/}:"; head -3 "$l"; }
	done >"$WORK/corpus-$ver-failed.log"
	[ "$ndtb" -gt 1000 ] && [ $((ndtb * 100)) -ge $((nsrc * 99)) ]
	t_check $? "corpus $ver: $ndtb of $nsrc arm64/arm/riscv .dts compiled as the kernel does" \
		"$WORK/corpus-$ver-failed.log"
	eval "CORPUS_LIST_$v=\$list"
}

# corpus_tests BIN TAG VER
corpus_tests() {
	bin=$1 tag=$2 ver=$3
	list=$(eval echo "\${CORPUS_LIST_$(echo "$ver" | tr . _):-}")
	[ -n "$list" ] || { t_skip "${tag}corpus $ver: lint" "no compiled corpus"; return 0; }
	# shellcheck disable=SC2046 # paths from find, no blanks
	run_tool "$bin" --kernel "$ver" $(cat "$list")
	out=$WORK/corpus-$ver.out
	cp "$RUN_OUT" "$out"
	n=$(wc -l <"$list")
	[ $RUN_RC -le 1 ] && [ ! -s "$RUN_ERR" ] && grep -q "^rdma-dtcheck: examined $n files" "$out"
	t_check $? "${tag}corpus $ver: one run over $n DTBs, no crash, no input error (exit $RUN_RC)" "$RUN_ERR"

	# Boards without a restricted pool must not get any finding.
	bad=""
	for f in $(grep -E '^[^ ]+\.dtb: (error|warning|info): ' "$out" | cut -d: -f1 | sort -u); do
		grep -q restricted-dma-pool "$f" || bad="$bad $(basename "$f")"
	done
	[ -z "$bad" ]
	t_check $? "${tag}corpus $ver: no finding on boards without a restricted pool${bad:+ (got:$bad)}"

	# mt8192-asurada: the wifi pool behind the PCIe host bridge.
	# shellcheck disable=SC2046 # paths from find, no blanks
	set -- $(grep 'mt8192-asurada' "$list")
	if [ $# -eq 0 ]; then
		t_fail "${tag}corpus $ver: mt8192-asurada DTBs present"
		return 0
	fi
	run_tool "$bin" --kernel "$ver" "$@"
	grep -q "examined $# files, $# restricted pools" "$RUN_OUT" &&
	grep -q 'pcie@11230000: host bridge: PCI functions without their own memory-region get restricted pool /reserved-memory/wifi@c0000000 \[pci-pool-lookup\]$' "$RUN_OUT" &&
	grep -q 'wifi@0,0: function 01:00.0 gets restricted pool /reserved-memory/wifi@c0000000 (from host bridge)' "$RUN_OUT" &&
	grep -q 'wifi@c0000000:reg: pool 0xc0000000-0xc3ffffff is not inside any /memory range.*\[pool-outside-memory\]$' "$RUN_OUT"
	t_check $? "${tag}corpus $ver: mt8192-asurada's wifi pool found, traced to its PCI functions, placed against /memory" "$RUN_OUT"
	# The bootloader rewrites /memory: with the RAM it passes, clean.
	run_tool "$bin" --kernel "$ver" -q -Werror --memory 0x40000000:4G "$@"
	[ $RUN_RC -eq 0 ] && [ ! -s "$RUN_OUT" ]
	t_check $? "${tag}corpus $ver: mt8192-asurada with --memory 0x40000000:4G lints clean" "$RUN_OUT"
}

# corpus_cache_tests: the shared corpus cache on a tree of two boards: a
# second build takes the cached DTBs, a changed .dtsi gives new ones, an
# interrupted build is redone, and the oldest entries go.
corpus_cache_tests() {
	t=$WORK/cache-tree
	mkdir -p "$t/arch/arm64/boot/dts/acme" "$t/include/dt-bindings" \
		"$t/scripts/dtc/include-prefixes"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\n' >"$t/Makefile"
	ln -s ../../../include/dt-bindings "$t/scripts/dtc/include-prefixes/dt-bindings"
	echo '#define ACME_SIZE 0x400000' >"$t/include/dt-bindings/acme.h"
	printf '#include <dt-bindings/acme.h>\n/ { model = "acme"; size = <ACME_SIZE>; };\n' \
		>"$t/arch/arm64/boot/dts/acme/acme.dtsi"
	for b in anvil rocket; do
		printf '/dts-v1/;\n#include "acme.dtsi"\n/ { compatible = "acme,%s"; };\n' "$b" \
			>"$t/arch/arm64/boot/dts/acme/$b.dts"
	done
	saved="$CORPUS_CACHE $CORPUS_KEEP"
	CORPUS_CACHE=$WORK/corpus-cache CORPUS_KEEP=2
	log=$WORK/cache.log
	corpus_build "$t" "$log" && first=$CORPUS_DIR &&
		[ "$(fdtget "$first/arm64/acme/rocket.dtb" / size)" = 4194304 ] &&
		! grep -q '^cached' "$log"
	t_check $? "corpus cache: a tree is compiled once into $CORPUS_CACHE" "$log"
	before=$(stat -c %Y.%i "$first/arm64/acme/anvil.dtb")
	corpus_build "$t" "$log" && [ "$CORPUS_DIR" = "$first" ] && grep -q '^cached' "$log" &&
		[ "$(stat -c %Y.%i "$first/arm64/acme/anvil.dtb")" = "$before" ]
	t_check $? "corpus cache: the same tree again takes its DTBs from the cache" "$log"
	echo '#define ACME_SIZE 0x800000' >"$t/include/dt-bindings/acme.h"
	corpus_build "$t" "$log" && second=$CORPUS_DIR && [ "$second" != "$first" ] &&
		[ "$(fdtget "$second/arm64/acme/anvil.dtb" / size)" = 8388608 ]
	t_check $? "corpus cache: a changed header gives a new entry with new DTBs" "$log"
	rm "$second/.complete" "$second/arm64/acme/anvil.dtb"
	corpus_build "$t" "$log" && [ -f "$second/arm64/acme/anvil.dtb" ] && ! grep -q '^cached' "$log"
	t_check $? "corpus cache: an entry whose build did not finish is built again" "$log"
	echo '#define ACME_SIZE 0x1000000' >"$t/include/dt-bindings/acme.h"
	corpus_build "$t" "$log" && [ ! -d "$first" ] && [ -d "$second" ] && [ -d "$CORPUS_DIR" ]
	t_check $? "corpus cache: only the newest CORPUS_KEEP entries are kept" "$log"
	CORPUS_CACHE=${saved% *} CORPUS_KEEP=${saved##* }
}

