#!/usr/bin/env bash
# Run a browser test in headless Chromium: the SVG's (svg.test.mjs, the default), the HTML
# page's (html.test.mjs), its time heatmap (time.test.mjs), its label selector
# (labels.test.mjs) or the README's picture of the page
# (gallery.mjs). Without
# chromium, node or tests/browser/node_modules (npm ci), the test is skipped (exit 77) when
# the browser_tests option is auto and fails when it is enabled.
# Usage: run.sh BUILD_DIR auto|required [svg|html|time|labels|gallery]
set -u
build=$(cd "$1" && pwd)
mode=${2:-auto}
here=$(cd "$(dirname "$0")" && pwd)
missing=""
[ -x /usr/bin/chromium ] || missing="$missing /usr/bin/chromium"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$here/node_modules/playwright-core" ] || missing="$missing $here/node_modules/playwright-core (npm ci in tests/browser)"
if [ -n "$missing" ]; then
  echo "browser test: missing$missing"
  [ "$mode" = required ] && exit 1
  exit 77
fi
# Chromium draws text with templates/fonts.conf's fonts, not the machine's (meson test sets
# it too): the gallery picture is compared byte for byte
export FONTCONFIG_FILE=${FONTCONFIG_FILE:-$here/../../templates/fonts.conf}
case ${3:-svg} in
  html) exec node "$here/html.test.mjs" "$build" "$here/../../fixtures" ;;
  time) exec node "$here/time.test.mjs" "$build" ;;
  labels) exec node "$here/labels.test.mjs" "$build" ;;
  gallery) exec node "$here/gallery.mjs" "$build" "$here/../.." ;;
esac
exec node "$here/svg.test.mjs" "$build/tools/flame-render" "$here/../../fixtures/render"
