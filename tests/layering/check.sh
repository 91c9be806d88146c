#!/bin/bash
# The layering of libflame/ (libflame/README.md), checked from the #include lines:
#   core <- parse <- read <- xform <- write <- request
# A file may include headers of its own layer and of the layers its row below allows;
# flame.h everywhere. parse/, xform/ and write/ do
# not include one another. tools/ include only libflame/flame.h, their own headers and
# system headers. Includes are not calls, so also: a flame__ function declared in a
# header of one layer is defined in that layer (a core/ header whose function lives in
# xform/ lets parse/ call up), and every call of a flame_ or flame__ function defined under
# libflame/ is made from a layer that may reach the layer defining it (a public flame_
# function is declared in flame.h, which every file includes: only the call shows that
# write/ reaches into xform/). Usage: check.sh SOURCE_ROOT. Prints each violation as
# FILE:LINE.
root=${1:?usage: check.sh SOURCE_ROOT}
cd "$root" || exit 1

# allowed FROM TO: 0 when a file of layer FROM may include a header of layer TO
allowed() {
	case "$1:$2" in
	core:core) return 0 ;;
	parse:core | parse:parse) return 0 ;;
	read:core | read:parse | read:read) return 0 ;;
	xform:core | xform:xform) return 0 ;;
	write:core | write:write) return 0 ;;
	request:core | request:parse | request:read | request:xform | request:write | \
	request:request) return 0 ;;
	esac
	return 1
}

# the rule itself: what must stay refused (a check that allowed everything would pass)
for bad in core:parse parse:read parse:xform read:xform xform:parse xform:read xform:write \
	write:parse write:xform write:read write:request; do
	if allowed "${bad%%:*}" "${bad##*:}"; then
		echo "check.sh: the rule lets ${bad%%:*}/ include ${bad##*:}/"
		exit 1
	fi
done

bad=0
checked=0
while IFS= read -r hit; do
	file=${hit%%:*}
	rest=${hit#*:}
	line=${rest%%:*}
	inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"${rest#*:}")
	[ -n "$inc" ] || continue
	checked=$((checked + 1))
	from=${file#libflame/}
	from=${from%%/*}
	# the path the include names, from the including file's directory
	path=$(realpath -m --relative-to=. "$(dirname "$file")/$inc")
	case "$path" in
	libflame/flame.h) continue ;;
	libflame/*/*) to=${path#libflame/} to=${to%%/*} ;;
	*) to="outside libflame/ ($path)" ;;
	esac
	if [ "$from" = "${file#libflame/}" ]; then # a file at the top (flame.h)
		echo "$file:$line: includes $inc: nothing belongs beside flame.h"
		bad=$((bad + 1))
	elif ! allowed "$from" "$to"; then
		echo "$file:$line: $from/ includes $inc ($to/): not a layer below it"
		bad=$((bad + 1))
	fi
done < <(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include' libflame)

while IFS= read -r hit; do
	file=${hit%%:*}
	rest=${hit#*:}
	line=${rest%%:*}
	text=${rest#*:}
	checked=$((checked + 1))
	q=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$text")
	a=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' <<<"$text")
	if [ -n "$q" ]; then
		[ "$q" = libflame/flame.h ] && continue
		[[ "$q" != */* && -f "tools/$q" ]] && continue # the tools' own headers
		echo "$file:$line: includes \"$q\": tools use only libflame/flame.h"
		bad=$((bad + 1))
	elif [[ "$a" == libflame/* && "$a" != libflame/flame.h ]]; then
		echo "$file:$line: includes <$a>: tools use only libflame/flame.h"
		bad=$((bad + 1))
	fi
done < <(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include' tools)

# each top-level flame_ or flame__ function: "decl NAME FILE LINE" when the statement ends
# in ';', "def NAME FILE LINE" when a body follows (static ones are the file's own business)
functions() {
	find libflame -name '*.[ch]' | sort | xargs awk '
	FNR == 1 { name = "" }
	function done_if() {
		if ($0 ~ /;[[:space:]]*$/) { print "decl", name, FILENAME, at; name = "" }
		else if ($0 ~ /\{/) { print "def", name, FILENAME, at; name = "" }
	}
	name != "" { done_if(); next }
	/^[A-Za-z_]/ && !/^(static|typedef|extern|#)/ &&
	match($0, /[*[:space:]]flame_[A-Za-z0-9_]+\(/) {
		name = substr($0, RSTART + 1, RLENGTH - 2)
		at = FNR
		done_if()
	}'
}
fns=$(functions)

# each call "call NAME FILE LINE": NAME( in a function body or a macro, outside comments,
# strings and character constants (a line that starts a top-level declaration or
# definition names the function it declares, and is not a call)
calls() {
	find libflame -name '*.[ch]' | sort | xargs awk '
	FNR == 1 { incomment = 0 }
	{
		line = $0; out = ""
		while (line != "") {
			if (incomment) {
				i = index(line, "*/")
				if (!i) { line = ""; break }
				line = substr(line, i + 2); incomment = 0; out = out " "
				continue
			}
			if (!match(line, /\/\*|\/\/|"|\047/)) { out = out line; break }
			out = out substr(line, 1, RSTART - 1)
			tok = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			if (tok == "/*") incomment = 1
			else if (tok == "//") line = ""
			else { # a string or character constant: up to its unescaped closing quote
				while (line != "" && substr(line, 1, 1) != tok)
					line = substr(line, (substr(line, 1, 1) == "\\") ? 3 : 2)
				line = substr(line, 2); out = out " "
			}
		}
		if (out ~ /^[A-Za-z_]/ && out !~ /^#/) next # a top-level declaration or definition
		while (match(out, /(^|[^A-Za-z0-9_])flame_[A-Za-z0-9_]+[[:space:]]*\(/)) {
			name = substr(out, RSTART, RLENGTH)
			sub(/^[^f]*/, "", name); sub(/[[:space:]]*\($/, "", name)
			print "call", name, FILENAME, FNR
			out = substr(out, RSTART + RLENGTH)
		}
	}'
}
layers="core parse read xform write request"
reach=""
for a in $layers; do
	for b in $layers; do
		allowed "$a" "$b" && reach="$reach $a:$b"
	done
done
while IFS= read -r msg; do
	echo "$msg"
	bad=$((bad + 1))
done < <(awk '
	$1 == "decl" && $3 ~ /\.h$/ && $2 ~ /^flame__/ {
		split($3, p, "/"); layer[$2] = p[2]; where[$2] = $3 ":" $4
	}
	$1 == "def" { n++; name[n] = $2; split($3, p, "/"); in_layer[n] = p[2]; at[n] = $3 ":" $4 }
	END {
		for (i = 1; i <= n; i++)
			if ((name[i] in layer) && layer[name[i]] != in_layer[i])
				print at[i] ": defines " name[i] " of " where[name[i]] " in " in_layer[i] "/: a function is defined in its header'"'"'s layer"
	}' <<<"$fns")
ncalls=0
while IFS= read -r msg; do
	case "$msg" in
	"calls "*) ncalls=${msg#calls } ;;
	*) echo "$msg"; bad=$((bad + 1)) ;;
	esac
done < <(calls | awk -v reach="$reach" '
	BEGIN { n = split(reach, r, " "); for (i = 1; i <= n; i++) ok[r[i]] = 1 }
	# what is defined where: the first definition names it in messages
	FNR == NR { if ($1 == "def") { split($3, p, "/"); defs[$2] = defs[$2] " " p[2]
	            if (!($2 in first)) first[$2] = $3 }; next }
	{
		split($3, p, "/"); from = p[2]
		if (!($2 in defs)) next # a macro, or a function of another library
		seen++
		if ((" " defs[$2] " ") ~ (" " from " ")) next # its own layer defines it
		m = split(defs[$2], d, " "); fine = 0
		for (i = 1; i <= m; i++) if ((from ":" d[i]) in ok) fine = 1
		if (!fine) {
			split(first[$2], q, "/")
			print $3 ":" $4 ": " from "/ calls " $2 " of " q[2] "/" substr(first[$2], length(q[1]) + length(q[2]) + 3) ": not a layer it may reach"
		}
	}
	END { print "calls " seen + 0 }' <(printf '%s\n' "$fns") -)
defs=$(grep -c '^def ' <<<"$fns")
if [ "$defs" -lt 50 ]; then
	echo "check.sh: only $defs flame__ function definitions found under $root"
	exit 1
fi

if [ "$checked" -lt 100 ]; then
	echo "check.sh: only $checked includes found under $root: not the source tree?"
	exit 1
fi
if [ "$ncalls" -lt 1000 ]; then
	echo "check.sh: only $ncalls calls of libflame functions found under $root"
	exit 1
fi
echo "$checked includes, $defs function definitions and $ncalls calls checked, $bad pointing the wrong way"
[ "$bad" -eq 0 ]
