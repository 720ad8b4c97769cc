# SPDX-License-Identifier: GPL-2.0
# libFuzzer on the DTB path, seeded with fixture and corpus DTBs and the
# regression seeds in fuzz/regress, and on the --usage reader, seeded with
# the fixtures' rdmatop records. Any input that takes over 5 s is a
# failure at once (libFuzzer's default per-input timeout is 1200 s).

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
	n=$(ls "$seeds" | wc -l)
	secs=${FUZZ_SECONDS:-20}
	"$FUZZ_BIN" -max_total_time="$secs" -timeout=5 -seed=1 -max_len=262144 \
		-rss_limit_mb=2048 -artifact_prefix="$WORK/fuzz-crash-" \
		"$out" "$seeds" >"$WORK/fuzz.log" 2>&1
	rc=$?
	execs=$(grep -oE 'Done [0-9]+ runs' "$WORK/fuzz.log" | grep -oE '[0-9]+')
	[ $rc -eq 0 ] && [ "$n" -ge 40 ] && [ -n "$execs" ]
	t_check $? "fuzz: ${secs}s libFuzzer run (ASan+UBSan) from $n seeds, ${execs:-0} inputs, no crash" "$WORK/fuzz.log"

	useeds=$WORK/fuzz-usage-seeds uout=$WORK/fuzz-usage-new
	rm -rf "$useeds" "$uout"
	mkdir -p "$useeds" "$uout"
	for j in "$TOOLDIR"/tests/fixtures/*/*.json; do
		cp "$j" "$useeds/$(basename "$(dirname "$j")")-$(basename "$j")"
	done
	n=$(ls "$useeds" | wc -l)
	secs=${FUZZ_USAGE_SECONDS:-10}
	"$FUZZ_USAGE_BIN" -max_total_time="$secs" -timeout=5 -seed=1 -max_len=65536 \
		-rss_limit_mb=2048 -artifact_prefix="$WORK/fuzz-usage-crash-" \
		"$uout" "$useeds" >"$WORK/fuzz-usage.log" 2>&1
	rc=$?
	execs=$(grep -oE 'Done [0-9]+ runs' "$WORK/fuzz-usage.log" | grep -oE '[0-9]+')
	[ $rc -eq 0 ] && [ "$n" -ge 4 ] && [ -n "$execs" ]
	t_check $? "fuzz: ${secs}s libFuzzer run on --usage records from $n seeds, ${execs:-0} inputs, no crash" "$WORK/fuzz-usage.log"
}
