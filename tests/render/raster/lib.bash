# Helpers for the raster CLI cases (sourced): image sizes read from the files themselves.

# "W H" from a PNG's IHDR (big-endian 32-bit width and height at bytes 16..23)
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

# "W H" from the <svg> element's width and height attributes
svg_size() {
  grep -o '<svg [^>]*' "$1" | head -1 | sed -E 's/.* width="([0-9.]+)" height="([0-9.]+)".*/\1 \2/'
}

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
