#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On any kernel, patched or stock: rdmatop's per-device mapping counts
# equal the kernel's own count of bounces. swiotlb:swiotlb_bounced fires
# once per bounce on every kernel (6.1 and 6.12, with or without the
# series) and rdmatop never takes its counts from it when it sees the DMA
# API, so the event, counted by ftrace, is an independent witness: a
# bounded O_DIRECT workload on every disk (some restricted, some not; on
# the zoo board NVMe, AHCI, USB storage and SD: real drivers), and
# for every device the trace names, rdmatop's maps_total moved by exactly
# its count, and each restricted pool's by the sum of its devices'.
. "$(dirname "$0")/rdmatop_lib.sh"
need_rdmatop
ev=$TRACEFS/events/swiotlb/swiotlb_bounced
[ -d $ev ] || skip "no swiotlb_bounced event"
disks=$(rdma-workload disks)
[ -n "$disks" ] || skip "no disk"
cleanup_hook() {
	echo 0 > $ev/enable
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
}

# The file exists before the background job's own redirection does.
: > "$WORK/out"
rdmatop --json -d 1 >> "$WORK/out" 2> "$WORK/err" &
pid=$!
lines_after 1
before=$line
echo > $TRACEFS/trace
echo 1 > $ev/enable
for disk in $disks; do
	for bs in 4k 64k 256k; do
		dd if=/dev/urandom of=$disk bs=$bs count=8 oflag=direct 2>/dev/null
		dd if=$disk of=/dev/null bs=$bs count=8 iflag=direct 2>/dev/null
	done
done
echo 0 > $ev/enable
lines_after 2
after=$line

# "dev_name: NAME" (6.1 and 6.12 print it so) or "dev_name=NAME"
sed -n 's/.* swiotlb_bounced: dev_name[:=] *\([^ ]*\) .*/\1/p' $TRACEFS/trace |
	sort | uniq -c > "$WORK/bounces"
[ -s "$WORK/bounces" ] || fail "no bounce traced on $(echo $disks)"
grep -q "lost\|LOST" $TRACEFS/trace && fail "the trace buffer lost events"
# Every real-driver disk of the layout (the zoo's) did bounce through its pool.
for dev in $(awk '$1 == "device" && $4 == "disk" { print $2 }' $LAYOUT); do
	grep -q " $dev\$" "$WORK/bounces" || fail "disk $dev of the layout bounced nothing"
done
while read -r n dev; do
	b=$(json_dev_val "$dev" maps_total "$before")
	a=$(json_dev_val "$dev" maps_total "$after")
	[ -n "$a" ] || fail "rdmatop has no maps_total for $dev"
	note "$dev: swiotlb_bounced $n, rdmatop maps +$((a - ${b:-0}))"
	[ $((a - ${b:-0})) = "$n" ] || fail "$dev: rdmatop counted $((a - ${b:-0})) maps, the kernel $n bounces"
done < "$WORK/bounces"
# A restricted pool's count is its devices' (Documentation/rdmatop.md):
# it moved by the bounces of the devices the layout gives it, no more.
for pool in $(layout_pools); do
	n=$(layout_devices | awk -v p="$pool" 'NR == FNR { if ($2 == p) mine[$1] = 1; next }
		($2 in mine) { s += $1 } END { print s + 0 }' - "$WORK/bounces")
	[ "$n" = 0 ] && continue
	b=$(json_dev_val "$pool" maps_total "$before")
	a=$(json_dev_val "$pool" maps_total "$after")
	[ -n "$a" ] || fail "rdmatop has no maps_total for pool $pool"
	note "$pool: its devices' swiotlb_bounced $n, rdmatop pool maps +$((a - ${b:-0}))"
	[ $((a - ${b:-0})) = "$n" ] ||
		fail "$pool: rdmatop counted $((a - ${b:-0})) maps on the pool, its devices bounced $n"
done
pass "rdmatop's counts equal the kernel's bounces ($(awk '{ s += $1 } END { print s }' "$WORK/bounces") on $(wc -l < "$WORK/bounces") device(s))"
