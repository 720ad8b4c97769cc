# shellcheck shell=bash disable=SC2154 # top, log and failed_stage: the sourcing script's
# The steps of scripts/check: timing each one (clock), and running the
# queued ones (step) a few at a time (run_steps). Source it after
# scripts/lib.sh, with $top, $log and failed_stage=() set.

# clock LABEL: starts timing LABEL and ends the step before it; the
# durations are printed at the end (where make check's minutes go).
timings=() _clock_label='' _clock_start=$SECONDS
clock() {
	[ -n "$_clock_label" ] &&
		timings+=("$(printf '%5d s  %s' $((SECONDS - _clock_start)) "$_clock_label")")
	_clock_label=$1 _clock_start=$SECONDS
}

# step LABEL FAIL CMD...: queue CMD for run_steps, its output headed by
# LABEL. FAIL says what fails the step beyond its own TAP results:
# "tap" nothing more, "status" any non-zero status, "vm" scripts/vm's
# 124-126 (the board itself went wrong; run_kselftest.sh's own status
# only echoes the failures its TAP lines carry).
step_label=() step_fail=() step_cmd=()
step() {
	step_label+=("$1") step_fail+=("$2")
	shift 2
	step_cmd+=("$(printf '%q ' "$@")")
}

# cpu_seconds FILE: the CPU seconds (user and system) of a shell's
# finished children, from what its times builtin wrote to FILE (run
# times in that shell itself: a subshell starts from zero). Steps run
# side by side share two cores, so a step's wall time says little of
# what it costs; its CPU time does.
cpu_seconds() {
	awk 'function sec(x, m) {
		m = x; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", x); sub(/s$/, "", x)
		return m * 60 + x }
		NR == 2 { printf "%d", sec($1) + sec($2) + 0.5 }' "$1"
}

# finish_step I DIR: a finished step's output into the log, its time
# (wall clock and CPU) and its failure (if any) into the summary.
finish_step() {
	local i=$1 rc secs cpu
	read -r rc secs cpu < "$2/$i.done"
	tee -a "$log" < "$2/$i.out"
	timings+=("$(printf '%5s s %6s  %s' "$secs" "(${cpu:--} cpu)" "${step_label[i]}")")
	if [ "$secs" = - ]; then
		failed_stage+=("${step_label[i]} (ended without a status)")
		return 0
	fi
	case ${step_fail[i]} in
	status) [ "$rc" = 0 ] || failed_stage+=("${step_label[i]} (status $rc)") ;;
	vm) [ "$rc" -ge 124 ] && [ "$rc" -le 126 ] &&
		failed_stage+=("${step_label[i]} (scripts/vm status $rc)") ;;
	esac
	return 0
}

# run_steps: the queued steps, CHECK_JOBS at a time, in queue order;
# each step's output is shown once it and every step before it are done.
# Everything is built by now: scripts/vm only checks (VM_NO_BUILD), so
# that boots started together do not race to rebuild the board.
run_steps() {
	local max=${CHECK_JOBS:-3} dir next=0 shown=0 running=0 start=$SECONDS j
	[[ $max =~ ^[1-9][0-9]*$ ]] || die "CHECK_JOBS must be a positive number, not '$max'"
	[ ${#step_label[@]} -gt 0 ] || return 0
	clock ''
	dir=$(mktemp -d "$top/build/check-steps.XXXXXX")
	export VM_NO_BUILD=1
	while [ "$shown" -lt ${#step_label[@]} ]; do
		while [ "$running" -lt "$max" ] && [ "$next" -lt ${#step_label[@]} ]; do
			note "${step_label[next]}"
			(
				t=$SECONDS
				{
					echo "# ===== ${step_label[next]} ====="
					eval "${step_cmd[next]}"
				} > "$dir/$next.out" 2>&1
				rc=$?
				times > "$dir/$next.times"
				echo "$rc $((SECONDS - t)) $(cpu_seconds "$dir/$next.times")" > "$dir/$next.tmp"
				mv "$dir/$next.tmp" "$dir/$next.done"
			) &
			next=$((next + 1)) running=$((running + 1))
		done
		wait -n
		running=$((running - 1))
		# A step killed from outside wrote no status: counted as failed,
		# rather than waited for forever.
		if [ "$running" -le 0 ]; then
			running=0
			for ((j = shown; j < next; j++)); do
				[ -f "$dir/$j.done" ] || echo "255 - -" > "$dir/$j.done"
			done
		fi
		while [ "$shown" -lt "$next" ] && [ -f "$dir/$shown.done" ]; do
			finish_step "$shown" "$dir"
			shown=$((shown + 1))
		done
	done
	unset VM_NO_BUILD
	rm -rf "$dir"
	timings+=("$(printf '%5d s  %s' $((SECONDS - start)) \
		"the ${#step_label[@]} steps above, $max at a time (wall clock)")")
}

# A boot that the emulated board spoiled before any test ran: QEMU 7.2's
# NVMe controller, on a loaded host, once never answered the first admin
# command of a boot (CI, Linux 6.1, zoo board; not seen again in 220
# boots of that kernel under load), and the driver gave the disk up
# after 60 s. BOARD_SPOILED_RE matches the guest kernel line that says
# so; only lines before the boot's "running on Linux" header count, so a
# timeout a test provokes is the test's failure, never a retry.
BOARD_SPOILED_RE='nvme nvme[0-9]+: I/O [0-9]+ QID 0 timeout'
# How the log marks a boot booted once more (scripts/check counts them).
BOARD_SPOILED_MARK='# board: spoiled before its tests, booted once more:'

# board_spoiled FILE: prints the line that spoiled the boot logged in
# FILE and succeeds, or fails when the board came up as it should.
board_spoiled() {
	awk -v re="$BOARD_SPOILED_RE" '
		/^# ===== running on Linux / { exit }
		/^\[ *[0-9]+\.[0-9]+\] / && $0 ~ re { print; found = 1; exit }
		END { exit !found }' "$1"
}

# once_more_if_spoiled CMD...: runs CMD (a boot), and once more when the
# board spoiled it (board_spoiled); prints the output of the run that
# counts, after a "# board: ..." line naming what spoiled the first and
# where its whole log is kept (build/spoiled-boot.*.log; the summary
# counts those lines), and returns its status.
once_more_if_spoiled() {
	local out rc why kept
	out=$(mktemp "$top/build/boot.XXXXXX")
	"$@" > "$out" 2>&1
	rc=$?
	if why=$(board_spoiled "$out"); then
		kept=$(mktemp "$top/build/spoiled-boot.XXXXXX.log")
		mv "$out" "$kept"
		echo "$BOARD_SPOILED_MARK $why (its log: ${kept#"$top"/})"
		"$@" > "$out" 2>&1
		rc=$?
	fi
	cat "$out"
	rm -f "$out"
	return "$rc"
}
