#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop's host tests: unit tests (plain, then ASan/UBSan), the JSON and
# Prometheus outputs through real parsers, the command line of the host
# binary. TAP lines, renumbered into one plan; non-zero on any failure.
# Environment: UNIT, UNIT_SAN, BIN, OBJ, PYTHON, TOOLDIR, CORE_CHECK, BPF_OBJ,
# CORE_KERNELS (from the Makefile).
set -u
n=0
failed=0
tmp=$OBJ/check
rm -rf "$tmp" && mkdir -p "$tmp"

# renumber PREFIX: reads TAP, prints it with running numbers and PREFIX.
renumber() {
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			st=${line%% [0-9]*}
			desc=${line#* - }
			echo "$st $n - $1$desc"
			[ "$st" = "ok" ] || failed=$((failed + 1))
			;;
		1..*) ;;
		*) echo "$line" ;;
		esac
	done
	echo "$n $failed" > "$tmp/count"
}

# tap_file PREFIX FILE STATUS: a finished TAP run; a non-zero status is a failure.
tap_file() {
	renumber "$1" < "$2"
	read -r n failed < "$tmp/count"
	if [ "$3" != 0 ] && ! grep -q '^not ok' "$2"; then
		n=$((n + 1)); failed=$((failed + 1))
		echo "not ok $n - $1exit status $3"
	fi
}

one() {	# one DESC COMMAND...: a single TAP line for a command's success
	desc=$1; shift
	n=$((n + 1))
	if "$@" > "$tmp/one.out" 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		sed 's/^/# /' "$tmp/one.out"
		failed=$((failed + 1))
	fi
}

"$UNIT" > "$tmp/unit.tap" 2>&1; tap_file "unit: " "$tmp/unit.tap" $?
"$UNIT_SAN" > "$tmp/san.tap" 2>&1; tap_file "asan+ubsan: " "$tmp/san.tap" $?

"$UNIT" --emit-json "$tmp/sample.json"
"$PYTHON" "$TOOLDIR/tests/validate.py" json "$tmp/sample.json" > "$tmp/json.tap" 2>&1
tap_file "" "$tmp/json.tap" $?
"$UNIT_SAN" --emit-prom "$tmp/sample.prom"
"$PYTHON" "$TOOLDIR/tests/validate.py" prom "$tmp/sample.prom" > "$tmp/prom.tap" 2>&1
tap_file "" "$tmp/prom.tap" $?
# The linter Prometheus itself ships: silent means no lint finding.
one "prom: promtool check metrics is silent on the sample" \
	sh -c "out=\$(promtool check metrics < '$tmp/sample.prom' 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
one "prom: no temporary file left beside the written one" \
	sh -c "[ \$(ls '$tmp' | grep -c '^sample.prom') = 1 ]"

# The fleet files (fleet/, Documentation/rdmatop-metrics.md): rules and
# their unit tests, the dashboard, the systemd unit.
fleet=$TOOLDIR/fleet
one "fleet: promtool check rules" promtool check rules "$fleet/restricted-dma.rules.yml"
one "fleet: promtool test rules (firing and not: first sample at 1, resets, stale, missing file)" \
	promtool test rules "$fleet/restricted-dma.rules.test.yml"
"$PYTHON" "$TOOLDIR/tests/dashboard.py" "$fleet/restricted-dma.dashboard.json" \
	"$fleet/restricted-dma.rules.yml" "$TOOLDIR/../../Documentation/rdmatop-metrics.md" \
	> "$tmp/dashboard.tap" 2>&1
tap_file "" "$tmp/dashboard.tap" $?
# systemd-analyze checks the unit's directives and that ExecStart's binary
# exists: the host binary stands in for the installed one.
sed "s|/usr/sbin/rdmatop|$BIN|" "$fleet/rdmatop-exporter.service" > "$tmp/rdmatop-exporter.service"
one "fleet: systemd-analyze verify is silent on rdmatop-exporter.service" \
	sh -c "out=\$(systemd-analyze verify --man=no '$tmp/rdmatop-exporter.service' 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
one "fleet: rdmatop-exporter.service is hardened (systemd-analyze security: exposure 2.0 or less)" \
	systemd-analyze security --offline=true --threshold=20 --no-pager "$tmp/rdmatop-exporter.service"

# The BPF object relocates against every kernel the project builds.
"$CORE_CHECK" "$BPF_OBJ" $CORE_KERNELS > "$tmp/core.tap" 2>&1
tap_file "" "$tmp/core.tap" $?
# arm64 6.1 has no ftrace direct calls: fentry/fexit cannot attach to a
# kernel function there (ENOTSUPP), so its stock kernel must not get them.
one "sources: stock 6.1 (arm64, no ftrace direct calls) gets swiotlb_bounced, not fentry" \
	sh -c "grep -q '6.1-stock: .*swiotlb_bounced\|6.1-stock # SKIP' '$tmp/core.tap'"

# The host binary as a process, on a fake kernel tree.
"$PYTHON" "$TOOLDIR/tests/process.py" "$BIN" "$tmp" > "$tmp/process.tap" 2>&1
tap_file "" "$tmp/process.tap" $?

one "cli: --help exits 0 and documents --check" sh -c "'$BIN' --help | grep -q -- --check"
one "cli: --version" sh -c "'$BIN' --version | grep -q '^rdmatop '"
one "cli: a usage error exits 2 with one line" \
	sh -c "'$BIN' --bogus 2> '$tmp/err'; [ \$? = 2 ] && [ \$(wc -l < '$tmp/err') = 1 ]"
one "cli: conflicting modes exit 2" sh -c "'$BIN' --json --check 2>/dev/null; [ \$? = 2 ]"

echo "1..$n"
[ "$failed" = 0 ]
