#!/usr/bin/env python3
"""The progress line of every tool, under a pseudo-terminal: a job fed for ~1.6 s with stderr
on a pty shows one updating line ("\\r... read, .../s, N stacks") and clears it at the end; the same job
with --no-progress, or with stderr a pipe (a CI log), shows nothing; --progress forces it
into a pipe; a short job shows nothing. The folded output is the same in every case.
Usage: progress.py TOOL..."""
import os
import pty
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from checks import check, done  # noqa: E402

CHUNKS, LINES = 16, 20000
# every chunk adds 1..CHUNKS-1 to the same LINES distinct stacks
WANT = ''.join(sorted('a;b;c%d %d\n' % (j, sum(range(CHUNKS))) for j in range(LINES)))
# made before any run, so a short job's input arrives at once, not at Python's pace
DATA = [b''.join(b'a;b;c%d %d\n' % (j, i) for j in range(LINES)) for i in range(CHUNKS)]
EMPTY = tempfile.NamedTemporaryFile(suffix='.folded', delete=False).name


def operands(tool):
    """stdin as the slow input; flame-diff and flame-merge get an empty file beside it"""
    name = os.path.basename(tool)
    if name == 'flame-diff':
        return ['--format', 'folded', '-', EMPTY]
    if name == 'flame-merge':
        return ['-', EMPTY]
    return []


def run(tool, args, tty, slow=True):
    """Run the tool on folded stacks written over ~1.6 s (or at once); return its stderr
    bytes and its output."""
    out = tempfile.NamedTemporaryFile(suffix='.folded', delete=False).name
    if 'render' in tool:
        args = [*args, '--format', 'svg']
    if tty:
        master, slave = pty.openpty()
        err_fd = slave
    else:
        master, err_fd = None, subprocess.PIPE
    env = dict(os.environ, TERM='xterm')
    p = subprocess.Popen([tool, *args, *operands(tool), '-o', out], stdin=subprocess.PIPE,
                         stderr=err_fd, env=env)
    for chunk in DATA:
        p.stdin.write(chunk)
        p.stdin.flush()
        if slow:
            time.sleep(0.1)
    p.stdin.close()
    err = b''
    if tty:
        os.close(slave)
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the pty
                break
            if not chunk:
                break
            err += chunk
        os.close(master)
        p.wait()
    else:
        err = p.stderr.read()
        p.wait()
    got = open(out).read()
    if 'render' in tool:  # the picture's own total
        got = WANT if '2,400,000 samples' in got else got[:200]
    if 'diff' in tool:  # BEFORE is stdin, AFTER empty: 3 columns
        got = got.replace(' 0\n', '\n')
    os.unlink(out)
    if p.returncode != 0:
        raise SystemExit('FAIL: %s exited %d: %r' % (args, p.returncode, err))
    return err, got


for tool in sys.argv[1:]:
    name = os.path.basename(tool)
    prog = name.encode()
    err, got = run(tool, [], tty=True)
    check(name + ': output on a terminal', got == WANT, repr(got[:80]))
    check(name + ': a progress line on a terminal', b'\r' + prog + b': ' in err and b' read, ' in err
          and b'/s, ' in err and b'\x1b[K' in err, repr(err[:200]))
    # stacks so far: the LINES distinct stacks once the first chunks are in (flame-diff and
    # flame-merge stream blocks, each counted as it is handed over: at least LINES, growing)
    counts = [int(m.replace(b',', b'')) for m in re.findall(rb', ([0-9,]+) stacks?\x1b\[K', err)]
    one_tree = name in ('flame-collapse', 'flame-render')
    check(name + ': stacks so far', counts and counts == sorted(counts) and
          (max(counts) == LINES if one_tree else max(counts) >= LINES), repr(err[:200]))
    check(name + ': the line is cleared at the end', err.endswith(b'\r\x1b[K'), repr(err[-40:]))
    check(name + ': one line: no newline', b'\n' not in err, repr(err[:200]))
    err, got = run(tool, ['--no-progress'], tty=True)
    check(name + ': --no-progress on a terminal', err == b'' and got == WANT, repr(err[:200]))
    err, got = run(tool, [], tty=False)
    check(name + ': nothing in a pipe', err == b'' and got == WANT, repr(err[:200]))
    err, got = run(tool, ['--progress'], tty=False)
    check(name + ': --progress into a pipe', b' read, ' in err and err.endswith(b'\r\x1b[K'), repr(err[:200]))
    t0 = time.monotonic()
    err, got = run(tool, [], tty=True, slow=False)
    took = time.monotonic() - t0
    # a job that ran past the one-second threshold (a sanitizer build on a busy machine) is
    # no short job: then only its output is checked
    check(name + ': nothing for a short job (%.2f s)' % took,
          got == WANT and (err == b'' or took >= 1.0), repr(err[:200]))
done('the progress line')
