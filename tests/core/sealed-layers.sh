#!/bin/bash
# The sealed tree, checked on the sources: struct flame_tree (core/tree-private.h) is seen
# only by core/ (and the core's white-box test);
# spilling (core/spill.h) only by core/tree.c, and core/spill.c does not know the tree
# (tree.c -> spill.c, one way); parsers add stacks only through core/sink.h; threads are
# started only by core/pool.c.
# Usage: sealed-layers.sh SOURCE_ROOT
set -u
cd "$1" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
checked=0

# who sees struct flame_tree
while read -r f; do
	checked=$((checked + 1))
	case "$f" in
	libflame/core/*|tests/core/test-core.c) ;;
	*) bad "$f includes core/tree-private.h (use core/tree.h)" ;;
	esac
done < <(grep -rl --include='*.[ch]' 'tree-private\.h"' libflame tools tests)

# who sees spilling
while read -r f; do
	checked=$((checked + 1))
	case "$f" in
	libflame/core/tree.c|libflame/core/spill.c) ;;
	*) bad "$f includes core/spill.h (spilling is core/tree.c's business)" ;;
	esac
done < <(grep -rl --include='*.[ch]' '[/"]spill\.h"' libflame tools tests)
grep -q 'tree' <(grep '#include' libflame/core/spill.c) && bad "core/spill.c includes a tree header"
grep -q 'flame__tree_' libflame/core/spill.c && bad "core/spill.c calls into the tree"

# parsers: one way in
for f in libflame/parse/*.c; do
	checked=$((checked + 1))
	# (the tree's fields cannot be reached from here: the compiler refuses)
	if grep -nE 'flame__tree_(add_ids|append_sorted_ids|intern|maybe_spill|rescale)\b' "$f"; then
		bad "$f adds to the tree past core/sink.h"
	fi
done

# threads: one pool (core/pool.c) starts them all
while read -r f; do
	checked=$((checked + 1))
	[ "$f" = libflame/core/pool.c ] || bad "$f starts threads of its own (use core/pool.h)"
done < <(grep -rl --include='*.[ch]' 'pthread_create' libflame tools)

[ "$checked" -ge 8 ] || bad "checked $checked files: the scan found nothing"
[ "$fail" = 0 ] && echo "ok: $checked files"
exit $fail
