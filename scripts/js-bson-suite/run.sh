#!/bin/sh
# Usage: ./run.sh bson|/path/to/qbson [out.json]
# Runs js-bson's test/node with mocha (json reporter) against the given library, prints a summary.
# PER_FILE=1 runs each test file in its own mocha (a file that throws while loading then costs only
# itself; it is listed as "did not load").
# Files that test js-bson's private modules or its build artefacts are listed in private-files.txt
# and reported separately by summary.js.
IMPL=${1:-bson}
# a library path is made absolute before moving into the suite
[ "$IMPL" = bson ] || IMPL=$(realpath "$IMPL") || exit 1
OUT=${2:-../results-$(basename "$IMPL").json}
cd "$(dirname "$0")/js-bson" || exit 1
export BSON_IMPL="$IMPL" TS_NODE_TRANSPILE_ONLY=true TS_NODE_FILES=false
MOCHA="../node_modules/.bin/mocha --config .mocharc.js --no-color --reporter json"
if [ -n "$PER_FILE" ]; then
  rm -rf ../per-file && mkdir ../per-file
  find test/node \( -name '*.ts' -o -name '*.js' \) | grep -v '/tools/\|/data/\|/compliance/\|/specs/' | sort |
  while read -r f; do
    $MOCHA --reporter-option output="../per-file/$(echo "$f" | tr / _).json" "$f" >/dev/null 2>>../mocha-stderr.txt ||
      [ -s "../per-file/$(echo "$f" | tr / _).json" ] || echo "$f" >> ../per-file/did-not-load.txt
  done
  node ../merge.js ../per-file "$OUT"
else
  $MOCHA --reporter-option output="$OUT" test/node >/dev/null 2>../mocha-stderr.txt
fi
node ../summary.js "$OUT"
