# SPDX-License-Identifier: GPL-2.0
# The project's own board: the merged DTB and every overlay lint clean
# (no warning, no error).

board_tests() {
	bin=$1 tag=$2
	if [ -z "$BOARD_DTB" ]; then
		t_skip "${tag}board: merged board DTB lints clean" "BOARD_DTB not given"
	elif [ ! -f "$BOARD_DTB" ]; then
		t_skip "${tag}board: merged board DTB lints clean" "$BOARD_DTB not built yet"
	else
		run_tool "$bin" -Werror "$BOARD_DTB"
		[ $RUN_RC -eq 0 ] && grep -q 'examined 1 file' "$RUN_OUT" &&
			! grep -q 'examined 1 file, 0 restricted pools' "$RUN_OUT"
		t_check $? "${tag}board: $(basename "$BOARD_DTB") lints clean and has restricted pools" "$RUN_OUT"
	fi
	set -- "$BOARD_DIR"/*.dtso
	if [ ! -e "$1" ]; then
		t_skip "${tag}board: overlays lint clean" "no $BOARD_DIR/*.dtso yet"
		return 0
	fi
	for o in "$@"; do
		run_tool "$bin" -Werror "$o"
		[ $RUN_RC -eq 0 ]
		t_check $? "${tag}board: overlay $(basename "$o") lints clean" "$RUN_OUT"
	done
}
