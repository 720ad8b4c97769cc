# SPDX-License-Identifier: GPL-2.0
# libFuzzer on the DTB path, seeded with fixture and corpus DTBs and the
# regression seeds in fuzz/regress, and on the --usage reader, seeded with
# the fixtures' rdmatop records. Any input that takes over 5 s is a
# failure at once (libFuzzer's default per-input timeout is 1200 s).

# fuzz_run BIN NAME SECONDS MAX_LEN MIN_SEEDS SEEDS OUT DESC: one bounded
# libFuzzer run from SEEDS (at least MIN_SEEDS of them), logged to
# $WORK/NAME.log, a crash kept as $WORK/NAME-crash-*.
fuzz_run() {
	fbin=$1 name=$2 secs=$3 maxlen=$4 minseeds=$5 fseeds=$6 fout=$7 desc=$8
	n=$(ls "$fseeds" | wc -l)
	"$fbin" -max_total_time="$secs" -timeout=5 -seed=1 -max_len="$maxlen" \
		-rss_limit_mb=2048 -artifact_prefix="$WORK/$name-crash-" \
		"$fout" "$fseeds" >"$WORK/$name.log" 2>&1
	rc=$?
	execs=$(grep -oE 'Done [0-9]+ runs' "$WORK/$name.log" | grep -oE '[0-9]+')
	[ $rc -eq 0 ] && [ "$n" -ge "$minseeds" ] && [ -n "$execs" ]
	t_check $? "fuzz: ${secs}s $desc from $n seeds, ${execs:-0} inputs, no crash" \
		"$WORK/$name.log"
}

fuzz_tests() {
	seeds=$WORK/fuzz-seeds out=$WORK/fuzz-new
	rm -rf "$seeds" "$out"
	mkdir -p "$seeds" "$out"
	for d in "$TOOLDIR"/tests/fixtures/*/; do
		for v in trigger twin; do
			cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp \
				-I "$TOOLDIR/tests/fixtures" "$d/$v.dts" 2>/dev/null |
				dtc -q -I dts -O dtb -o "$seeds/$(basename "$d")-$v.dtb" - 2>/dev/null
		done
	done
	for o in "$TOOLDIR"/tests/overlays/*.dtso; do
		dtc -q -I dts -O dtb -o "$seeds/$(basename "$o" .dtso).dtbo" "$o" 2>/dev/null
	done
	for l in "$WORK"/corpus-*.list; do
		[ -s "$l" ] && grep -E 'mt8192-asurada|qcom/sc7280|freescale/imx8mm-venice' \
			"$l" | head -8 | xargs -r cp --backup=numbered -t "$seeds"
	done
	cp "$TOOLDIR"/fuzz/regress/* "$seeds"/
	fuzz_run "$FUZZ_BIN" fuzz "${FUZZ_SECONDS:-20}" 262144 40 "$seeds" "$out" \
		"libFuzzer run (ASan+UBSan)"

	useeds=$WORK/fuzz-usage-seeds uout=$WORK/fuzz-usage-new
	rm -rf "$useeds" "$uout"
	mkdir -p "$useeds" "$uout"
	for j in "$TOOLDIR"/tests/fixtures/*/*.json; do
		cp "$j" "$useeds/$(basename "$(dirname "$j")")-$(basename "$j")"
	done
	fuzz_run "$FUZZ_USAGE_BIN" fuzz-usage "${FUZZ_USAGE_SECONDS:-10}" 65536 4 \
		"$useeds" "$uout" "libFuzzer run on --usage records"
}
