#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# As nobody (uid 65534), rdmatop exits 2 with one line saying what it needs.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop

chmod 755 "$WORK"
"$HERE/run_as" 65534 rdmatop -b -n 1 > "$WORK/out" 2> "$WORK/err"
rc=$?
sed 's/^/# /' "$WORK/err"
[ $rc = 2 ] || fail "exited $rc as nobody, not 2"
[ "$(wc -l < "$WORK/err")" = 1 ] || fail "not one line of explanation"
grep -q "needs root" "$WORK/err" || fail "the explanation does not say it needs root"
[ -s "$WORK/out" ] && fail "printed on stdout as nobody"
pass "exit 2: $(cat "$WORK/err")"
