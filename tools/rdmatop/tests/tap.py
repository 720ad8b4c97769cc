# SPDX-License-Identifier: GPL-2.0
"""TAP output for the Python tests: ok() per check, plan() at the end."""

_count = 0
_failed = 0


def ok(cond, desc):
    """Print one TAP result; returns cond so a caller can stop early."""
    global _count, _failed
    _count += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (_count, desc))
    if not cond:
        _failed += 1
    return cond


def plan():
    """Print the plan line; returns the exit status (1 if any check failed)."""
    print("1..%d" % _count)
    return 1 if _failed else 0
