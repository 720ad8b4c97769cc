# Shared shell helpers for scripts/*. Source it; do not run it.

# Progress goes to stderr so that stdout stays the command's own output.
if [ -t 2 ]; then _b=$'\033[1m' _n=$'\033[0m'; else _b= _n=; fi
note() { printf '%s==>%s %s\n' "$_b" "$_n" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# The kernels: Linux LTS releases with a series each (kernel/VER/series,
# kernel/VER/patches/). The first is the default everywhere.
KERNEL_VERSIONS=(6.12 6.1)
KERNEL_DEFAULT=${KERNEL_VERSIONS[0]}

# kernel_version_ok VER: VER is one of KERNEL_VERSIONS.
kernel_version_ok() {
	local v
	for v in "${KERNEL_VERSIONS[@]}"; do
		[ "$v" = "${1:-}" ] && return 0
	done
	return 1
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
