#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rdmatop --self: with I/O running, its BPF programs' runs and run time
# (the kernel's run-time statistics) are in --json, non-zero, and the
# statistics are off again once rdmatop exits.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
cleanup_hook() { workload stop; }

top_field() { tail -n 1 "$1" | sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p"; }

workload start
rdmatop --self --json -d 1 -n 2 > "$WORK/out" 2> "$WORK/err" ||
	fail "rdmatop --self --json: $(cat "$WORK/err")"
runs=$(top_field "$WORK/out" program_runs_total)
ns=$(top_field "$WORK/out" program_run_time_ns_total)
note "program runs $runs, run time $ns ns"
[ -n "$runs" ] && [ "$runs" != null ] && [ "$runs" -gt 0 ] || fail "no program runs: $runs"
[ -n "$ns" ] && [ "$ns" != null ] && [ "$ns" -gt 0 ] || fail "no run time: $ns"
[ "$(cat /proc/sys/kernel/bpf_stats_enabled 2>/dev/null || echo 0)" = 0 ] ||
	fail "kernel.bpf_stats_enabled left on"
pass "--self: $runs runs, $ns ns"
