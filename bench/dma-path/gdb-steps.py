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
    its instructions up to the back branch and the addresses it can leave
    by: after the back branch, or a forward branch's target (a failed
    compare in a cmpxchg, which also skips the barrier after the loop).
    None for any other instruction. Stepped one by one, such a loop can
    retry forever (a step may drop the exclusive monitor), so it is run
    through to where it leaves and counted as one pass.
    """
    insns = arch.disassemble(pc, count=10)
    if not re.match(r"ld(a)?x[rp]", insns[0]["asm"]):
        return None
    for k, ins in enumerate(insns):
        if not re.match(r"st(l)?x[rp]", ins["asm"]):
            continue
        end = k + 1
        if k + 1 < len(insns) and re.match(r"cbnz\b", insns[k + 1]["asm"]):
            end = k + 2
        body = insns[:end]
        exits = {body[-1]["addr"] + 4: end}
        for i, b in enumerate(body):
            m = re.match(r"(cbn?z|tbn?z|b\.\w+)\s.*\b(0x[0-9a-f]+)", b["asm"])
            # Where both ways out meet, the full pass is counted.
            if m and not pc <= int(m.group(2), 16) <= body[-1]["addr"]:
                exits.setdefault(int(m.group(2), 16), i + 1)
        return exits
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
        exits = exclusive_loop(pc)
        if exits:
            # Run through it with interrupts masked: a handler taken
            # there could wait for the CPUs held still.
            daif = reg("cpsr") & 0x3C0
            gdb.execute("set $cpsr = $cpsr | 0x3c0")
            stops = [gdb.Breakpoint(f"*{a:#x}", internal=True) for a in exits]
            gdb.execute("continue", to_string=True)
            for bp in stops:
                bp.delete()
            gdb.execute(f"set $cpsr = ($cpsr & ~0x3c0) | {daif:#x}")
            # One pass, to the branch it left by.
            counts[name] = counts.get(name, 0) + exits.get(reg("pc"), 0)
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
