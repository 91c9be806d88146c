"""A pprof profile's label slices in the page equal flame-collapse --tag: for every label
value (KEY=VALUE) of a corpus profile with labels, the stacks of the page's units under a
set holding it (flame-render -o x.html, read back by tests/html/decode.py) are, as folded
text, what flame-collapse --tag 'KEY=^VALUE$' prints for the same file; and the whole page
is the whole profile.
Usage: slices.py BUILD_DIR FIXTURES_DIR"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "html"))
import decode  # noqa: E402

build, fixtures = sys.argv[1], sys.argv[2]
tool = lambda name: os.path.join(build, "tools", name)
tmp = tempfile.mkdtemp(prefix="flame-labels-")
failures = checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def run(args):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE).stdout


def folded(text):
    return sorted(l for l in text.splitlines() if l and not l.startswith(b"#"))


def slice_stacks(d, keep):
    """The page's stacks of the units whose set `keep` takes, as sorted folded lines."""
    paths, path = {}, []
    for i, dep in enumerate(d["depth"]):
        del path[dep:]
        path.append(d["names"][d["name"][i]])
        paths[i] = b";".join(path[1:])
    sums = {}
    for node, s, w in d["labels"]["units"]:
        if keep(d["labels"]["sets"][s]):
            sums[paths[node]] = sums.get(paths[node], 0) + w
    return sorted(p + b" " + str(w).encode() for p, w in sums.items() if w)


profile = os.path.join(fixtures, "corpus", "pprof", "go-cpu-labels.pb.gz")
page = os.path.join(tmp, "page.html")
run([tool("flame-render"), "-o", page, profile])
with open(page, "rb") as f:
    d = decode.decode(f.read())
check(d["labels"] is not None and len(d["labels"]["sets"]) > 3, "the page has label sets")
whole = folded(run([tool("flame-collapse"), profile]))
check(slice_stacks(d, lambda s: True) == whole, "all units: the whole profile")
values = sorted({kv for s in d["labels"]["sets"] for kv in s})
check(len(values) >= 5, "label values: " + ", ".join((k + b"=" + v).decode() for k, v in values))
for k, v in values:
    want = folded(run([tool("flame-collapse"), "--tag", "%s=^%s$" % (k.decode(), re.escape(v.decode())), profile]))
    got = slice_stacks(d, lambda s: (k, v) in s)
    check(got == want and want, "%s=%s: %d stacks, %d in all" % (k.decode(), v.decode(), len(got),
                                                            sum(int(l.rsplit(b" ", 1)[1]) for l in got)))
print("%d/%d checks passed" % (checks - failures, checks))
sys.exit(1 if failures else 0)
