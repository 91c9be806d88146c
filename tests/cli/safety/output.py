#!/usr/bin/env python3
"""Output and process safety of the tools: what -o FILE and stdout do when the
run is killed, interrupted, fails, meets a full disk or a reader that goes away.

Mid-write is made certain, not hoped for: each tool runs with a shim preloaded
(stop-after-write.c) that stops the process (SIGSTOP) right after its first write to the
directory of FILE. The test waits for that stop, checks FILE is still the old one, then
sends the signal (and SIGCONT). So every signal case lands while the output is half
written, whatever the machine's speed, also for the tools that write their output in one
call (flame-diff, flame-merge), which leave no window a watcher could count on.

  - SIGKILL mid-write: FILE as it was, nothing beside it (the temp file is unnamed,
    O_TMPFILE: the directory never shows it, which is checked while the tool is stopped).
  - SIGINT, SIGTERM, SIGHUP mid-write: the same, and the tool dies of the signal.
  - an error (bad input, a missing input, a usage error) never touches an existing FILE.
  - -o /dev/full and > /dev/full: "write error" naming the file (<stdout>), exit 1.
  - stdout closed early (| head -1): nothing on stderr, exit 141 (killed by SIGPIPE, as
    cat or grep; with SIGPIPE ignored, EPIPE ends the run quietly with status 141 too).
Usage: output.py BUILD_DIR SHIM"""
import os
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib'))
from checks import check, done  # noqa: E402

build = os.path.abspath(sys.argv[1])
shim = os.path.abspath(sys.argv[2])
tools = {t: os.path.join(build, 'tools', t)
         for t in ('flame-collapse', 'flame-render', 'flame-diff', 'flame-merge')}
work = tempfile.mkdtemp()

# 400 k distinct stacks: folded output of ~12 MB, written in 256 KiB blocks
big = os.path.join(work, 'big.folded')
with open(big, 'w') as f:
    for i in range(400000):
        f.write('main;mod%d;fn%d;leaf%d %d\n' % (i % 97, i % 1013, i, i % 7 + 1))
OLD = b'the old output\n'


def fresh_dir(name, tool):
    d = os.path.join(work, name)
    os.mkdir(d)
    target = os.path.join(d, 'out.svg' if tool == 'flame-render' else 'out.folded')
    with open(target, 'wb') as f:
        f.write(OLD)
    os.chmod(target, 0o600)
    return d, target


def temp_fd(pid, d):
    """(path of /proc/PID/fd/N, size) of the tool's open file in directory d other than
    the target, or None."""
    try:
        fds = os.listdir('/proc/%d/fd' % pid)
    except OSError:
        return None
    for fd in fds:
        p = '/proc/%d/fd/%s' % (pid, fd)
        try:
            link = os.readlink(p)
        except OSError:
            continue
        if link.startswith(d + '/'):
            try:
                return p, link, os.stat(p).st_size
            except OSError:
                continue
    return None


def default_signals():
    """The tool starts with INT, TERM and HUP at their defaults even when this test runs
    where they are ignored (a background job of a shell): the tool keeps an ignored
    signal ignored, by design, and would then rightly finish its output."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def stop_mid_write(cmd, d):
    """Start cmd with the shim and wait until it stops after its first write to d (the
    test's timeout bounds the wait); (process, link of its file there) or (process, None)
    when it ended first."""
    env = dict(os.environ, LD_PRELOAD=shim, FLAME_TEST_STOP_DIR=d)
    # gcc's ASan (a shared runtime) wants to be first; clang's is in the executable
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0'
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                         preexec_fn=default_signals)
    _, status = os.waitpid(p.pid, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        t = temp_fd(p.pid, d)
        return p, t[1] if t and t[2] > 0 else None
    p.returncode = os.waitstatus_to_exitcode(status)  # ended: reaped here
    return p, None


def signal_case(tool, args, sig):
    name = '%s %s' % (tool, signal.Signals(sig).name)
    d, target = fresh_dir('%s-%s' % (tool, signal.Signals(sig).name), tool)
    p, link = stop_mid_write([tools[tool], *args, '-o', target], d)
    check(name + ': caught mid-write', link is not None, '(it never stopped after a write to '
          'the directory of FILE: exit %s)' % p.returncode)
    if link is None:
        if p.returncode is None:
            p.kill()
            p.communicate()
        return
    check(name + ': the temp file is unnamed (O_TMPFILE)', '(deleted)' in link and
          sorted(os.listdir(d)) == [os.path.basename(target)], '%s, %s' % (link, os.listdir(d)))
    check(name + ': FILE untouched while writing', open(target, 'rb').read() == OLD)
    os.kill(p.pid, sig)
    os.kill(p.pid, signal.SIGCONT)
    _, err = p.communicate(timeout=60)
    check(name + ': died of the signal', p.returncode == -sig, 'exit %s' % p.returncode)
    check(name + ': FILE as it was', open(target, 'rb').read() == OLD)
    check(name + ': FILE keeps its mode', os.stat(target).st_mode & 0o777 == 0o600)
    check(name + ': nothing beside FILE', sorted(os.listdir(d)) == [os.path.basename(target)],
          str(os.listdir(d)))
    check(name + ': no message', sig == signal.SIGKILL or err == b'', repr(err[:200]))


for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal_case('flame-collapse', ['-j', '1', big], sig)
signal_case('flame-merge', [big, big], signal.SIGKILL)
signal_case('flame-diff', ['--format', 'folded', big, big], signal.SIGINT)
signal_case('flame-render', ['--minwidth', '0', big], signal.SIGTERM)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return p.returncode, p.stdout, p.stderr


# errors never clobber an existing FILE
bad = os.path.join(work, 'bad.bin')
with open(bad, 'wb') as f:
    f.write(b'main;a 1\n\x00\x01\x02garbage\n')
for i, (tool, args, code) in enumerate((('flame-collapse', ['--format', 'folded', bad], 1),
                                        ('flame-collapse', [os.path.join(work, 'missing')], 1),
                                        ('flame-render', [bad], 1),
                                        ('flame-diff', [big, bad], 1),
                                        ('flame-merge', [big, bad], 1),
                                        ('flame-collapse', ['--max-inflate', 'x', big], 2))):
    d, target = fresh_dir('err-%d' % i, tool)
    rc, _, err = run([tools[tool], *args, '-o', target])
    what = '%s %s' % (tool, ' '.join(os.path.basename(a) for a in args))
    check(what + ': fails', rc == code, 'exit %d: %r' % (rc, err[:200]))
    check(what + ': FILE as it was', open(target, 'rb').read() == OLD)
    check(what + ': nothing beside FILE', sorted(os.listdir(d)) == [os.path.basename(target)],
          str(os.listdir(d)))

# a full disk: an error naming the file, exit 1
for tool, args in (('flame-collapse', [big]), ('flame-render', [big]),
                   ('flame-diff', ['--format', 'folded', big, big]), ('flame-merge', [big, big])):
    rc, _, err = run([tools[tool], *args, '-o', '/dev/full'])
    check(tool + ' -o /dev/full', rc == 1 and err == (
        '%s: /dev/full: write error: No space left on device\n' % tool).encode(), '%d %r' % (rc, err))
    with open('/dev/full', 'wb') as full:
        p = subprocess.run([tools[tool], *args], stdout=full, stderr=subprocess.PIPE)
    check(tool + ' > /dev/full', p.returncode == 1 and p.stderr == (
        '%s: <stdout>: write error: No space left on device\n' % tool).encode(),
        '%d %r' % (p.returncode, p.stderr))

# stdout closed early: quiet, 141; the same when SIGPIPE is ignored (EPIPE instead)
for tool, args in (('flame-collapse', [big]), ('flame-render', ['--minwidth', '0', big]),
                   ('flame-diff', ['--format', 'folded', big, big]), ('flame-merge', [big, big])):
    for ign in ('', "trap '' PIPE; "):
        before = set(os.listdir(work))
        cmd = '%s"$0" "$@" | head -1 >/dev/null; echo "${PIPESTATUS[0]}" >&2' % ign
        p = subprocess.run(['bash', '-c', cmd, tools[tool], *args], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=work)
        what = '%s | head -1%s' % (tool, ' (SIGPIPE ignored)' if ign else '')
        check(what + ': exit 141, nothing on stderr', p.stderr == b'141\n', repr(p.stderr[:300]))
        check(what + ': no temp files', set(os.listdir(work)) == before)

subprocess.run(['rm', '-rf', work])
done('output and process safety')
