# SPDX-License-Identifier: GPL-2.0
# Command-line behaviour: exit status, options, formats, binary and stdin
# input, overlays, corrupt input.

cli_tests() {
	bin=$1 tag=$2 w=$WORK/cli
	fx=$TOOLDIR/tests/fixtures
	mkdir -p "$w"

	run_tool "$bin" --help
	[ $RUN_RC -eq 0 ] && grep -q -- '--list-checks' "$RUN_OUT"
	t_check $? "$tag--help exits 0 and lists options"
	run_tool "$bin" --version
	[ $RUN_RC -eq 0 ] && grep -qE '^rdma-dtcheck [0-9]' "$RUN_OUT"
	t_check $? "$tag--version"
	run_tool "$bin" --list-checks
	[ $RUN_RC -eq 0 ] && [ "$(wc -l <"$RUN_OUT")" -ge 20 ]
	t_check $? "$tag--list-checks lists the checks"
	run_tool "$bin" -W no-such-check "$fx/pool-too-small/twin.dts"
	[ $RUN_RC -eq 2 ]
	t_check $? "${tag}unknown check name is a usage error (exit 2)"
	run_tool "$bin"
	[ $RUN_RC -eq 2 ]
	t_check $? "${tag}no input is a usage error (exit 2)"
	run_tool "$bin" "$w/does-not-exist.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'No such file' "$RUN_ERR"
	t_check $? "${tag}missing file is an input error (exit 2)" "$RUN_ERR"

	# A DTB from a fixture, then damaged copies of it.
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$fx" \
		"$fx/pool-rejected-prop/trigger.dts" 2>/dev/null |
		dtc -q -I dts -O dtb -o "$w/rejected.dtb" - 2>/dev/null
	run_tool "$bin" "$w/rejected.dtb"
	[ $RUN_RC -eq 1 ] && grep -qE "^$w/rejected\.dtb: error: /reserved-memory/restricted@50000000:no-map: .*\[pool-rejected-prop\]$" "$RUN_OUT"
	t_check $? "${tag}.dtb input: finding names the file without a line, exit 1" "$RUN_OUT"
	run_tool sh -c "\"$bin\" - < \"$w/rejected.dtb\""
	[ $RUN_RC -eq 1 ] && grep -q '^<stdin>: error: .*\[pool-rejected-prop\]$' "$RUN_OUT"
	t_check $? "${tag}DTB on standard input" "$RUN_OUT"
	# Files are read into a buffer of their size, pipes into one that
	# grows: a padded blob over 64 KiB takes both ways, an empty file one.
	dtc -q -I dtb -O dtb -p 200000 -o "$w/padded.dtb" "$w/rejected.dtb"
	run_tool sh -c "cat \"$w/padded.dtb\" | \"$bin\" -"
	[ $RUN_RC -eq 1 ] && [ "$(stat -c %s "$w/padded.dtb")" -gt 200000 ] &&
		grep -q '^<stdin>: error: .*\[pool-rejected-prop\]$' "$RUN_OUT"
	t_check $? "${tag}a 200 KB DTB through a pipe" "$RUN_OUT"
	run_tool "$bin" "$w/padded.dtb"
	[ $RUN_RC -eq 1 ] && grep -q 'padded.dtb: error: .*\[pool-rejected-prop\]$' "$RUN_OUT"
	t_check $? "${tag}a 200 KB DTB from a file" "$RUN_OUT"
	: >"$w/empty.dtb"
	run_tool "$bin" "$w/empty.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'empty.dtb: dtc failed' "$RUN_ERR"
	t_check $? "${tag}an empty file: clear error, exit 2" "$RUN_ERR"
	run_tool sh -c "cd \"$fx/pool-rejected-prop\" && \"$bin\" -I .. - < trigger.dts"
	[ $RUN_RC -eq 1 ] && grep -q '^<stdin>:7:3: error: .*\[pool-rejected-prop\]$' "$RUN_OUT"
	t_check $? "${tag}DTS on standard input keeps line numbers" "$RUN_OUT"
	head -c 100 "$w/rejected.dtb" >"$w/truncated.dtb"
	run_tool "$bin" "$w/truncated.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'truncated device tree blob' "$RUN_ERR"
	t_check $? "${tag}truncated DTB: clear error, exit 2" "$RUN_ERR"
	python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[0x40:0x48]=b'\xff'*8; open(sys.argv[2],'wb').write(b)" \
		"$w/rejected.dtb" "$w/corrupt.dtb"
	run_tool "$bin" "$w/corrupt.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'corrupt device tree blob' "$RUN_ERR"
	t_check $? "${tag}corrupt DTB: clear error, exit 2" "$RUN_ERR"
	run_tool "$bin" "$w/corrupt.dtb" "$w/rejected.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'pool-rejected-prop' "$RUN_OUT"
	t_check $? "${tag}input errors (2) are kept apart from findings, other files still checked"
	# Blobs that make libfdt 1.6.1 spin (fdt_check_full, fdtdump) or
	# crash: each is rejected at once with the tag that is wrong.
	run_tool timeout 5 "$bin" "$TOOLDIR/fuzz/regress/prop-len-stall.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'tag at offset 0x40: property length 0xfffffff4 runs past the end' "$RUN_ERR"
	t_check $? "${tag}a property length that stalls libfdt's tag walk: clear error, exit 2 (got $RUN_RC)" "$RUN_ERR"
	run_tool timeout 5 "$bin" "$TOOLDIR/fuzz/regress/prop-len-loop.dtb"
	[ $RUN_RC -eq 2 ] && grep -q 'tag at offset 0x50: property length 0xffffffe4' "$RUN_ERR"
	t_check $? "${tag}a property length that loops libfdt's tag walk: clear error, exit 2 (got $RUN_RC)" "$RUN_ERR"
	slow=""
	for f in "$TOOLDIR"/fuzz/regress/*; do
		run_tool timeout 5 "$bin" "$f" "$w/rejected.dtb"
		{ [ $RUN_RC -le 2 ] && grep -q 'pool-rejected-prop' "$RUN_OUT"; } ||
			slow="$slow $(basename "$f")($RUN_RC)"
	done
	[ -z "$slow" ]
	t_check $? "${tag}every fuzz regression seed ends within 5 s and the next file is still linted${slow:+ (not:$slow)}"
	printf '/dts-v1/;\n/ { x = <1 ; };\n' >"$w/syntax.dts"
	run_tool "$bin" "$w/syntax.dts"
	[ $RUN_RC -eq 2 ] && grep -q 'dtc failed' "$RUN_ERR"
	t_check $? "${tag}DTS syntax error: dtc's message, exit 2" "$RUN_ERR"

	# Severity controls.
	run_tool "$bin" -k 6.1 "$fx/pool-size-segment/trigger.dts"
	[ $RUN_RC -eq 0 ]
	t_check $? "${tag}warnings alone exit 0"
	run_tool "$bin" -k 6.1 -Werror "$fx/pool-size-segment/trigger.dts"
	[ $RUN_RC -eq 1 ]
	t_check $? "${tag}-Werror: warnings exit 1"
	run_tool "$bin" -W no-pool-rejected-prop "$w/rejected.dtb"
	[ $RUN_RC -eq 0 ] && ! grep -q 'pool-rejected-prop\]' "$RUN_OUT"
	t_check $? "${tag}-W no-NAME disables a check"
	run_tool "$bin" --kernel=6.1 -E pool-size-segment "$fx/pool-size-segment/trigger.dts"
	[ $RUN_RC -eq 1 ] && grep -q ': error: .*\[pool-size-segment\]$' "$RUN_OUT"
	t_check $? "${tag}-E NAME promotes a check to error"
	run_tool "$bin" -W pool-shared "$fx/pool-shared/trigger.dts"
	grep -q ': warning: .*\[pool-shared\]$' "$RUN_OUT"
	t_check $? "${tag}-W NAME raises an info check to warning"
	run_tool "$bin" -q "$fx/pool-shared/trigger.dts"
	[ $RUN_RC -eq 0 ] && [ ! -s "$RUN_OUT" ]
	t_check $? "${tag}-q hides info findings and the summary"
	run_tool "$bin" "$fx/pool-shared/twin.dts"
	grep -q '^rdma-dtcheck: examined 1 file, 2 restricted pools, 4 consumers: 0 errors, 1 warning, 0 info$' "$RUN_OUT"
	t_check $? "${tag}a clean run says what it examined" "$RUN_OUT"

	# Machine-readable formats.
	run_tool "$bin" --format=json "$fx/pool-overlap/trigger.dts" "$w/rejected.dtb"
	[ $RUN_RC -eq 1 ] && python3 "$TOOLDIR/tests/validate.py" json "$RUN_OUT" >"$w/v.log" 2>&1
	t_check $? "${tag}--format=json is valid and complete" "$w/v.log"
	run_tool "$bin" --format=sarif "$fx/pool-overlap/trigger.dts" "$w/rejected.dtb"
	[ $RUN_RC -eq 1 ] && python3 "$TOOLDIR/tests/validate.py" sarif "$RUN_OUT" >"$w/v.log" 2>&1
	t_check $? "${tag}--format=sarif is SARIF 2.1.0 as code scanning expects" "$w/v.log"

	# Overlays: pools and consumers at their fragment targets.
	run_in "$TOOLDIR/tests/overlays" "$bin" clean.dtso
	[ $RUN_RC -eq 0 ] && grep -q 'examined 1 file, 2 restricted pools, 2 consumers: 0 errors, 0 warnings' "$RUN_OUT"
	t_check $? "${tag}overlay: pools and consumers found, clean" "$RUN_OUT"
	run_in "$TOOLDIR/tests/overlays" "$bin" rejected.dtso
	l=$(grep -n '// EXPECT' "$TOOLDIR/tests/overlays/rejected.dtso" | cut -d: -f1)
	[ $RUN_RC -eq 1 ] && grep -q "^rejected.dtso:$l:[0-9]*: error: /reserved-memory/restricted-dma@60400000:no-map: .*\[pool-rejected-prop\]$" "$RUN_OUT"
	t_check $? "${tag}overlay: finding at the overlay's line $l with the target path" "$RUN_OUT"
	run_in "$TOOLDIR/tests/overlays" "$bin" label.dtso
	l=$(grep -n '// EXPECT' "$TOOLDIR/tests/overlays/label.dtso" | cut -d: -f1)
	[ $RUN_RC -eq 1 ] && grep -q "^label.dtso:$l:[0-9]*: error: &reserved_memory/restricted-dma@60000000:no-map: .*\[pool-rejected-prop\]$" "$RUN_OUT" &&
		! grep -q 'pool-location\]$' "$RUN_OUT"
	t_check $? "${tag}overlay aimed at &reserved_memory: no false pool-location, no-map found at line $l" "$RUN_OUT"
	run_in "$TOOLDIR/tests/overlays" "$bin" path-ref.dtso
	[ $RUN_RC -eq 0 ] && grep -q 'examined 1 file, 1 restricted pool, 1 consumer: 0 errors, 0 warnings' "$RUN_OUT"
	t_check $? "${tag}overlay aimed at &{/reserved-memory}: base-tree cells and ranges not reported missing" "$RUN_OUT"

	# Findings in an included file name the board and the include chain.
	inc=$TOOLDIR/tests/include
	l=$(grep -n '// EXPECT' "$inc/common.dtsi" | cut -d: -f1)
	run_in "$inc" "$bin" board-a.dts board-b.dts
	grep -A1 -x 'In file included from board-a.dts:3:' "$RUN_OUT" | grep -q "^common.dtsi:$l:[0-9]*: error: .*\[pool-rejected-prop\]$" &&
		grep -A1 -x 'In file included from board-b.dts:3:' "$RUN_OUT" | grep -q "^common.dtsi:$l:"
	t_check $? "${tag}a finding in an included file says which board included it, as gcc does" "$RUN_OUT"
	run_in "$inc" "$bin" -f json board-a.dts board-b.dts
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=[x for x in d["findings"] if x["check"]=="pool-rejected-prop"]; assert [x["input"] for x in f]==["board-a.dts","board-b.dts"], f; assert f[0]["included_from"]==[{"file":"board-a.dts","line":3}], f' "$RUN_OUT" >"$w/v.log" 2>&1
	t_check $? "${tag}JSON: each finding carries the top-level input and its include chain" "$w/v.log"
	run_in "$inc" "$bin" -f sarif board-b.dts
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; r=[x for x in r if x["ruleId"]=="pool-rejected-prop"][0]; assert r["properties"]["input"]=="board-b.dts"; assert r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"]=="board-b.dts"' "$RUN_OUT" >"$w/v.log" 2>&1
	t_check $? "${tag}SARIF: each result carries the top-level input and the include site" "$w/v.log"

	# --base: overlays merged with fdt_overlay_apply(), findings at the
	# overlay's lines, base-only checks (RAM) now possible.
	ov=$TOOLDIR/tests/overlays
	dtc -q -@ -I dts -O dtb -o "$w/base.dtb" "$ov/base.dts"
	l=$(grep -n '// EXPECT' "$ov/label.dtso" | cut -d: -f1)
	run_in "$ov" "$bin" --base "$w/base.dtb" label.dtso
	[ $RUN_RC -eq 1 ] && grep -q "^label.dtso:$l:[0-9]*: error: /reserved-memory/restricted-dma@60000000:no-map: .*\[pool-rejected-prop\]$" "$RUN_OUT"
	t_check $? "${tag}--base: the merged tree's finding at the overlay's line $l, with the real path" "$RUN_OUT"
	l=$(grep -n '// EXPECT' "$ov/beyond-ram.dtso" | cut -d: -f1)
	run_in "$ov" "$bin" beyond-ram.dtso
	rc_alone=$RUN_RC
	run_in "$ov" "$bin" --base "$w/base.dtb" beyond-ram.dtso
	[ "$rc_alone" -eq 0 ] && [ $RUN_RC -eq 1 ] &&
		grep -q "^beyond-ram.dtso:$l:[0-9]*: error: .*restricted-dma@90000000:reg: pool 0x90000000-0x903fffff is not inside any /memory range.*\[pool-outside-memory\]$" "$RUN_OUT"
	t_check $? "${tag}--base: a pool past the base's RAM is found only on the merged tree (alone: exit $rc_alone)" "$RUN_OUT"
	run_in "$ov" "$bin" --base "$w/base.dtb" clean.dtso label.dtso
	[ $RUN_RC -eq 2 ] && grep -q 'clean.dtso: cannot apply to .*base.dtb: FDT_ERR_NOTFOUND' "$RUN_ERR" &&
		grep -q 'pool-rejected-prop' "$RUN_OUT"
	t_check $? "${tag}--base: an overlay that does not apply is an input error; the others are linted" "$RUN_ERR"

	# Phandles as dtc -H legacy writes them ("linux,phandle" only).
	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I "$fx" \
		"$fx/pool-rejected-prop/trigger.dts" 2>/dev/null |
		dtc -q -H legacy -I dts -O dtb -o "$w/legacy.dtb" - 2>/dev/null
	run_tool "$bin" "$w/legacy.dtb"
	[ $RUN_RC -eq 1 ] && fdtget -p "$w/legacy.dtb" /reserved-memory/restricted@50000000 | grep -qx 'linux,phandle' &&
		grep -q 'pool-rejected-prop\]$' "$RUN_OUT" && ! grep -q 'memory-region-unresolved' "$RUN_OUT" &&
		grep -q 'examined 1 file, 1 restricted pool, 1 consumer: 1 error, 0 warnings' "$RUN_OUT"
	t_check $? "${tag}linux,phandle (dtc -H legacy) resolves: no false memory-region-unresolved" "$RUN_OUT"

	# --page-size: a 16 KiB-aligned pool is fine with 4K and 16K pages, not 64K.
	printf '/dts-v1/;\n#include "base.dtsi"\n&resmem { p: restricted@50004000 { compatible = "restricted-dma-pool"; reg = <0 0x50004000 0 0x400000>; }; };\n&soc { d@1000 { compatible = "t,d"; reg = <0 0x1000 0 0x100>; memory-region = <&p>; }; };\n' >"$w/page.dts"
	run_tool "$bin" -I "$fx" --page-size 16K "$w/page.dts"
	r16=$RUN_RC
	grep -q 'pool-alignment' "$RUN_OUT" && r16=9
	run_tool "$bin" -I "$fx" --page-size=64K "$w/page.dts"
	[ "$r16" -eq 0 ] && grep -q 'base 0x50004000 is not page-aligned (64 KiB pages).*\[pool-alignment\]$' "$RUN_OUT"
	t_check $? "${tag}--page-size: 64K pages find a base that 16K pages accept" "$RUN_OUT"
	run_tool "$bin" --page-size 8K --kernel 5.10 "$w/page.dts"
	[ $RUN_RC -eq 2 ] && grep -q "is not 4K, 16K or 64K" "$RUN_ERR"
	t_check $? "${tag}bad --page-size or --kernel: usage error" "$RUN_ERR"

	# --arch overrides the guess from the CPU nodes (here a Cortex-A15).
	run_in "$fx/pool-highmem" "$bin" trigger.dts
	r_guess=$RUN_RC
	grep -q 'pool-highmem\]$' "$RUN_OUT" || r_guess=9
	run_in "$fx/pool-highmem" "$bin" --arch arm64 trigger.dts
	[ "$r_guess" -eq 1 ] && ! grep -q 'pool-highmem' "$RUN_OUT"
	t_check $? "${tag}--arch arm64 turns off the 32-bit ARM highmem rule the CPU nodes select" "$RUN_OUT"
	run_tool "$bin" --arch x86 "$fx/pool-highmem/twin.dts"
	[ $RUN_RC -eq 2 ] && grep -q "is not arm64, arm or riscv" "$RUN_ERR"
	t_check $? "${tag}bad --arch: usage error" "$RUN_ERR"

	# --usage: bad records are input errors with file, line and column.
	uf=$fx/pool-usage-failed
	printf '{"pools":[]}\n\n{"pools":[{"name":"x",]}\n' >"$w/bad.json"
	run_tool "$bin" --usage "$w/bad.json" "$uf/twin.dts"
	[ $RUN_RC -eq 2 ] && grep -q 'usage: .*bad.json:3: column 23: expected a string' "$RUN_ERR"
	t_check $? "${tag}--usage: malformed JSON names file, line and column (exit 2)" "$RUN_ERR"
	printf '{"time":1}\n' >"$w/norec.json"
	: >"$w/empty.json"
	run_tool "$bin" --usage "$w/norec.json" "$uf/twin.dts"
	r1=$RUN_RC
	grep -q 'norec.json:1: not an rdmatop --json record' "$RUN_ERR" || r1=9
	run_tool "$bin" --usage "$w/empty.json" "$uf/twin.dts"
	[ "$r1" -eq 2 ] && [ $RUN_RC -eq 2 ] && grep -q 'empty.json: no rdmatop records' "$RUN_ERR"
	t_check $? "${tag}--usage: a file without rdmatop records is an input error" "$RUN_ERR"
	# 100000 nested arrays: refused at depth 32, no deep recursion.
	awk 'BEGIN { s = "{\"pools\":"; for (i = 0; i < 100000; i++) s = s "["; print s }' >"$w/deep.json"
	run_tool "$bin" --usage "$w/deep.json" "$uf/twin.dts"
	[ $RUN_RC -eq 2 ] && grep -q 'nested deeper than 32' "$RUN_ERR"
	t_check $? "${tag}--usage: deeply nested JSON is refused, not a crash" "$RUN_ERR"
	# Two rdmatop runs in one file: the failure counter restarts at 1.
	sed -n 2p "$uf/usage.json" >"$w/runs.json"
	sed -n 2p "$uf/usage.json" | sed 's/"map_failures_total":5/"map_failures_total":1/' >>"$w/runs.json"
	run_in "$uf" "$bin" --usage "$w/runs.json" trigger.dts
	grep -q 'nvme:size: on the device 6 mappings .*validated: the tree with it lints without new findings \[pool-usage-failed\]$' "$RUN_OUT"
	t_check $? "${tag}--usage: counters of concatenated rdmatop runs add up" "$RUN_OUT"
	# A pool in the records that no tree linted has is named on stderr;
	# wifi@50000000 is found by its base under another name.
	run_in "$uf" "$bin" --usage usage.json "$fx/pool-usage-headroom/trigger.dts"
	[ $RUN_RC -eq 1 ] && grep -q 'usage: usage.json: pool nvme is in no tree linted' "$RUN_ERR" &&
		! grep -q 'wifi@50000000 is in no tree' "$RUN_ERR" &&
		grep -q 'restricted@50000000:reg: on the device 3 mappings' "$RUN_OUT"
	t_check $? "${tag}--usage: pools of the records that no tree has are named" "$RUN_ERR"
	run_in "$uf" "$bin" --usage usage.json trigger.dts
	[ ! -s "$RUN_ERR" ]
	t_check $? "${tag}--usage: no such note when every pool is found" "$RUN_ERR"
	# The suggestion is linted: growing the wifi pool in place would overlap.
	run_in "$uf" "$bin" -f json --usage usage.json trigger.dts
	grep -q 'suggested size 2 MiB (0x200000), but with it /reserved-memory/wifi@50000000:reg gets: pool overlaps reserved region /reserved-memory/fw@50100000' "$RUN_OUT"
	t_check $? "${tag}--usage: a suggestion the tree cannot take is shown with the finding it brings" "$RUN_OUT"
}
