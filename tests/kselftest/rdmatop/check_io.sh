#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# With O_DIRECT I/O on every disk, rdmatop --check passes: every DMA of
# every restricted device lands inside its pool, and no pool fails.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
cleanup_hook() { workload stop; }

workload start
rdmatop --check --duration 3 > "$WORK/out" 2> "$WORK/err"
rc=$?
cat "$WORK/out" "$WORK/err" | sed 's/^/# /'
[ $rc = 0 ] || fail "rdmatop --check exited $rc with I/O running"
grep -q '^rdmatop: ok:' "$WORK/out" || fail "no 'ok' verdict line"
maps=$(sed -n 's/.* \([0-9]*\) mappings).*/\1/p' "$WORK/out")
[ "${maps:-0}" -gt 0 ] || fail "no mapping seen in 3 s of I/O: is the BPF program attached?"
pass "$maps mappings checked"
