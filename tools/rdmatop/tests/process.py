#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rdmatop as a process: closed pipes, stdin at EOF, failed writes. TAP lines.

  process.py BIN WORKDIR

BIN runs with --no-bpf on a fake kernel tree (RDMATOP_SYSROOT): one
restricted pool in debugfs, so nothing here needs root, debugfs or BPF.
"""
import os
import pty
import resource
import select
import signal
import subprocess
import sys
import time

from tap import ok, plan


def put(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def fake_tree(root):
    """A 4 MiB restricted pool at 0x70000000 (2048 slots of 2 KiB), 16 used."""
    dbg = "sys/kernel/debug/swiotlb/blk-pool@70000000/"
    put(root, dbg + "io_tlb_nslabs", "2048\n")
    put(root, dbg + "io_tlb_used", "16\n")
    rm = "proc/device-tree/reserved-memory/"
    dt = rm + "blk-pool@70000000/"
    put(root, dt + "compatible", "restricted-dma-pool\0")
    for cells in ("#address-cells", "#size-cells"):
        with open(os.path.join(root, rm + cells), "wb") as f:
            f.write(bytes.fromhex("00000002"))
    with open(os.path.join(root, dt + "reg"), "wb") as f:
        f.write(bytes.fromhex("0000000070000000" "0000000000400000"))
    os.makedirs(os.path.join(root, "sys/bus/platform/devices"), exist_ok=True)


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_pty(argv, env, stdin, secs, keys=b""):
    """Runs argv with a terminal on stdout and stderr (and on stdin when
    stdin is None, typing keys after half a second) for at most secs.
    Returns (exit status, its CPU seconds, its wall seconds, what it wrote)."""
    before = cpu_of_children()
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        if stdin is not None:
            os.dup2(stdin, 0)
        os.execve(argv[0], argv, env)
    out = b""
    deadline = start + secs
    status = None
    while status is None:
        if keys and time.monotonic() > start + 0.5:
            os.write(fd, keys)
            keys = b""
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                out += os.read(fd, 65536)
            except OSError:
                pass
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(st)
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = "timeout"
    os.close(fd)
    return status, cpu_of_children() - before, time.monotonic() - start, out


def test_closed_pipe(bin_, env):
    p = subprocess.Popen([bin_, "--no-bpf", "-b", "-d", "0.1", "-n", "100"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()			# what `| head -1` does
    try:
        err = p.communicate(timeout=10)[1].decode()
    except subprocess.TimeoutExpired:
        p.kill()
        err = p.communicate()[1].decode()
    ok(first.startswith(b"rdmatop ") and p.returncode == 0,
       "process: | head -1: rdmatop exits 0 when the reader goes (%s)" % p.returncode)
    errs = [l for l in err.splitlines() if not l.startswith("rdmatop: fallback mode")]
    ok(not errs, "process: | head -1: nothing on stderr (%r)" % errs[:2])


def test_eof(bin_, env, what, stdin):
    env = dict(env, TERM="xterm")
    status, cpu, _, out = run_pty([bin_, "--no-bpf", "-d", "0.5", "-n", "4"], env, stdin, 15)
    ok(status == 0 and b"blk-pool@7" in out,
       "process: screen with stdin %s: draws the pool, runs its 4 intervals (%s)" %
       (what, status))
    ok(cpu < 0.5, "process: screen with stdin %s: %.2f s of CPU in 2 s (no spinning)" %
       (what, cpu))


def test_keys(bin_, env):
    env = dict(env, TERM="xterm")
    status, _, secs, _ = run_pty([bin_, "--no-bpf", "-d", "0.5", "-n", "20"], env, None, 15,
                                 keys=b"q")
    ok(status == 0 and secs < 5, "process: screen on a terminal: q quits (%s after %.1f s)" %
       (status, secs))


def test_top_keys(bin_, env):
    """top's keys: > and < move the sort column, R reverses it."""
    env = dict(env, TERM="xterm")
    # What the redraw after the key writes (curses sends only what changed).
    for keys, want in ((b">", b"bytes"), (b"<<<", b"name"), (b"R", b"(reversed)")):
        status, _, _, out = run_pty([bin_, "--no-bpf", "-d", "0.3", "-n", "4"], env, None, 15,
                                    keys=keys)
        ok(status == 0 and want in out, "process: screen: top's key %s gives '%s'" %
           (keys.decode(), want.decode()))


def test_prom_retry(bin_, env, work):
    d = os.path.join(work, "textfile")
    path = os.path.join(d, "rdmatop.prom")
    p = subprocess.Popen([bin_, "--no-bpf", "--prometheus", path, "-d", "0.2", "-n", "10"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.7)			# about three intervals fail: no directory
    os.mkdir(d)
    try:
        err = p.communicate(timeout=10)[1].decode()
    except subprocess.TimeoutExpired:
        p.kill()
        err = p.communicate()[1].decode()
    lines = [l for l in err.splitlines() if not l.startswith("rdmatop: fallback mode")]
    ok(p.returncode == 0, "prom: a failed write is not fatal: exit %s" % p.returncode)
    ok(os.path.exists(path) and "restricted_dma_pool_slots" in open(path).read(),
       "prom: written once the directory exists (retried every interval)")
    fails = [l for l in lines if "cannot" in l]
    ok(len(fails) == 1 and "will retry" in fails[0],
       "prom: the failure reported once, not every interval (%r)" % lines)
    ok(len(lines) == 2 and "written again" in lines[-1],
       "prom: the recovery reported (%r)" % lines[-1:])
    ok(not [f for f in os.listdir(d) if f != "rdmatop.prom"],
       "prom: no temporary file left")


def test_prom_stop(bin_, env, work):
    """Stopped by SIGTERM (systemd), rdmatop removes its file; -n's end keeps it."""
    d = os.path.join(work, "textfile-stop")
    os.mkdir(d)
    path = os.path.join(d, "restricted_dma.prom")
    p = subprocess.Popen([bin_, "--no-bpf", "--prometheus", path, "-d", "0.2"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while not os.path.exists(path) and time.monotonic() < end:
        time.sleep(0.05)
    written = os.path.exists(path)
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    ok(written and p.returncode == 0 and not os.listdir(d),
       "prom: SIGTERM removes the file, exit 0 (written %s, exit %s, left %r)" %
       (written, p.returncode, os.listdir(d)))
    status = subprocess.run([bin_, "--no-bpf", "--prometheus", path, "-d", "0.2", "-n", "2"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=10).returncode
    ok(status == 0 and os.path.exists(path), "prom: after -n COUNT intervals the file stays")


def main():
    bin_, work = sys.argv[1], sys.argv[2]
    root = os.path.join(work, "root")
    fake_tree(root)
    env = dict(os.environ, RDMATOP_SYSROOT=root)
    test_closed_pipe(bin_, env)
    with open(os.devnull) as null:
        test_eof(bin_, env, "/dev/null", null.fileno())
    r, w = os.pipe()
    os.close(w)				# a pipe whose writer is gone: POLLHUP
    test_eof(bin_, env, "a closed pipe", r)
    os.close(r)
    test_keys(bin_, env)
    test_top_keys(bin_, env)
    test_prom_retry(bin_, env, work)
    test_prom_stop(bin_, env, work)
    return plan()


if __name__ == "__main__":
    sys.exit(main())
