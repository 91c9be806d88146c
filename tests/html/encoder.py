"""The HTML page's encoder (libflame/write/html.c), read back: for each input, the stacks
the page carries (decoded by decode.py) equal the folded text flame-merge (flame-diff for
two sides) prints for the same input, byte for byte; each name's colour is the SVG's fill
for a frame of that name; title, subtitle, notes and countname come back as given; and no
input text reaches the markup outside the escaped <title>: the data block is base64 alone
and the page has no script end but its own two; a large tree's preview block holds the
nodes its first screen shows, with their subtrees' totals; pages of this layout and of the
one before (data block first) are detected and read back.
Usage: encoder.py BUILD_DIR FIXTURES_DIR"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import decode  # noqa: E402

build, fixtures = sys.argv[1], sys.argv[2]
tool = lambda name: os.path.join(build, "tools", name)
tmp = tempfile.mkdtemp(prefix="flame-html-")
failures = checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def run(args, **kw):
    return subprocess.run(args, check=True, stdout=subprocess.PIPE, **kw).stdout


def page(name, args):
    out = os.path.join(tmp, name + ".html")
    run(args + ["-o", out])
    with open(out, "rb") as f:
        return f.read()


def same_stacks(name, html, folded):
    got = decode.stacks(decode.decode(html))
    # (the folded text's header line says the unit: the page holds it elsewhere)
    want = sorted(l for l in folded.split(b"\n") if l and not l.startswith(b"# countname="))
    check(got == want, "%s: the page's stacks equal the folded text (%d lines)" % (name, len(want)))
    if got != want:
        for a, b in zip(got, want):
            if a != b:
                print("  first difference: page %r, folded %r" % (a, b))
                break


def svg_fills(svg):
    """name -> fill of the SVG's frames (names as the titles print them)."""
    fills = {}
    for fill, title in re.findall(rb'<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*><title>(.*?) \(', svg):
        fills.setdefault(title, fill)
    return fills


r = lambda f: os.path.join(fixtures, "render", f)
d = lambda f: os.path.join(fixtures, "diff", f)

# one profile each: the page's stacks are the merged input's
for f in ["merge.folded", "hostile.folded", "fractional.folded", "java.folded", "chart.folded",
          "go-cpu.pb.gz"]:
    html = page(f, [tool("flame-render"), r(f)])
    same_stacks(f, html, run([tool("flame-merge"), "--format", "folded", r(f)]))
# siblings by weight (the node tree's walk instead of the stacks' flow)
html = page("weight", [tool("flame-render"), "--sort", "weight", r("java.folded")])
same_stacks("java.folded --sort weight", html, run([tool("flame-merge"), "--format", "folded", r("java.folded")]))
# three columns, and a diff of two files
html = page("diff3", [tool("flame-render"), r("diff.folded")])
same_stacks("diff.folded (3 columns)", html, open(r("diff.folded"), "rb").read().replace(b"\r", b""))
html = page("diff2", [tool("flame-diff"), d("before.folded"), d("after.folded")])
same_stacks("flame-diff before after", html,
            run([tool("flame-diff"), "--format", "folded", d("before.folded"), d("after.folded")]))
check(decode.decode(html)["meta"]["differential"] == b"1", "flame-diff's page is differential")
html = page("merged", [tool("flame-merge"), d("host1.folded"), d("host2.folded")])
same_stacks("flame-merge host1 host2", html,
            run([tool("flame-merge"), "--format", "folded", d("host1.folded"), d("host2.folded")]))

# a profile of 20,000 distinct stacks, deep and wide, with counts past 2^32
big = os.path.join(tmp, "big.folded")
with open(big, "w") as f:
    for s in range(20000):
        f.write(";".join(["root"] + ["f%d" % (s % (k + 7)) for k in range(s % 37)]) + " %d\n"
                % (s * 1000003 + (5 << 32 if s % 97 == 0 else 1)))
html = page("big", [tool("flame-render"), "--minwidth", "5", big])
same_stacks("20,000 stacks (no --minwidth pruning)", html,
            run([tool("flame-merge"), "--format", "folded", big]))

# colours: each name's is the SVG's, in the default mode and with --hash and a palette
def paths_totals(d):
    """Each node's path of names and total, in the tree's order."""
    out, path, tot, parent, stack = [], [], [], [], []
    for i, dep in enumerate(d["depth"]):
        del path[dep:]
        del stack[dep:]
        path.append(d["names"][d["name"][i]])
        parent.append(stack[-1] if stack else -1)
        stack.append(i)
        out.append(tuple(path))
        tot.append(d["self0"][i])
    for i in range(len(tot) - 1, 0, -1):
        tot[parent[i]] += tot[i]
    return out, tot, parent


def check_preview():
    """A page of 262,144 nodes or more carries a preview: the nodes under every node at
    least 1/16384 of the root wide, in the tree's order, each with its subtree's total;
    the names it uses with their colours. A smaller page has none."""
    import random
    rnd = random.Random(29)
    vocab = ["fn_%d" % k for k in range(3000)]
    lines = ["main;hot;loop %d" % 500000]
    for k in range(20000):
        tail = ";".join(rnd.choice(vocab) for _ in range(14))
        lines.append("main;mod_%d;%s %d" % (k % 40, tail, 1 + rnd.randrange(30)))
    src = os.path.join(tmp, "preview.folded")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    html = page("preview", [tool("flame-render"), src])
    full, pv = decode.decode(html), decode.decode(html, decode.PREVIEW_RE)
    fp, ft, fparent = paths_totals(full)
    pp, pt, _ = paths_totals(pv)
    root = ft[0]
    want = [i for i in range(len(fp)) if i == 0 or ft[fparent[i]] * 16384 >= root]
    check(len(fp) >= 262144 and len(pp) < len(fp) // 10, "preview: %d of %d nodes" % (len(pp), len(fp)))
    check(pp == [fp[i] for i in want], "preview: the nodes under the wide ones, in the tree's order")
    check(pt == [ft[i] for i in want], "preview: each node's total is its subtree's")
    colors = dict(zip(full["names"], full["colors"]))
    check(sorted(pv["names"]) == sorted(set(n for p in pp for n in p[-1:])) and
          all(colors[n] == c for n, c in zip(pv["names"], pv["colors"])) and pv["meta"] == full["meta"],
          "preview: the header, and the names it uses with their colours")
    small = page("no-preview", [tool("flame-render"), r("java.folded")])
    check(b"id=\"flame-preview\"" not in small and b"id=\"flame-preview\"" not in page("diff-no-preview", [tool("flame-diff"), src, src]),
          "no preview in a small page nor in a diff")
    got = run([tool("flame-collapse"), os.path.join(tmp, "preview.html")])
    check(sorted(got.split(b"\n")) == sorted(run([tool("flame-merge"), src]).split(b"\n")),
          "the page with a preview reads back as its stacks")



def check_layouts():
    """Both layouts are read back as pages: this one (the data block after the script, past
    the first 64 KiB, the head's generator tag) and the one before it (the block before the
    script, within 64 KiB, no tag); a page with neither is not taken for one."""
    src = r("java.folded")
    html = page("layout", [tool("flame-render"), src])
    block = decode.DATA_RE.search(html).group(0)
    gen = b'<meta name="generator" content="flame-render">\n'
    check(html.index(block) > 65536 and gen in html, "the data block after the script, the generator tag in the head")
    older = html.replace(gen, b"").replace(block + b"\n", b"").replace(b'<div id="tip" hidden></div>\n',
                                                                    b'<div id="tip" hidden></div>\n' + block + b"\n")
    neither = html.replace(gen, b"")
    want = run([tool("flame-merge"), src])
    for name, text in (("older", older), ("neither", neither)):
        with open(os.path.join(tmp, name + ".html"), "wb") as f:
            f.write(text)
    check(older.index(block) < 65536 and run([tool("flame-collapse"), os.path.join(tmp, "older.html")]) == want,
          "a page of the layout before (the block first, no generator tag) reads back")
    r2 = subprocess.run([tool("flame-collapse"), os.path.join(tmp, "neither.html")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(r2.returncode != 0 or r2.stdout != want, "a page with neither the tag nor the block in its head is not read as one")


check_layouts()
check_preview()
for opts in [[], ["--hash"], ["--colors", "java"]]:
    html = page("colours", [tool("flame-render")] + opts + [r("java.folded")])
    svg = run([tool("flame-render"), "--minwidth", "0"] + opts + [r("java.folded")])
    dd = decode.decode(html)
    fills = svg_fills(svg)
    bad = [n for i, n in enumerate(dd["names"]) if n in fills and n != b"all" and
           fills[n] != b"#%02x%02x%02x" % dd["colors"][i]]
    check(len(fills) > 3 and not bad, "colours per name equal the SVG's %s (%d names)" % (opts, len(fills)))
    # the root is the SVG's nameless frame: its colour is the third of the header's
    check(dd["meta"]["colors"].split(b" ")[2] == fills[b"all"], "the root's colour is the SVG's %s" % opts)

# hostile texts: back as given, never markup
title = "</title><script>alert(1)</script>"
sub = "\"><img src=x onerror=alert(1)> </script><!-- \u2028\u2029"
notes = "--><script>alert(2)</script>"
html = page("hostile-texts", [tool("flame-render"), "--title", title, "--subtitle", sub, "--notes", notes,
                              "--countname", "<b>ticks</b>", r("hostile.folded")])
m = decode.decode(html)["meta"]
check(m["title"] == title.encode() and m["subtitle"] == sub.encode() and m["notes"] == notes.encode()
      and m["countname"] == b"<b>ticks</b>", "title, subtitle, notes and countname come back as given")
check(re.fullmatch(rb"[A-Za-z0-9+/=]*", decode.data_of(html)) is not None, "the data block is base64 alone")
check(html.count(b"</script") == 2 and html.count(b"<script") == 2, "the page has its own two scripts only")
markup = re.sub(rb"<title>.*?</title>", b"", html, flags=re.S)
check(b"<!--" not in html and "\u2028".encode() not in html and b"alert" not in markup,
      "no comment opener, U+2028 or input text in the markup but the escaped <title>")
check(b"<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" in html.replace(b"\n", b""),
      "the static <title> is escaped")

print("%d checks, %d failed" % (checks, failures))
sys.exit(1 if failures or checks == 0 else 0)
