# flame-collapse reads flame-render's frame lines itself once libxml2 has read <g id="fr">
# (parse/svg-fast.c); any line it does not take goes to libxml2. Whatever the lines
# hold, the result (stacks, or the error with its line number) must equal libxml2's alone,
# which reads the same document when the group's tag does not match ("<g  id=...").
printf 'main;a&amp;b;<x> "q" 3\nmain;caf\xc3\xa9;\xe2\x82\xac 2\nmain;t\tab 1\nother;x_[k] 4\nz 1\n' > in.folded
flame-render --minwidth 0 in.folded > base.svg
flame-render --minwidth 0 --factor 0.5 "$FIXTURES/render/hostile.folded" > hostile.svg
cp "$FIXTURES"/render/results/{merge,diff,java,latin1,hostile,fractional-factor}.svg .
# line L of base.svg is a frame; each case rewrites it (sed) or cuts the file
L=$(grep -n '<title>main (' base.svg | cut -d: -f1)
n=0
check() { # NAME FILE
  sed 's/<g id="fr"/<g  id="fr"/' "$2" > slow.svg
  fast=$(flame-collapse --format svg "$2" 2>&1; echo "exit $?")
  slow=$(flame-collapse --format svg slow.svg 2>&1; echo "exit $?")
  slow=${slow//slow.svg/$2}
  if [ "$fast" = "$slow" ]; then echo "$1: same ($(echo "$fast" | tail -2 | head -1 | cut -c1-70))"
  else echo "$1: DIFFERS"; diff <(echo "$fast") <(echo "$slow") | head -5; fi
}
for f in merge diff java latin1 hostile fractional-factor; do check "$f" "$f.svg"; done
check "hostile --factor" hostile.svg
check plain base.svg
case_() { n=$((n + 1)); sed "${L}s$1" base.svg > c$n.svg; check "$2" c$n.svg; }
case_ '/<title>main/<title>m\&bogus;ain/' 'undeclared entity'
case_ '/<title>main/<title>m\&#0;ain/' 'invalid character reference'
case_ '/<title>main/<title>m\&#x1F600;ain/' 'astral character reference'
case_ '/<title>main/<title>m]]>ain/' ']]> in text'
case_ '/<title>main/<title>m\x01ain/' 'control byte'
case_ '/<title>main/<title>m\xc3ain/' 'invalid UTF-8'
case_ '/<title>main/<title>m\xed\xa0\x80ain/' 'surrogate'
case_ '/<title>main/<title>m\rain/' 'carriage return'
case_ '/ x="/ x="1" x="/' 'duplicate attribute'
case_ '/ y="/\ty="/' 'tab between attributes'
case_ '/ fill="/ onclick="x" fill="/' 'other attribute'
case_ '/<\/title>/<\/titl>/' 'mismatched end tag'
case_ '/<\/rect>/<\/rect><rect x="1"\/>/' 'second element on the line'
case_ '/$/ <!-- c -->/' 'comment after a frame'
case_ '/ width="/ data-raw="n%41me\&amp;" width="/' 'data-raw with a reference'
head -c $(( $(head -n $((L + 2)) base.svg | wc -c) + 25 )) base.svg > cut.svg
check 'cut inside a frame line' cut.svg
printf '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY e "ee"><!ATTLIST rect data-raw CDATA "dflt">]>\n' > dtd.svg
tail -n +3 base.svg | sed "$((L - 2))s/<title>main/<title>m\&e;ain/" >> dtd.svg
check 'declared entity and attribute default' dtd.svg
