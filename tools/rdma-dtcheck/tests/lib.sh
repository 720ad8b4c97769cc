# SPDX-License-Identifier: GPL-2.0
# TAP helpers shared by the test groups. Each test prints one line.

T_N=0
T_FAIL=0

t_ok()   { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
t_fail() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
t_skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
t_diag() { sed 's/^/# /'; }

# t_check COND-EXIT-STATUS DESCRIPTION [DIAG-FILE]
t_check() {
	if [ "$1" -eq 0 ]; then
		t_ok "$2"
	else
		t_fail "$2"
		[ -n "${3:-}" ] && [ -s "$3" ] && head -20 "$3" | t_diag
	fi
	return 0
}

# run_tool BIN ARGS... : stdout to $RUN_OUT, stderr to $RUN_ERR, status in
# $RUN_RC. A sanitizer report anywhere turns the status into 99.
run_tool() {
	"$@" >"$RUN_OUT" 2>"$RUN_ERR"
	RUN_RC=$?
	if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$RUN_ERR"; then
		RUN_RC=99
	fi
}

# run_in DIR BIN ARGS... : run_tool from DIR (file names in output stay short)
run_in() {
	_rd=$PWD
	cd "$1" || return 1
	shift
	run_tool "$@"
	cd "$_rd" || return 1
}
