#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdma-dtcheck test suite; prints TAP, exits non-zero on any failure.
# Environment (set by the Makefile): BIN ASAN_BIN FUZZ_BIN OBJ KSRC
# KSRC_ORIGIN BOARD_DTB BOARD_DIR TOOLDIR.

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
corpus_compile
corpus_tests "$BIN" ""
fuzz_tests
# The host suite once more under AddressSanitizer and UBSan.
fixture_tests "$ASAN_BIN" "asan: "
cli_tests "$ASAN_BIN" "asan: "
corpus_tests "$ASAN_BIN" "asan: "
echo "1..$T_N"
echo "# $((T_N - T_FAIL)) passed, $T_FAIL failed"
[ "$T_FAIL" -eq 0 ]
