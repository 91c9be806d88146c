"""perf's labels from a recording and from its text agree: for each committed perf.data
recording, the page's weight per label set (comm, thread) written from the recording
itself equals the page's from `perf script -i` of it (flame-render -o x.html, read back by
tests/html/decode.py). Skips (77) without perf, or without -Dperfdata.
Usage: perfdata.py BUILD_DIR FIXTURES_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "html"))
import decode  # noqa: E402

build, fixtures = sys.argv[1], sys.argv[2]
render = os.path.join(build, "tools", "flame-render")
if not shutil.which("perf"):
    print("perf is missing")
    sys.exit(77)
tmp = tempfile.mkdtemp(prefix="flame-labels-perfdata-")
failures = checks = 0


def sets_of(path):
    """{(comm, thread): weight} of the page of `path`."""
    page = os.path.join(tmp, "page.html")
    subprocess.run([render, "-q", "-o", page, path], check=True)
    with open(page, "rb") as f:
        d = decode.decode(f.read())
    out = {}
    for _, s, w in (d["labels"] or {"units": []})["units"]:
        key = tuple(sorted(d["labels"]["sets"][s]))
        out[key] = out.get(key, 0) + w
    return out


for name in ("static.data", "static-pipe.data"):
    data = os.path.join(fixtures, "perfdata", name)
    text = os.path.join(tmp, name + ".txt")
    with open(text, "wb") as f:
        r = subprocess.run(["perf", "script", "-i", data], stdout=f, stderr=subprocess.DEVNULL)
    if r.returncode or os.path.getsize(text) == 0:
        print("perf script cannot read %s: skipped" % name)
        continue
    try:
        a = sets_of(data)
    except subprocess.CalledProcessError:
        print("flame-render does not read perf.data (built without -Dperfdata)")
        sys.exit(77)
    b = sets_of(text)
    checks += 1
    ok = a == b and len(a) > 0
    failures += not ok
    print(("ok   " if ok else "FAIL ") + "%s: %d label sets, the same from the recording and its text%s"
          % (name, len(a), "" if ok else ": %r vs %r" % (a, b)))
if not checks:
    sys.exit(77)
print("%d/%d checks passed" % (checks - failures, checks))
sys.exit(1 if failures else 0)
