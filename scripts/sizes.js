'use strict';

// What a browser downloads: one-line programs importing qbson through its
// package.json (the `browser` condition, "sideEffects": false), bundled and
// minified by esbuild, and their size gzipped at level 9; bson@7's browser
// build beside them. docs/runtimes.md shows the table this prints.
//
//   node scripts/sizes.js            a markdown table
//   node scripts/sizes.js --analyze  and esbuild's account of the bytes of "everything"

const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const ROOT = path.join(__dirname, '..');

// every name bson@7 exports
const BSON_NAMES = Object.keys(require('bson')).filter((name) => name !== 'default').sort();
const PROGRAMS = {
    'encode + decode': "import { encode, decode } from 'qbson';\nglobalThis.out = decode(encode({ a: 1 }));\n",
    'encode + decode + EJSON': "import { encode, decode, EJSON } from 'qbson';\nglobalThis.out = EJSON.stringify(decode(encode({ a: 1 })));\n",
    "bson@7's names": `import { ${BSON_NAMES.join(', ')} } from 'qbson';\nglobalThis.out = [${BSON_NAMES.join(', ')}];\n`,
    'everything': "import * as qbson from 'qbson';\nglobalThis.qbson = qbson;\n",
};

// Bundles `source` as a program in a folder where 'qbson' is this repository;
// returns the minified bytes and the files esbuild put in them (paths from ROOT).
async function bundle(source, analyze = false) {
    const esbuild = require('esbuild');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-size-'));
    try {
        fs.mkdirSync(path.join(dir, 'node_modules'));
        fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'qbson'), 'dir');
        fs.writeFileSync(path.join(dir, 'main.mjs'), source);
        const result = await esbuild.build({
            entryPoints: [path.join(dir, 'main.mjs')],
            bundle: true,
            minify: true,
            platform: 'browser',
            format: 'esm',
            write: false,
            metafile: true,
            logLevel: 'silent',
        });
        const output = Object.values(result.metafile.outputs)[0];
        const inputs = Object.keys(output.inputs).map((f) => path.relative(ROOT, path.resolve(f)).split(path.sep).join('/'));
        const text = analyze ? await esbuild.analyzeMetafile(result.metafile) : '';
        return { bytes: result.outputFiles[0].contents, inputs, analysis: text };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

const gzipped = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;

async function bsonBrowserSize() {
    const esbuild = require('esbuild');
    // bson's exports hide lib/bson.mjs; its require entry (lib/bson.cjs) is beside it
    const file = path.join(path.dirname(require.resolve('bson', { paths: [ROOT] })), 'bson.mjs');
    const result = await esbuild.build({ entryPoints: [file], bundle: true, minify: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent' });
    return result.outputFiles[0].contents;
}

async function measure() {
    const rows = [];
    for (const [name, source] of Object.entries(PROGRAMS)) {
        const { bytes } = await bundle(source);
        rows.push({ name: 'qbson: ' + name, minified: bytes.length, gzipped: gzipped(bytes) });
    }
    const bsonBytes = await bsonBrowserSize();
    rows.push({ name: 'bson@7 browser build (lib/bson.mjs)', minified: bsonBytes.length, gzipped: gzipped(bsonBytes) });
    return rows;
}

module.exports = { bundle, measure, PROGRAMS };

if (require.main === module) {
    (async () => {
        const rows = await measure();
        const kb = (n) => (n / 1000).toFixed(1) + ' KB';
        console.log('| bundle | minified | gzipped |\n| :--- | ---: | ---: |');
        for (const r of rows) console.log(`| ${r.name} | ${r.minified.toLocaleString('en-US')} B (${kb(r.minified)}) | ${r.gzipped.toLocaleString('en-US')} B (${kb(r.gzipped)}) |`);
        if (process.argv.includes('--analyze')) console.log('\n' + (await bundle(PROGRAMS.everything, true)).analysis);
    })().catch((err) => {
        console.error(err.message);
        process.exit(1);
    });
}
