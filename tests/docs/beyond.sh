#!/usr/bin/env bash
# README.md's "Beyond one machine" block, run as written in a temp dir holding hosts made
# from integer folded fixtures (pprof counts are integers): the staged merge (racks, regions, world) must equal one
# merge of every host, and its pprof must read back to the same stacks.
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
[ $fail -eq 0 ] && echo "ok: the staged merge of $i hosts equals one merge; its pprof reads back"
exit $fail
