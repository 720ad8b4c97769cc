#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Benchmark over the arm64, arm and riscv DTBs of KSRC (the 6.12 corpus):
# rdma-dtcheck in one run and file by file, against "dtc -I dtb -O dtb"
# file by file; and where a file-by-file run's time goes: the shell loop
# itself (a builtin), process creation and start-up (--version), and the
# lint. Last,
# the model's phandle index against fdt_node_offset_by_phandle().
# Environment: BIN OBJ KSRC TOOLDIR; RUNS (default 3).

set -eu
RUNS=${RUNS:-3}
if [ ! -d "$KSRC/arch/arm64/boot/dts" ]; then
	echo "bench: KSRC=$KSRC is not a kernel tree" >&2
	exit 2
fi
ver=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$KSRC/Makefile" | tr '\n' '.')
. "$TOOLDIR/tests/corpus-build.sh"
mkdir -p "$OBJ"
corpus_build "$KSRC" "$OBJ/bench-corpus.log" || { echo "bench: cannot compile the corpus of $KSRC" >&2; exit 2; }
CORPUS=$CORPUS_DIR
LIST=$OBJ/bench.list
find "$CORPUS" -name '*.dtb' | sort >"$LIST"
N=$(wc -l <"$LIST")
echo "bench: $N DTBs of Linux ${ver%.} (arm64, arm, riscv), $RUNS runs each, $(nproc)-core host"
echo "bench: $(file -b "$BIN" | cut -d, -f1-2 | sed 's/ELF //'), $(file -b "$BIN" | grep -o 'statically linked\|dynamically linked')"

# shellcheck disable=SC2034 # each is read through eval below
one_run="$BIN -q \$(cat $LIST) >/dev/null || true"
# shellcheck disable=SC2034
lint_each="while read f; do $BIN -q \"\$f\" >/dev/null || true; done <$LIST"
# shellcheck disable=SC2034
start_each="while read f; do $BIN --version >/dev/null; done <$LIST"
# shellcheck disable=SC2034
dtc_each="while read f; do dtc -I dtb -O dtb -o /dev/null \"\$f\" 2>/dev/null; done <$LIST"
# shellcheck disable=SC2034
true_each="while read f; do :; done <$LIST"

names="one_run lint_each start_each dtc_each true_each"
label() {
	case $1 in
	one_run) echo "rdma-dtcheck, one run over $N DTBs" ;;
	lint_each) echo "rdma-dtcheck, file by file" ;;
	start_each) echo "rdma-dtcheck --version, file by file (start-up)" ;;
	dtc_each) echo "dtc -I dtb -O dtb, file by file" ;;
	true_each) echo "the shell loop alone (builtin :)" ;;
	esac
}

# mean seconds of each command into $OBJ/bench.times ("name seconds")
: >"$OBJ/bench.times"
if command -v hyperfine >/dev/null 2>&1; then
	set --
	for n in $names; do
		eval "c=\$$n"
		set -- "$@" -n "$(label "$n")" "sh -c '$c'"
	done
	hyperfine -N --style basic --warmup 1 --runs "$RUNS" \
		--export-markdown "$OBJ/bench.md" --export-csv "$OBJ/bench.csv" \
		"$@" >"$OBJ/bench.log" 2>&1 || { cat "$OBJ/bench.log"; exit 1; }
	i=0
	for n in $names; do
		i=$((i + 1))
		echo "$n $(sed -n "$((i + 1))p" "$OBJ/bench.csv" | awk -F, '{ print $(NF-6) }')" >>"$OBJ/bench.times"
	done
	cat "$OBJ/bench.md"
else
	printf '| %-50s | %10s |\n|:---|---:|\n' Command 'Mean [s]'
	for n in $names; do
		eval "c=\$$n"
		t0=$(date +%s.%N)
		i=0
		while [ $i -lt "$RUNS" ]; do sh -c "$c"; i=$((i + 1)); done
		t1=$(date +%s.%N)
		t=$(echo "($t1 - $t0) / $RUNS" | bc -l)
		echo "$n $t" >>"$OBJ/bench.times"
		printf '| %-50s | %10.3f |\n' "$(label "$n")" "$t"
	done
fi

t() { awk -v n="$1" '$1 == n { print $2 }' "$OBJ/bench.times"; }
echo
awk -v one="$(t one_run)" -v each="$(t lint_each)" -v start="$(t start_each)" \
    -v dtc="$(t dtc_each)" -v loop="$(t true_each)" -v n="$N" 'BEGIN {
	printf "one run vs dtc file by file: %.1fx faster (target 20x)\n", dtc / one
	printf "file by file vs dtc file by file: %.1fx faster (target 4x)\n", dtc / each
	printf "per file, file by file: %.0f us = loop %.0f + fork, exec and start-up %.0f + lint %.0f (one run: %.0f us a file); dtc: %.0f us\n",
		each / n * 1e6, loop / n * 1e6, (start - loop) / n * 1e6, (each - start) / n * 1e6,
		one / n * 1e6, dtc / n * 1e6
}'
# The phandle index against libfdt's lookup, on the same DTBs.
# shellcheck disable=SC2046 # paths from find, no blanks
"$OBJ/bench-phandle" $(cat "$LIST")
