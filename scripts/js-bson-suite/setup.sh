#!/bin/sh
# Exports js-bson's test/node suite (and the src/ it imports for constants and private modules)
# into ./js-bson and redirects every load of the library to $BSON_IMPL (see register-bson.js).
# The clone this was written against has no v7.3.3/v7.3.4 tags; the nearest release commit it holds is
# e0db924e "chore(main): release 7.3.2" (src differs from 7.3.4 only in the relaxed-date
# upper bound, lazy ObjectId PROCESS_UNIQUE and an iterative calculateObjectSize).
set -e
cd "$(dirname "$0")"
GIT_DIR=${JSBSON_GIT_DIR:?set JSBSON_GIT_DIR to the .git directory of a clone of mongodb/js-bson}
REV=${JSBSON_REV:-e0db924e}
rm -rf js-bson && mkdir js-bson
git --git-dir="$GIT_DIR" ls-tree -r "$REV" --name-only -- src test .mocharc.js tsconfig.json package.json |
  grep -v '^test/bench/' | while read -r f; do
    mkdir -p "js-bson/$(dirname "$f")"
    git --git-dir="$GIT_DIR" show "$REV:$f" > "js-bson/$f"
  done
# bson@7.3.4's built bundles, for the baseline's web-mode/bundle tests (lib/bson.cjs, bson.bundle.js...)
mkdir -p js-bson/lib && cp node_modules/bson/lib/* js-bson/lib/
cp register-bson.js js-bson/test/register-bson.js
# the one test that imports the library's index directly goes through register-bson too
sed -i "s#from '../../src/index'#from '../register-bson'#" js-bson/test/node/big_endian.test.ts
sed -i "s#from '../../src'#from '../register-bson'#" js-bson/test/node/extended_json.test.ts
# ts-node transpile-only with the stock compiler (no typescript-cached-transpile)
sed -i '/"compiler": "typescript-cached-transpile"/d; s/"transpileOnly": true,/"transpileOnly": true/' js-bson/tsconfig.json
echo "exported js-bson@$REV test/node into $(pwd)/js-bson"
