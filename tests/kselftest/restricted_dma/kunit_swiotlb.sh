#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The series' KUnit suite "swiotlb" (CONFIG_SWIOTLB_KUNIT_TEST) runs at
# boot; KUnit keeps each suite's KTAP in debugfs. Report each of its cases
# as one result here, so that the kselftest run shows (and fails on) them.
# On a kernel without the series there is no suite: skip.

results=/sys/kernel/debug/kunit/swiotlb/results

[ -d /sys/kernel/debug/kunit ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "TAP version 13"
if [ ! -r "$results" ]; then
	if [ -d /sys/kernel/debug/restricted_dma_test ]; then
		echo "1..1"
		echo "not ok 1 KUnit suite swiotlb: no results in $results"
		exit 1
	fi
	echo "1..0 # SKIP no KUnit suite swiotlb (CONFIG_SWIOTLB_KUNIT_TEST off)"
	exit 4
fi

# The suite's plan (the "1..N" after "# Subtest: swiotlb": N cases; the
# file may start with a plan of its own, for the one suite) and its case
# result lines.
plan=$(sed -n '/# Subtest: swiotlb$/,$p' "$results" |
	grep -m 1 -E '^[[:space:]]*1\.\.[0-9]+' | tr -d ' \t')
want=${plan#1..}
cases=$(grep -E '^[[:space:]]*(not )?ok [0-9]+ swiotlb_test_' "$results" |
	sed 's/^[[:space:]]*//')
got=$(printf '%s\n' "$cases" | grep -c 'ok ')

echo "1..$((got + 1))"
i=0 failed=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	i=$((i + 1))
	case "$line" in
	"not ok"*) failed=1; echo "not ok $i KUnit ${line#not ok * }" ;;
	*) echo "ok $i KUnit ${line#ok * }" ;;
	esac
done <<END
$cases
END
i=$((i + 1))
if [ -n "$want" ] && [ "$got" -eq "$want" ]; then
	echo "ok $i KUnit suite swiotlb ran all $want cases"
else
	echo "not ok $i KUnit suite swiotlb ran $got cases of ${want:-?}"
	sed 's/^/# /' "$results"
	failed=1
fi
exit $failed
