# Shared shell helpers for scripts/*. Source it; do not run it.

# Progress goes to stderr so that stdout stays the command's own output.
if [ -t 2 ]; then _b=$'\033[1m' _n=$'\033[0m'; else _b= _n=; fi
note() { printf '%s==>%s %s\n' "$_b" "$_n" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# The kernels: Linux LTS releases with a series each (kernel/VER/series,
# kernel/VER/patches/). The first is the default everywhere.
KERNEL_VERSIONS=(6.12 6.1)
KERNEL_DEFAULT=${KERNEL_VERSIONS[0]}

# one_of WORD CHOICE...: WORD is one of the CHOICEs.
one_of() {
	local w=$1 c
	shift
	for c; do
		[ "$c" = "$w" ] && return 0
	done
	return 1
}

# kernel_version_ok VER: VER is one of KERNEL_VERSIONS.
kernel_version_ok() {
	one_of "${1:-}" "${KERNEL_VERSIONS[@]}"
}

# kdir VER FLAVOUR: a kernel flavour's directory (FLAVOUR patched or
# stock), built by scripts/kernel-build: src/ (its git worktree), obj/
# (the O= directory), Image, vmlinux, vmlinux.h and usr/include.
kdir() {
	printf '%s/build/kernel/%s/%s\n' "$top" "$1" "$2"
}

# kernel_series VER: the patch file names kernel/VER/series lists, in order.
kernel_series() {
	awk '{ sub(/#.*/, "") } NF { print $1 }' "$top/kernel/$1/series"
}

# Kernel reports that fail a board run (scripts/vm), as an awk/ERE
# pattern over console lines that carry a printk timestamp. By source:
# oopses and panics; WARN() and BUG(), which also carry lockdep, RCU,
# DEBUG_LIST, refcount and DMA-API debug errors ("WARNING:"), and KASAN,
# KFENCE, KCSAN, KMSAN and DEBUG_ATOMIC_SLEEP ("BUG: KASAN:", ...);
# lockdep's own headers; hung tasks, RCU stalls and lockups; UBSAN
# ("UBSAN: shift-out-of-bounds in ..."); kmemleak's scan result (at
# info level the console does not show, so guest/init repeats it at
# error level after the job); DMA-API debug giving up or seeing a
# cacheline mapped too often (pr_err, no WARN).
VM_PROBLEM_RE='Kernel panic|Internal error:|Unable to handle kernel|(BUG|WARNING):|Oops|'
VM_PROBLEM_RE+='possible circular locking|inconsistent lock state|possible recursive locking|'
VM_PROBLEM_RE+='blocked for more than|detected stalls|soft lockup|hard LOCKUP|'
VM_PROBLEM_RE+='UBSAN: |kmemleak: [0-9]+ new suspected memory leaks|'
VM_PROBLEM_RE+='DMA-API: (debugging out of memory|exceeded [0-9]+ overlapping mappings)'

# vm_problems: the lines of stdin scripts/vm counts as kernel reports.
vm_problems() {
	awk -v re="$VM_PROBLEM_RE" '/^\[ *[0-9]+\.[0-9]+\] / && $0 ~ re'
}
