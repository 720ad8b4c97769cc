# SPDX-License-Identifier: GPL-2.0
# Fixture pairs: tests/fixtures/CHECK/trigger.dts must report CHECK exactly
# on the lines marked "// EXPECT"; twin.dts must not report CHECK at all.
# Checks at error severity must also make the trigger exit with status 1.
# A line "// ARGS: ..." in a fixture gives it command-line options (for
# example --kernel 6.1 for a check that only applies there).

fixture_args() { sed -n 's|^// ARGS: ||p' "$1"; }

fixture_tests() {
	bin=$1 tag=$2
	for dir in "$TOOLDIR"/tests/fixtures/*/; do
		name=$(basename "$dir")
		sev=$("$bin" --list-checks | awk -v n="$name" '$1 == n { print $2 }')
		if [ -z "$sev" ]; then
			t_fail "$tag$name: fixture names no known check"
			continue
		fi
		want=$(grep -n '// EXPECT' "$dir/trigger.dts" | cut -d: -f1 | sort -n | tr '\n' ' ')
		# shellcheck disable=SC2046 # options split on purpose
		run_in "$dir" "$bin" $(fixture_args "$dir/trigger.dts") trigger.dts
		got=$(grep -E "^trigger\.dts:[0-9]+:[0-9]+: [a-z]+: .*\[$name\]\$" "$RUN_OUT" |
		      cut -d: -f2 | sort -n | tr '\n' ' ')
		rc_ok=0
		[ "$RUN_RC" -ge 2 ] && rc_ok=1
		[ "$sev" = error ] && [ "$RUN_RC" -ne 1 ] && rc_ok=1
		[ -n "$want" ] && [ "$want" = "$got" ] && [ $rc_ok -eq 0 ]
		t_check $? "$tag$name: trigger.dts reports it at line(s) ${want% } (got: ${got% }, exit $RUN_RC)" "$RUN_ERR"

		# shellcheck disable=SC2046
		run_in "$dir" "$bin" $(fixture_args "$dir/twin.dts") twin.dts
		! grep -q "\[$name\]\$" "$RUN_OUT" && [ "$RUN_RC" -lt 2 ]
		t_check $? "$tag$name: twin.dts does not report it (exit $RUN_RC)" "$RUN_OUT"
	done

	# Every check has a fixture pair.
	missing=""
	for c in $("$bin" --list-checks | awk '{ print $1 }'); do
		[ -f "$TOOLDIR/tests/fixtures/$c/trigger.dts" ] &&
			[ -f "$TOOLDIR/tests/fixtures/$c/twin.dts" ] || missing="$missing $c"
	done
	[ -z "$missing" ]
	t_check $? "${tag}every check has a trigger/twin fixture pair${missing:+ (missing:$missing)}"
}
