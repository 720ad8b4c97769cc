# SPDX-License-Identifier: GPL-2.0
# Corpus: every arm64 board of the kernel tree, compiled and linted.

corpus_compile() {
	CORPUS=""
	if [ ! -d "$KSRC/arch/arm64/boot/dts" ]; then
		if [ "$KSRC_ORIGIN" = file ]; then
			t_skip "corpus: compile the arm64 .dts files" \
				"KSRC not given and default $KSRC does not exist"
		else
			t_fail "corpus: KSRC=$KSRC is not a kernel tree"
		fi
		return 0
	fi
	ver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$KSRC/Makefile" | tr '\n' '.')
	key=$(cd "$KSRC" && pwd -P | tr '/' '_')
	CORPUS=$OBJ/corpus/${key}-${ver%.}
	nsrc=$(find "$KSRC/arch/arm64/boot/dts" -name '*.dts' | wc -l)
	make -s -k -j"${JOBS:-2}" -f "$TOOLDIR/tests/corpus.mk" KSRC="$KSRC" \
		OUTDIR="$CORPUS" >"$WORK/corpus-make.log" 2>&1
	find "$CORPUS" -name '*.dtb' | sort >"$WORK/corpus.list"
	ndtb=$(wc -l <"$WORK/corpus.list")
	[ "$ndtb" -eq "$nsrc" ] && [ "$ndtb" -gt 700 ]
	t_check $? "corpus: $ndtb of $nsrc arm64 .dts compiled as the kernel does" "$WORK/corpus-make.log"
}

corpus_tests() {
	bin=$1 tag=$2
	[ -n "$CORPUS" ] || { t_skip "${tag}corpus: lint" "no compiled corpus"; return 0; }
	# shellcheck disable=SC2046 # paths from find, no blanks
	run_tool "$bin" $(cat "$WORK/corpus.list")
	cp "$RUN_OUT" "$WORK/corpus.out"
	cp "$RUN_ERR" "$WORK/corpus.err"
	n=$(wc -l <"$WORK/corpus.list")
	[ $RUN_RC -le 1 ] && grep -q "^rdma-dtcheck: examined $n files" "$RUN_OUT"
	t_check $? "${tag}corpus: one run over $n DTBs, no crash, every file examined (exit $RUN_RC)" "$RUN_ERR"

	# Boards without a restricted pool must not get an error-level finding.
	bad=""
	for f in $(grep -E '^[^ ]+\.dtb: error: ' "$WORK/corpus.out" | cut -d: -f1 | sort -u); do
		grep -q restricted-dma-pool "$f" || bad="$bad $(basename "$f")"
	done
	[ -z "$bad" ]
	t_check $? "${tag}corpus: no error-level finding on boards without a restricted pool${bad:+ (got:$bad)}"

	# mt8192-asurada: the wifi pool behind the PCIe host bridge.
	set -- $(grep 'mt8192-asurada' "$WORK/corpus.list")
	if [ $# -eq 0 ]; then
		t_fail "${tag}corpus: mt8192-asurada DTBs present"
		return 0
	fi
	run_tool "$bin" "$@"
	grep -q "examined $# files, $# restricted pools" "$RUN_OUT" &&
	grep -q 'pcie@11230000: host bridge: PCI functions without their own memory-region get restricted pool /reserved-memory/wifi@c0000000 \[pci-pool-lookup\]$' "$RUN_OUT" &&
	grep -q 'wifi@0,0: function 01:00.0 gets restricted pool /reserved-memory/wifi@c0000000 (from host bridge)' "$RUN_OUT" &&
	grep -q 'wifi@c0000000:reg: pool 0xc0000000-0xc3ffffff is not inside any /memory range.*\[pool-outside-memory\]$' "$RUN_OUT"
	t_check $? "${tag}corpus: mt8192-asurada's wifi pool found, traced to its PCI functions, placed against /memory" "$RUN_OUT"
}
