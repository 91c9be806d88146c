# an entity whose text is not in the document (external: never loaded;
# or declared only by an external DTD) silently became an empty frame name; it is an
# error naming file:line and the entity
head='<?xml version="1.0"?>'
open='<svg version="1.1" width="1200" height="100" xmlns="http://www.w3.org/2000/svg">
<g><title>all (10 samples, 100%)</title><rect x="10" y="50" width="1180" height="15"/></g>'
printf '%s\n<!DOCTYPE svg [\n<!ENTITY e SYSTEM "file:///etc/hostname">\n]>\n%s\n<g><title>&e; (10 samples, 100%%)</title><rect x="10" y="34" width="1180" height="15"/></g>\n</svg>\n' "$head" "$open" > system.svg
flame-collapse system.svg
echo "exit $?"
printf '%s\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n%s\n<g><title>a&nbsp;b (10 samples, 100%%)</title><rect x="10" y="34" width="1180" height="15"/></g>\n</svg>\n' "$head" "$open" > undeclared.svg
flame-collapse undeclared.svg
echo "exit $?"
# internal entities and the predefined ones still read as their text
printf '%s\n<!DOCTYPE svg [\n<!ENTITY e "internal">\n]>\n%s\n<g><title>&e;&amp;&lt; (10 samples, 100%%)</title><rect x="10" y="34" width="1180" height="15"/></g>\n</svg>\n' "$head" "$open" > internal.svg
flame-collapse internal.svg
