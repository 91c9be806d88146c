# an SVG whose comments or DOCTYPE (its internal subset) fill more
# than the first 4 KiB before <svg> was not detected; detection now reads past the prolog
frames='<g><title>all (10 samples, 100%)</title><rect x="10" y="50" width="1180" height="15"/></g>
<g><title>&e; (10 samples, 100%)</title><rect x="10" y="34" width="1180" height="15"/></g>'
pad=$(head -c 20000 /dev/zero | tr '\0' x)
open='<svg version="1.1" width="1200" height="100" xmlns="http://www.w3.org/2000/svg">'
printf '<?xml version="1.0"?>\n<!-- %s -->\n<!DOCTYPE svg [ <!ENTITY e "comment"> ]>\n%s\n%s\n</svg>\n' "$pad" "$open" "$frames" > comment.svg
printf '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY e "doctype">\n<!-- %s > -->\n<!ENTITY pad "%s>">\n]>\n%s\n%s\n</svg>\n' "$pad" "$pad" "$open" "$frames" > doctype.svg
# a DOCTYPE larger than the 64 KiB detection reads: told by the DOCTYPE's name
big=$(head -c 70000 /dev/zero | tr '\0' y)
printf '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY e "big">\n<!-- %s -->\n]>\n%s\n%s\n</svg>\n' "$big" "$open" "$frames" > big.svg
for f in comment doctype big; do flame-collapse $f.svg; flame-render $f.svg | grep -c '<title>' ; done
# not an SVG: an XML document with another root after a long comment is still no format
printf '<?xml version="1.0"?>\n<!-- %s -->\n<html><body>x</body></html>\n' "$pad" > page.xml
flame-collapse page.xml
echo "exit $?"
