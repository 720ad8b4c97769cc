# gdb (gdb-multiarch) script: the exact instruction path of DMA API calls
# made by one kernel function, by function. Run by bench/dma-path/trace:
#
#   gdb-multiarch -batch -ex 'python PORT=...; CALLER=...; CALLS=...; N=...' \
#       -x gdb-steps.py vmlinux
#
# Stops the guest at each of CALLS (kernel functions) when called from
# CALLER, then single-steps the calling CPU, the others held still, until
# the call returns; every instruction is charged to the function it lies
# in ("[bpf]" outside the kernel image: JIT-compiled BPF programs).
# QEMU's gdbstub steps with interrupts and timers off, so the path is the
# call's own. Prints one line per function and call, then the totals:
#   PATH call function instructions      (averaged over N calls)
#   TOTAL call instructions
import re

import gdb

port, caller, calls, rounds = PORT, CALLER, CALLS.split(","), int(N)

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute(f"target remote 127.0.0.1:{port}")

text_lo = int(gdb.parse_and_eval("(unsigned long)&_text"))
text_hi = int(gdb.parse_and_eval("(unsigned long)&_etext"))
caller_lo = int(gdb.parse_and_eval(f"(unsigned long)&{caller}"))
# The caller's extent, from its debug information.
block = gdb.block_for_pc(caller_lo)
while block and not block.function:
    block = block.superblock
if not block:
    raise gdb.GdbError(f"no debug information for {caller}")
caller_hi = block.end

names = {}
arch = gdb.selected_frame().architecture()


def func_of(pc):
    if not text_lo <= pc < text_hi:
        return "[bpf]"
    name = names.get(pc)
    if name is None:
        sym = gdb.execute(f"info symbol {pc:#x}", to_string=True).split()
        name = sym[0] if sym and sym[0] != "No" else "[unknown]"
        names[pc] = name
    return name


def reg(name):
    return int(gdb.parse_and_eval(f"(unsigned long)${name}"))


def exclusive_loop(pc):
    """
    For a load-exclusive at pc (an LL/SC loop: ldxr ... stxr; cbnz back),
    the instructions of one pass and the address after the loop; None for
    any other instruction. Stepped one by one, such a loop can retry
    forever (a step may drop the exclusive monitor), so it is run through
    to a breakpoint after it and counted as the one pass it takes.
    """
    insns = arch.disassemble(pc, count=8)
    if not re.match(r"ld(a)?x[rp]", insns[0]["asm"]):
        return None
    for k, ins in enumerate(insns):
        if re.match(r"st(l)?x[rp]", ins["asm"]):
            after = insns[k + 1] if k + 1 < len(insns) else None
            if after and re.match(r"cbnz\b", after["asm"]):
                return k + 2, after["addr"] + 4
            return k + 1, ins["addr"] + 4
    return None


def trace_one(fn):
    """Stops at the next call of fn from the caller; returns its path."""
    bp = gdb.Breakpoint(fn, internal=True)
    bp.condition = f"(unsigned long)$lr >= {caller_lo} && (unsigned long)$lr < {caller_hi}"
    gdb.execute("continue")
    bp.delete()
    ret, sp = reg("lr"), reg("sp")
    counts = {}
    gdb.execute("set scheduler-locking on")
    while True:
        pc = reg("pc")
        if pc == ret and reg("sp") == sp:
            break
        name = func_of(pc)
        loop = exclusive_loop(pc)
        if loop:
            n, after = loop
            counts[name] = counts.get(name, 0) + n
            # Run through it with interrupts masked: a handler taken
            # there could wait for the CPUs held still.
            daif = reg("cpsr") & 0x3C0
            gdb.execute(f"set $cpsr = $cpsr | 0x3c0")
            gdb.execute(f"tbreak *{after:#x}", to_string=True)
            gdb.execute("continue", to_string=True)
            gdb.execute(f"set $cpsr = ($cpsr & ~0x3c0) | {daif:#x}")
            continue
        counts[name] = counts.get(name, 0) + 1
        gdb.execute("stepi", to_string=True)
    gdb.execute("set scheduler-locking off")
    return counts


for fn in calls:
    total = {}
    for _ in range(rounds):
        for name, n in trace_one(fn).items():
            total[name] = total.get(name, 0) + n
    for name, n in sorted(total.items(), key=lambda kv: -kv[1]):
        print(f"PATH {fn} {name} {n / rounds:.1f}")
    print(f"TOTAL {fn} {sum(total.values()) / rounds:.1f}")

gdb.execute("kill")	# ends QEMU: the guest has done its part
