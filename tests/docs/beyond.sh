#!/usr/bin/env bash
# README.md's "Beyond one machine" block, run as written in a temp dir holding hosts made
# from integer folded fixtures (pprof counts are integers): the staged merge (racks, regions, world) must equal one
# merge of every host, and its pprof must read back to the same stacks. Then its second
# block, the Pyroscope uploads, against a local HTTP server standing in for
# http://pyroscope:4040: each request must be a POST to /ingest with the README's
# parameters, the folded file as a text/plain body and the pprof file as the multipart part
# "profile", byte for byte. (No Pyroscope here: what it makes of them is not tested.)
# Usage: beyond.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
export PATH="$build/tools:$PATH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^## Beyond one machine/ {s = 1} s && /^```sh$/ {c = 1; next} c && /^```$/ {exit} c' \
	"$src/README.md" >"$tmp/block.sh"
grep -q flame-merge "$tmp/block.sh" || { echo "FAIL: no block read from README.md"; exit 1; }
cd "$tmp" || exit 1
i=0
for rack in eu-rack1 eu-rack2 us-rack1; do
	mkdir "$rack"
	for f in host1 host3 before after load-before; do
		i=$((i + 1)); cp "$src/fixtures/diff/$f.folded" "$rack/host$i.folded"
	done
done
bash -e block.sh || { echo "FAIL: the README block failed"; exit 1; }
fail=0
flame-merge */host*.folded -o once.folded
cmp -s world.folded once.folded || { echo "FAIL: staged merge differs from one merge"; diff once.folded world.folded | head; fail=1; }
flame-collapse world.pb.gz | cmp -s - once.folded || { echo "FAIL: world.pb.gz reads back differently"; fail=1; }
[ -s once.folded ] || { echo "FAIL: empty merge"; fail=1; }

# the uploads: a server that records each request (method, path, query, type, body)
awk '/^## Beyond one machine/ {s = 1} s && /^```sh$/ {c++; if (c == 2) {p = 1; next}}
	p && /^```$/ {exit} p' "$src/README.md" >upload.sh
grep -q 'pyroscope:4040/ingest' upload.sh || { echo "FAIL: no upload block read from README.md"; exit 1; }
command -v curl >/dev/null || { echo "FAIL: no curl"; exit 1; }
python3 - >server.log 2>&1 <<'PY' &
import http.server, json, os
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        n = len([f for f in os.listdir('.') if f.startswith('req') and f.endswith('.json')])
        open('req%d.body' % n, 'wb').write(body)
        json.dump({'method': 'POST', 'path': self.path, 'type': self.headers.get('Content-Type')},
                  open('req%d.json' % n, 'w'))
        self.send_response(200); self.end_headers(); self.wfile.write(b'ok')
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(('127.0.0.1', 0), H)
open('port.tmp', 'w').write(str(s.server_address[1])); os.rename('port.tmp', 'port')
s.serve_forever()
PY
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 600); do [ -f port ] && break; sleep 0.05; done  # up to 30 s on a busy machine
sed "s|http://pyroscope:4040|http://127.0.0.1:$(cat port)|" upload.sh >upload-local.sh
bash -e upload-local.sh >/dev/null || { echo "FAIL: the README's upload block failed"; cat server.log; fail=1; }
python3 - <<'PY' || fail=1
import email, json, sys, time, urllib.parse
def req(i):
    return json.load(open('req%d.json' % i)), open('req%d.body' % i, 'rb').read()
bad = []
now = time.time()
for i, (fmt, src) in enumerate((('folded', 'world.folded'), ('pprof', 'world.pb.gz'))):
    try:
        r, body = req(i)
    except OSError:
        bad.append('request %d (%s) never arrived' % (i + 1, fmt))
        continue
    u = urllib.parse.urlsplit(r['path'])
    q = dict(urllib.parse.parse_qsl(u.query))
    if u.path != '/ingest' or q.get('name') != 'myapp.cpu' or q.get('format') != fmt:
        bad.append('%s: %s' % (fmt, r['path']))
    if not (q.get('from', '').isdigit() and q.get('until', '').isdigit() and
            int(q['until']) - int(q['from']) == 60 and abs(int(q['until']) - now) < 600):
        bad.append('%s: from/until %s' % (fmt, u.query))
    want = open(src, 'rb').read()
    if fmt == 'folded':
        if r['type'] != 'text/plain' or body != want:
            bad.append('folded: type %s, body %d bytes of %d' % (r['type'], len(body), len(want)))
    else:
        msg = email.message_from_bytes(b'Content-Type: ' + r['type'].encode() + b'\r\n\r\n' + body)
        parts = {p.get_param('name', header='content-disposition'): p.get_payload(decode=True)
                 for p in msg.get_payload()} if msg.is_multipart() else {}
        if not r['type'].startswith('multipart/form-data') or parts.get('profile') != want:
            bad.append('pprof: type %s, parts %s' % (r['type'], list(parts)))
for b in bad:
    print('FAIL: upload:', b)
sys.exit(1 if bad else 0)
PY
[ $fail -eq 0 ] && echo "ok: the staged merge of $i hosts equals one merge; its pprof reads back; the Pyroscope uploads send both files as the README says"
exit $fail
