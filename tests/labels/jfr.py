"""JFR's thread labels from a recording and from its `jfr print` text agree: the page's
weight per label set ({thread}) written from the binary recording
(fixtures/corpus/jfr-binary/hot.jfr.gz, three chunks) equals the page's from the text of
`jfr print --stack-depth 1024 --events jdk.ExecutionSample` of it (flame-render -o x.html,
read back by tests/html/decode.py). Skips (77) without the JDK's jfr.
Usage: jfr.py BUILD_DIR FIXTURES_DIR"""
import gzip
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "html"))
import decode  # noqa: E402

build, fixtures = sys.argv[1], sys.argv[2]
render = os.path.join(build, "tools", "flame-render")
if not shutil.which("jfr"):
    print("the JDK's jfr is missing")
    sys.exit(77)
tmp = tempfile.mkdtemp(prefix="flame-labels-jfr-")


def sets_of(path):
    """{(labels...): weight} of the page of `path`."""
    page = os.path.join(tmp, "page.html")
    subprocess.run([render, "-q", "-o", page, path], check=True)
    with open(page, "rb") as f:
        d = decode.decode(f.read())
    out = {}
    for _, s, w in (d["labels"] or {"units": []})["units"]:
        key = tuple(sorted(d["labels"]["sets"][s]))
        out[key] = out.get(key, 0) + w
    return out


rec = os.path.join(tmp, "hot.jfr")
with gzip.open(os.path.join(fixtures, "corpus", "jfr-binary", "hot.jfr.gz")) as f, open(rec, "wb") as g:
    g.write(f.read())
text = os.path.join(tmp, "hot.txt")
with open(text, "wb") as f:
    r = subprocess.run(["jfr", "print", "--stack-depth", "1024", "--events", "jdk.ExecutionSample",
                        rec], stdout=f, stderr=subprocess.DEVNULL)
if r.returncode or os.path.getsize(text) == 0:
    print("jfr print cannot read hot.jfr")
    sys.exit(77)
a, b = sets_of(rec), sets_of(text)
ok = a == b and len(a) > 1
print(("ok   " if ok else "FAIL ") + "hot.jfr: %d thread label sets, the same from the recording and its text%s"
      % (len(a), "" if ok else ": %r vs %r" % (a, b)))
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(0 if ok else 1)
