# SPDX-License-Identifier: GPL-2.0
# The project's own board: the merged DTB and every overlay lint clean:
# no error, and no warning but the one the board makes on purpose (its
# odd-pool is 4 MiB + 64 KiB to exercise 6.1's partial-segment fix).

# Only the deliberate odd-pool warning, and no error.
board_expected_only() {
	[ $RUN_RC -eq 0 ] || return 1
	! grep -E ': (warning|error): ' "$RUN_OUT" |
		grep -vE 'odd-pool@[0-9a-f]+:reg: .*\[pool-size-segment\]$' | grep -q .
}

board_tests() {
	bin=$1 tag=$2
	if [ -z "$BOARD_DTB" ]; then
		t_skip "${tag}board: merged board DTB lints clean" "BOARD_DTB not given"
	elif [ ! -f "$BOARD_DTB" ]; then
		t_skip "${tag}board: merged board DTB lints clean" "$BOARD_DTB not built yet"
	else
		run_tool "$bin" "$BOARD_DTB"
		board_expected_only && grep -q 'examined 1 file' "$RUN_OUT" &&
			! grep -q 'examined 1 file, 0 restricted pools' "$RUN_OUT"
		t_check $? "${tag}board: $(basename "$BOARD_DTB") lints clean and has restricted pools" "$RUN_OUT"
	fi
	set -- "$BOARD_DIR"/*.dtso
	if [ ! -e "$1" ]; then
		t_skip "${tag}board: overlays lint clean" "no $BOARD_DIR/*.dtso yet"
		return 0
	fi
	for o in "$@"; do
		run_tool "$bin" "$o"
		board_expected_only
		t_check $? "${tag}board: overlay $(basename "$o") lints clean" "$RUN_OUT"
	done
}
