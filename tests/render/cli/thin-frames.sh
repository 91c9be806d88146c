# Frames narrower than a pixel are drawn in paths of their own (class "t"), which the style
# anti-aliases instead of crispEdges, so Chromium shows them faintly instead of dropping them.
printf 'main;a 10000\nmain;b;c 1\n' | flame-render --minwidth 0 > g.svg
grep -o '<path[^>]*class="t"[^>]*' g.svg | sed 's/ d="/ d=/'
grep -c '^<path fill=' g.svg
grep -F '#pic .t {' g.svg
