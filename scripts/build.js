'use strict';

// Builds the packages for runtimes without Node's modules, from the same lib/:
//   dist/qbson.browser.mjs  an ES module with every named export of index.mjs
//                           (browsers, workers, Deno, bundlers via the `browser` condition)
//   dist/qbson.bundle.js    the same as a script that sets the global `qbson`
// lib/node-modules.js is replaced by lib/node-modules.browser.js, so nothing in
// them requires a Node module. The command line is not in them.
//
//   node scripts/build.js        (npm run build; prepack runs it)
//   require('./scripts/build').build()   -> { files: [...] }, for the tests

const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

// the names index.mjs exports, read from it so the two cannot drift apart
function exportNames() {
    const source = fs.readFileSync(path.join(ROOT, 'index.mjs'), 'utf8');
    const m = /export const \{([^}]*)\} = qbson;/.exec(source);
    if (m === null) throw new Error('index.mjs: no `export const { ... } = qbson;` to read the export names from');
    return m[1].split(',').map((s) => s.trim()).filter(Boolean);
}

// the ES module entry: index.js's object and each of its names
function esmEntry() {
    const names = exportNames();
    return `import qbson from './index.js';\nexport default qbson;\nexport const { ${names.join(', ')} } = qbson;\n`;
}

// puts lib/node-modules.browser.js where lib/node-modules.js is required
const withoutNodeModules = {
    name: 'without-node-modules',
    setup(build) {
        build.onResolve({ filter: /\/node-modules$/ }, (args) => {
            if (!args.resolveDir.startsWith(path.join(ROOT, 'lib'))) return undefined;
            return { path: path.join(path.resolve(args.resolveDir, args.path) + '.browser.js') };
        });
    },
};

const COMMON = {
    bundle: true,
    platform: 'browser',
    target: 'es2020',
    legalComments: 'inline',
    // class names as in lib/ (esbuild would rename a BSONError it sees twice BSONError2)
    keepNames: true,
    plugins: [withoutNodeModules],
    logLevel: 'silent',
};

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const BANNER = `// qbson ${VERSION}, built by scripts/build.js from lib/ for runtimes without Node's modules`;

async function build() {
    const esbuild = require('esbuild');
    fs.mkdirSync(DIST, { recursive: true });
    const files = [path.join(DIST, 'qbson.browser.mjs'), path.join(DIST, 'qbson.bundle.js')];
    await Promise.all([
        esbuild.build({
            ...COMMON,
            stdin: { contents: esmEntry(), resolveDir: ROOT, sourcefile: 'qbson.browser.mjs', loader: 'js' },
            format: 'esm',
            outfile: files[0],
            banner: { js: BANNER },
        }),
        esbuild.build({
            ...COMMON,
            entryPoints: [path.join(ROOT, 'index.js')],
            format: 'iife',
            globalName: 'qbson',
            outfile: files[1],
            banner: { js: BANNER },
        }),
    ]);
    return { files };
}

module.exports = { build, esmEntry, exportNames, withoutNodeModules, ROOT };

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
