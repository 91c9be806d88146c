#!/bin/bash
# The layering of libflame/ (libflame/README.md), checked from the #include lines:
#   core <- parse <- read <- xform <- write <- request
# A file may include headers of its own layer and of the layers its row below allows;
# flame.h everywhere. parse/, xform/ and write/ do
# not include one another. tools/ include only libflame/flame.h, their own headers and
# system headers. Includes are not calls, so also: a flame__ function declared in a
# header of one layer is defined in that layer (a core/ header whose function lives in
# xform/ lets parse/ call up). Usage: check.sh SOURCE_ROOT. Prints each violation as
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

# each top-level flame__ function: "decl NAME FILE LINE" when the statement ends in ';',
# "def NAME FILE LINE" when a body follows (static ones are the file's own business)
functions() {
	find libflame -name '*.[ch]' | sort | xargs awk '
	FNR == 1 { name = "" }
	function done_if() {
		if ($0 ~ /;[[:space:]]*$/) { print "decl", name, FILENAME, at; name = "" }
		else if ($0 ~ /\{/) { print "def", name, FILENAME, at; name = "" }
	}
	name != "" { done_if(); next }
	/^[A-Za-z_]/ && !/^(static|typedef|extern|#)/ &&
	match($0, /[*[:space:]]flame__[A-Za-z0-9_]+\(/) {
		name = substr($0, RSTART + 1, RLENGTH - 2)
		at = FNR
		done_if()
	}'
}
fns=$(functions)
while IFS= read -r msg; do
	echo "$msg"
	bad=$((bad + 1))
done < <(awk '
	$1 == "decl" && $3 ~ /\.h$/ { split($3, p, "/"); layer[$2] = p[2]; where[$2] = $3 ":" $4 }
	$1 == "def" { n++; name[n] = $2; split($3, p, "/"); in_layer[n] = p[2]; at[n] = $3 ":" $4 }
	END {
		for (i = 1; i <= n; i++)
			if ((name[i] in layer) && layer[name[i]] != in_layer[i])
				print at[i] ": defines " name[i] " of " where[name[i]] " in " in_layer[i] "/: a function is defined in its header'"'"'s layer"
	}' <<<"$fns")
defs=$(grep -c '^def ' <<<"$fns")
if [ "$defs" -lt 50 ]; then
	echo "check.sh: only $defs flame__ function definitions found under $root"
	exit 1
fi

if [ "$checked" -lt 100 ]; then
	echo "check.sh: only $checked includes found under $root: not the source tree?"
	exit 1
fi
echo "$checked includes and $defs function definitions checked, $bad pointing the wrong way"
[ "$bad" -eq 0 ]
