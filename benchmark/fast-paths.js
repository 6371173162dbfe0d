'use strict';

// What each fast path costs in a bundle and buys in speed.
//
//   node benchmark/fast-paths.js [--rounds N] [--ms N] [fast path ...]
//
// A fast path is code that does nothing a plainer path does not also do, only
// quicker. For each, a copy of lib/ is made with a small edit that turns it off
// (PATCHES: each edit must match its file exactly once), and its speed is timed in
// one process against this lib/, the two taking turns, on every data set of the
// direction it serves; both give the same output, checked on every data set first.
// Its size is the minified bytes of its modules in the encode + decode program
// (scripts/sizes.js), from esbuild's metafile. Prints one Markdown table.

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');

// name: [direction, modules whose bytes it is, [file, text, replacement]...]
const PATCHES = {
    'shape readers': ['decode', ['lib/shape-reader.js'],
        ['lib/shape-reader.js', 'function readByShape(dec, start, size, depth) {\n', 'function readByShape(dec, start, size, depth) {\n    return MISS;\n']],
    'shape writers': ['encode', ['lib/shape-writer.js'],
        ['lib/shape-writer.js', 'function writeByShape(enc, pos, obj, keys) {\n', 'function writeByShape(enc, pos, obj, keys) {\n    return MISS;\n']],
    'wide-shape constructors': ['decode', ['lib/shapes.js', 'lib/wide-object.js'],
        ['lib/shapes.js', 'function compile(keys) {\n', 'function compile(keys) {\n    return null;\n']],
    'key cache': ['decode', ['lib/key-cache.js'],
        ['lib/key-cache.js', 'function readKey(buf, start, end, validate, inSequence) {\n',
            'function readKey(buf, start, end, validate, inSequence) {\n    return readUtf8(buf, start, end, validate);\n'],
        ['lib/key-cache.js', 'function openKeySequence() {\n', 'function openKeySequence() {\n    return false;\n']],
    'key table': ['encode', ['lib/key-table.js'],
        ['lib/key-table.js', 'function writeKey(cursor, buf, view, pos, key) {\n', 'function writeKey(cursor, buf, view, pos, key) {\n    return writeCString(buf, pos, key);\n']],
    'string batches': ['encode', ['lib/string-batch.js'],
        ['lib/string-batch.js', '    takes(enc, str) {\n', '    takes(enc, str) {\n        return false;\n']],
    'number runs': ['encode', ['lib/number-runs.js'],
        ['lib/encode.js', "if (obj.length >= MIN_NUMBER_RUN && typeof obj[0] === 'number') {", "if (false && obj.length >= MIN_NUMBER_RUN && typeof obj[0] === 'number') {"],
        ['lib/number-runs.js', 'function writeShortNumberArray(enc, pos, arr, key) {\n', 'function writeShortNumberArray(enc, pos, arr, key) {\n    return -1;\n']],
    // utf8.js holds both; its bytes are given with each
    'short ASCII strings by String.fromCharCode': ['decode', ['lib/utf8.js'],
        ['lib/utf8.js', '    if (len <= MAX_ASCII_CALL_LENGTH) {\n        let bits = 0;', '    if (false) {\n        let bits = 0;']],
    'non-ASCII text decoded in JavaScript': ['decode', ['lib/utf8.js'],
        ['lib/utf8.js', 'function readNonAsciiUtf8(buf, start, end, validate) {\n',
            'function readNonAsciiUtf8(buf, start, end, validate) {\n    return readUtf8Native(buf, start, end, validate);\n']],
};

// a copy of the package's code with one fast path turned off; returns its folder
function patchedCopy(name) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-fast-path-'));
    for (const entry of ['index.js', 'package.json', 'lib']) fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    const [, , ...edits] = PATCHES[name];
    for (const [file, text, replacement] of edits) {
        const target = path.join(dir, file);
        const source = fs.readFileSync(target, 'utf8');
        if (source.split(text).length !== 2) throw new Error(`${name}: the text to edit is not in ${file} exactly once`);
        fs.writeFileSync(target, source.replace(text, replacement));
    }
    return dir;
}

// minified bytes of each module in the encode + decode program
async function moduleBytes() {
    const { PROGRAMS } = require('../scripts/sizes');
    const esbuild = require('esbuild');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-fast-path-size-'));
    try {
        fs.mkdirSync(path.join(dir, 'node_modules'));
        fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'qbson'), 'dir');
        fs.writeFileSync(path.join(dir, 'main.mjs'), PROGRAMS['encode + decode']);
        const result = await esbuild.build({ entryPoints: [path.join(dir, 'main.mjs')], bundle: true, minify: true, platform: 'browser',
            format: 'esm', write: false, metafile: true, logLevel: 'silent' });
        const inputs = Object.values(result.metafile.outputs)[0].inputs;
        const bytes = {};
        for (const [file, info] of Object.entries(inputs)) bytes[path.relative(ROOT, path.resolve(file)).split(path.sep).join('/')] = info.bytesInOutput;
        return { bytes, total: result.outputFiles[0].contents.length };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// The child: times `direction` with qbson at ROOT and at `dir` in turns on every data set.
function child({ dir, direction, rounds, ms }) {
    const full = require(ROOT);
    const off = require(dir);
    const bson = require('bson');
    const datasets = require('./datasets');
    const { compare } = require('./verify');
    const rows = [];
    for (const name of datasets.NAMES) {
        if (name === 'wide_100k_fields') continue;   // seconds per round; wide_10k_fields holds its shape
        const docs = datasets.load(name).docs;
        const bufs = docs.map((d) => bson.serialize(d));
        const run = direction === 'encode' ? (q) => { for (const d of docs) q.encode(d); } : (q) => { for (const b of bufs) q.decode(b); };
        for (let i = 0; i < docs.length; i++) {
            if (direction === 'encode' && Buffer.compare(Buffer.from(full.encode(docs[i])), Buffer.from(off.encode(docs[i]))) !== 0) {
                throw new Error(`${name}: document ${i} encodes differently`);
            }
            if (direction === 'decode' && compare(full.decode(bufs[i]), off.decode(bufs[i])) !== null) throw new Error(`${name}: document ${i} decodes differently`);
        }
        const rate = (q) => {
            const start = process.hrtime.bigint();
            let n = 0;
            do {
                run(q);
                n++;
            } while (Number(process.hrtime.bigint() - start) / 1e6 < ms);
            return n / (Number(process.hrtime.bigint() - start) / 1e9);
        };
        for (let i = 0; i < 3; i++) { rate(full); rate(off); }
        const ratios = [];
        for (let r = 0; r < rounds; r++) ratios.push(rate(full) / rate(off));
        ratios.sort((a, b) => a - b);
        rows.push([name, ratios[rounds >> 1]]);
        datasets.forget(name);
    }
    return rows;
}

async function main(argv) {
    const { values, positionals } = require('util').parseArgs({ args: argv, allowPositionals: true,
        options: { rounds: { type: 'string', default: '7' }, ms: { type: 'string', default: '40' }, child: { type: 'string' } } });
    if (values.child) {
        process.stdout.write(JSON.stringify(child(JSON.parse(values.child))) + '\n');
        return;
    }
    const names = positionals.length ? positionals : Object.keys(PATCHES);
    for (const n of names) if (!PATCHES[n]) throw new Error(`no fast path named ${n}; known: ${Object.keys(PATCHES).join(', ')}`);
    const sizes = await moduleBytes();
    const gm = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
    const lines = ['| fast path | serves | minified bytes (encode + decode: ' + sizes.total + ') | geometric mean | lowest | highest, data set |',
        '| :--- | :--- | ---: | ---: | ---: | :--- |'];
    for (const name of names) {
        const [direction, modules] = PATCHES[name];
        const dir = patchedCopy(name);
        try {
            const job = JSON.stringify({ dir, direction, rounds: +values.rounds, ms: +values.ms });
            const res = childProcess.spawnSync(process.execPath, [__filename, '--child', job], { encoding: 'utf8', maxBuffer: 1 << 24 });
            if (res.status !== 0) throw new Error(`${name}: ${res.stderr.trim().split('\n').slice(-3).join(' ')}`);
            const rows = JSON.parse(res.stdout.trim().split('\n').pop());
            rows.sort((a, b) => a[1] - b[1]);
            const bytes = modules.reduce((s, m) => s + (sizes.bytes[m] || 0), 0);
            const top = rows[rows.length - 1];
            lines.push(`| ${name} | ${direction} | ${bytes} | ${gm(rows.map((r) => r[1])).toFixed(3)}× | ${rows[0][1].toFixed(2)}× ${rows[0][0]} | ${top[1].toFixed(2)}× ${top[0]} |`);
            process.stderr.write(`${name}: ${rows.map(([n, r]) => `${n} ${r.toFixed(2)}`).join(', ')}\n`);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }
    console.log(lines.join('\n'));
}

if (require.main === module) {
    main(process.argv.slice(2)).catch((err) => {
        console.error(err.message);
        process.exit(1);
    });
}

module.exports = { PATCHES, patchedCopy };
