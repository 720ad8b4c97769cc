#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SIGINT during --check cuts the window short: no "ok" verdict over what
# was not watched, exit 130 (128 + SIGINT) and "no verdict". Runs on
# every kernel rdmatop can check on.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
cleanup_hook() { workload stop; }

workload start
rdmatop --check --duration 30 > "$WORK/out" 2> "$WORK/err" &
pid=$!
# The window starts once the program is attached (its line on stderr).
wait_for_line "$WORK/err" "checking every DMA" $START_WAIT || {
	kill $pid 2>/dev/null
	cat "$WORK/err" | sed 's/^/# /'
	fail "rdmatop --check did not start its window"
}
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$WORK/out" "$WORK/err" | sed 's/^/# /'
[ $rc = 130 ] || fail "rdmatop --check exited $rc after SIGINT, not 130"
grep -q '^rdmatop: ok:' "$WORK/out" && fail "an 'ok' verdict over a window cut short"
grep -q 'interrupted after .*: no verdict' "$WORK/out" || fail "no 'no verdict' line"
pass "SIGINT during --check: exit 130, no verdict"
