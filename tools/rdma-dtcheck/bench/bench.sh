#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark over the arm64 DTBs of KSRC: rdma-dtcheck in one run, and file
# by file, against "dtc -I dtb -O dtb -o /dev/null" file by file.
# Environment: BIN OBJ KSRC TOOLDIR; RUNS (default 3).

set -eu
RUNS=${RUNS:-3}
if [ ! -d "$KSRC/arch/arm64/boot/dts" ]; then
	echo "bench: KSRC=$KSRC is not a kernel tree" >&2
	exit 2
fi
ver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$KSRC/Makefile" | tr '\n' '.')
key=$(cd "$KSRC" && pwd -P | tr '/' '_')
CORPUS=$OBJ/corpus/${key}-${ver%.}
make -s -k -j2 -f "$TOOLDIR/tests/corpus.mk" KSRC="$KSRC" OUTDIR="$CORPUS" >/dev/null 2>&1 || true
LIST=$OBJ/bench.list
find "$CORPUS" -name '*.dtb' | sort >"$LIST"
N=$(wc -l <"$LIST")
echo "bench: $N DTBs from $KSRC ($RUNS runs each, 2-core host)"

one_run="$BIN -q \$(cat $LIST) >/dev/null || true"
lint_each="while read f; do $BIN -q \"\$f\" >/dev/null || true; done <$LIST"
dtc_each="while read f; do dtc -I dtb -O dtb -o /dev/null \"\$f\" 2>/dev/null; done <$LIST"

if command -v hyperfine >/dev/null 2>&1; then
	hyperfine -N --style basic --warmup 1 --runs "$RUNS" \
		--export-markdown "$OBJ/bench.md" \
		-n "rdma-dtcheck, one run over $N DTBs" "sh -c '$one_run'" \
		-n "rdma-dtcheck, file by file" "sh -c '$lint_each'" \
		-n "dtc -I dtb -O dtb, file by file" "sh -c '$dtc_each'" >"$OBJ/bench.log" 2>&1 ||
		{ cat "$OBJ/bench.log"; exit 1; }
	cat "$OBJ/bench.md"
else
	printf '| %-40s | %10s |\n' Command 'Mean [s]'
	for c in "$one_run" "$lint_each" "$dtc_each"; do
		t0=$(date +%s.%N)
		i=0
		while [ $i -lt "$RUNS" ]; do sh -c "$c"; i=$((i + 1)); done
		t1=$(date +%s.%N)
		printf '| %-40.40s | %10.3f |\n' "$c" "$(echo "($t1 - $t0) / $RUNS" | bc -l)"
	done
fi
