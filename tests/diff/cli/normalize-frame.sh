# --normalize-frame: the stacks through `handle` are the unit of work (68 before, 113 after
# in before/after.folded): before is scaled by 113/68, so `handle` weighs the same in both.
cp -r "$FIXTURES/diff" d && chmod -R u+w d; d=d
flame-diff --normalize-frame '^handle$' --format folded $d/before.folded $d/after.folded
flame-diff --normalize-frame '^handle$' --top 2 $d/before.folded $d/after.folded
flame-diff --requests 3,4 --format folded $d/before.folded $d/after.folded
