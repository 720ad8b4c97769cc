#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A device that goes away and comes back while rdmatop runs: dma-test is
# unbound from the test driver and bound again, twice. rdmatop must keep
# running, show the device unbound and then bound, list it once, and keep
# counting its bounces across the rebinds: its totals only grow, by what
# was mapped, and none is left in flight.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
need_patched
dev=dma-test
pid=''
cleanup_hook() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	unbind_test_driver $dev
}

# map_pages N: N one-page map and unmap pairs through the test driver.
map_pages() {
	i=0
	while [ $i -lt "$1" ]; do
		res=$("$HERE/rdt_ctl" $dev map 4096 0 to) || fail "map: $res"
		id=$(echo "$res" | sed -n 's/^id=\([0-9]*\).*/\1/p')
		"$HERE/rdt_ctl" $dev unmap "$id" > /dev/null || fail "unmap $id"
		i=$((i + 1))
	done
}

# dev_field LINE KEY: the value of KEY in $dev's object of a --json line.
dev_field() {
	echo "$1" | sed -n "s/.*{\"name\":\"$dev\",[^}]*\"$2\":\([^,}]*\).*/\1/p"
}

# await KEY VALUE: the next --json line where $dev's KEY is VALUE.
await() {
	n=$(wc -l < "$WORK/out")
	i=0
	while [ $i -lt 100 ]; do
		kill -0 "$pid" 2>/dev/null || fail "rdmatop died: $(cat "$WORK/err")"
		line=$(complete_lines "$WORK/out" | tail -n +$((n + 1)) |
			grep "\"name\":\"$dev\"" | tail -n 1)
		[ -n "$line" ] && [ "$(dev_field "$line" "$1")" = "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "no interval with $dev $1=$2 within 10s (last: $(dev_field "$line" "$1"))"
}

bind_test_driver $dev
: > "$WORK/out"
rdmatop --json -d 0.2 >> "$WORK/out" 2> "$WORK/err" &
pid=$!
wait_for_line "$WORK/out" '"devices"' $START_WAIT || fail "rdmatop did not start: $(cat "$WORK/err")"

total=0
for round in 1 2; do
	map_pages 5
	total=$((total + 5))
	await maps_total $total
	unbind_test_driver $dev
	await bound false
	note "round $round: $dev unbound, maps_total $total"
	bind_test_driver $dev
	await bound true
done
map_pages 3
total=$((total + 3))
await maps_total $total
await unmaps_total $total
await inflight 0

last=$(complete_lines "$WORK/out" | tail -n 1)
times=$(echo "$last" | grep -o "{\"name\":\"$dev\"," | wc -l)
[ "$times" = 1 ] || fail "$dev listed $times times after rebinding"
want=$(layout_devices | awk -v d=$dev '$1 == d { print $2 }')
[ "$(dev_field "$last" pool)" = "\"$want\"" ] ||
	fail "$dev's pool is $(dev_field "$last" pool) after rebinding, not $want"
kill "$pid"
wait "$pid" 2>/dev/null
pid=''
pass "$dev unbound and bound twice: one entry, $total maps counted, none in flight"
