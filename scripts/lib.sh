# Shared shell helpers for scripts/*. Source it; do not run it.

# Progress goes to stderr so that stdout stays the command's own output.
if [ -t 2 ]; then _b=$'\033[1m' _n=$'\033[0m'; else _b= _n=; fi
note() { printf '%s==>%s %s\n' "$_b" "$_n" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 2; }
