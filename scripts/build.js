'use strict';

// Builds the packages for runtimes without Node's modules, from the same lib/:
//   dist/qbson.browser.mjs  index.browser.mjs and all it imports in one ES module,
//                           for browsers and workers without a bundler, and Deno
//   dist/qbson.bundle.js    index.js in a script that sets the global `qbson`
//   dist/node/              the package's "require" and "import" entries for Node, Deno
//                           and Bun, in as few files as a program loads (build-node.js)
// package.json's `browser` field puts lib/node-modules.browser.js in place of
// lib/node-modules.js (as it does for any bundler that builds qbson for a
// browser), so nothing in them requires a Node module. The command is not in them.
// Unlike a browser bundle, they keep lib/node-bytes.js: Deno loads them with a
// global Buffer, and qbson works on Buffers there.
//
//   node scripts/build.js        (npm run build; prepack runs it)
//   require('./scripts/build').build()   -> { files: [...] }, for the tests

const fs = require('fs');
const path = require('path');
const { buildNode } = require('./build-node');
const { nameClasses, dropSameNames } = require('./class-names');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

const COMMON = {
    bundle: true,
    platform: 'browser',
    target: 'es2020',
    legalComments: 'inline',
    // one scope holds every module, so esbuild renames a class it meets twice
    // (BSONError2); this keeps each class's own name, which stack traces show
    // (class-names.js then names the classes as they are created, and drops the calls
    // that set a name a function already has)
    keepNames: true,
    logLevel: 'silent',
};

// lib/node-bytes.js itself, not the browser field's stand-in for it
const keepNodeBytes = {
    name: 'keep-node-bytes',
    setup(build) {
        build.onResolve({ filter: /^\.\/node-bytes$/ }, () => ({ path: path.join(ROOT, 'lib', 'node-bytes.js') }));
    },
};

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const BANNER = `// qbson ${VERSION}, built by scripts/build.js from lib/ for runtimes without Node's modules`;

async function build() {
    const esbuild = require('esbuild');
    fs.mkdirSync(DIST, { recursive: true });
    const files = [path.join(DIST, 'qbson.browser.mjs'), path.join(DIST, 'qbson.bundle.js')];
    const common = { ...COMMON, plugins: [keepNodeBytes] };
    const [node] = await Promise.all([
        buildNode(`// qbson ${VERSION}, built by scripts/build.js from lib/ for Node, Deno and Bun`),
        esbuild.build({
            ...common,
            entryPoints: [path.join(ROOT, 'index.browser.mjs')],
            format: 'esm',
            outfile: files[0],
            banner: { js: BANNER },
        }),
        esbuild.build({
            ...common,
            entryPoints: [path.join(ROOT, 'index.js')],
            format: 'iife',
            globalName: 'qbson',
            outfile: files[1],
            banner: { js: BANNER },
        }),
    ]);
    for (const file of files) {
        fs.writeFileSync(file, nameClasses(dropSameNames(fs.readFileSync(file, 'utf8')), path.relative(ROOT, file)).source);
    }
    return { files: files.concat(node.files) };
}

module.exports = { build, ROOT, COMMON };

if (require.main === module) {
    const started = Date.now();
    build().then(
        ({ files }) => console.log(`built ${files.map((f) => path.relative(ROOT, f)).join(', ')} in ${Date.now() - started} ms`),
        (err) => {
            console.error(err.message);
            process.exit(1);
        }
    );
}
