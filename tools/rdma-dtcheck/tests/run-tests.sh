#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdma-dtcheck test suite; prints TAP, exits non-zero on any failure.
# Environment (set by the Makefile): BIN ASAN_BIN FUZZ_BIN FUZZ_USAGE_BIN OBJ KSRC_6_12
# KSRC_6_12_ORIGIN KSRC_6_1 KSRC_6_1_ORIGIN BOARD_DTB BOARD_DIR TOOLDIR CORPUS_CACHE.

set -u
. "$TOOLDIR/tests/lib.sh"
. "$TOOLDIR/tests/fixtures.sh"
. "$TOOLDIR/tests/cli.sh"
. "$TOOLDIR/tests/board.sh"
. "$TOOLDIR/tests/corpus.sh"
. "$TOOLDIR/tests/fuzz.sh"

WORK=$OBJ/test
rm -rf "$WORK"
mkdir -p "$WORK"
RUN_OUT=$WORK/run.out
RUN_ERR=$WORK/run.err
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=99"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=99"

echo "TAP version 13"
fixture_tests "$BIN" ""
cli_tests "$BIN" ""
board_tests "$BIN" ""
corpus_cache_tests
corpus_compile 6.12 "$KSRC_6_12" "$KSRC_6_12_ORIGIN"
corpus_compile 6.1 "$KSRC_6_1" "$KSRC_6_1_ORIGIN"
corpus_tests "$BIN" "" 6.12
corpus_tests "$BIN" "" 6.1
fuzz_tests
# The host suite once more under AddressSanitizer and UBSan.
fixture_tests "$ASAN_BIN" "asan: "
cli_tests "$ASAN_BIN" "asan: "
corpus_tests "$ASAN_BIN" "asan: " 6.12
corpus_tests "$ASAN_BIN" "asan: " 6.1
echo "1..$T_N"
echo "# $((T_N - T_FAIL)) passed, $T_FAIL failed"
[ "$T_FAIL" -eq 0 ]
