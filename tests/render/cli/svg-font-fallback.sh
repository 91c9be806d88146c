# the SVG names a generic family after the font, so a browser without
# Verdana draws a sans-serif font rather than its default serif one; a list that already
# ends in a generic family is kept as given (the error picture too)
f() { grep -o 'font-family="[^"]*"' | head -1; }
flame-render "$FIXTURES/render/merge.folded" | f
flame-render --fonttype 'Courier New' "$FIXTURES/render/merge.folded" | f
flame-render --fonttype 'Menlo, monospace' "$FIXTURES/render/merge.folded" | f
flame-render --fonttype 'Verdana,Sans-Serif' "$FIXTURES/render/merge.folded" | f
flame-render "$FIXTURES/render/invalid.folded" 2>/dev/null | f
