'use strict';

// Instructions per operation, counted by valgrind's callgrind. Unlike time, the
// count is the same for the same code and input whatever else the machine is
// doing, so it tells a 2% change from noise where timing on a shared machine
// cannot. It is not speed (a cache miss costs more than an add): use it to compare
// two versions of the code, and the timed harness (run.js) for the figures.
//
//   node benchmark/instructions.js [--op encode|decode|json|relaxed|canonical|codec-encode|codec-decode] [--lib qbson,bson,DIR...] [--all-shapes] [data set ...]
//
// --op json, relaxed or canonical counts bsonToJSON in that mode (bson: EJSON.stringify
// of deserialize, or JSON.stringify of it for 'json'). --op codec-decode and codec-encode
// count a codec from compile(schema), the schema inferred from the data set as the
// benchmark's schema section infers it (qbson and DIRs only).
//
// DIR is another checkout of qbson (for example a worktree at an older commit),
// shown by its folder name. Each count is (count for 3n ops - count for n ops) / 2n,
// which leaves out start-up, loading and warm-up; V8 runs single-threaded so that
// compilation is counted in the same place every time. The generated data sets reach
// the children as BSON files written beforehand, since generating them under valgrind
// takes minutes.

const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');

const DEFAULT_SETS = ['mixed', 'flat_bson', 'deep_bson', 'full_bson', 'batch1000'];
// Operations in the first run: enough bytes that every function is optimized by
// then. The decoder's readers for repeated shapes are functions of their own that
// V8 optimizes after some tens of calls: with 6 MB, binary_heavy's 21st to 63rd
// decodes still held that work (3.5M instructions per decode, 1.97M from the 100th).
const WARM_BYTES = 24 * 1024 * 1024;
const MIN_OPS = 5;
const MAX_OPS = 20000;

const TEXT_MODES = ['json', 'relaxed', 'canonical'];
// V8 makes one full collection when the first few MB of its old space fill, at a point
// that depends on how much code was loaded: it fell between the n-th and 3n-th encode of
// full_bson for one commit and after it for another (+10,000 instructions per operation,
// 6%). Starting the old space this large moves it past both runs; a set whose operations
// keep promoting memory still reaches its own collections.
const OLD_SPACE_MB = 64;

const CODEC_OPS = ['codec-encode', 'codec-decode'];

function loadLibrary(name, op, inputs) {
    if (CODEC_OPS.includes(op)) {
        if (name === 'bson') throw new Error(`bson has no ${op}`);
        const q = require(name === 'qbson' ? '..' : path.resolve(name));
        const { inferSchema } = require('../test/support/infer-schema');
        const codec = q.compile(inferSchema(op === 'codec-decode' ? inputs : inputs.map((doc) => q.encode(doc))));
        return op === 'codec-encode' ? (doc) => codec.encode(doc) : (buf) => codec.decode(buf);
    }
    if (name === 'bson') {
        const bson = require('bson');
        if (op === 'json') return (buf) => JSON.stringify(bson.deserialize(buf));
        if (op === 'relaxed' || op === 'canonical') return (buf) => bson.EJSON.stringify(bson.deserialize(buf), { relaxed: op === 'relaxed' });
        return op === 'encode' ? (doc) => bson.serialize(doc) : (buf) => bson.deserialize(buf);
    }
    const q = require(name === 'qbson' ? '..' : path.resolve(name));
    if (TEXT_MODES.includes(op)) {
        const opts = { mode: op };
        return (buf) => q.bsonToJSON(buf, opts);
    }
    return op === 'encode' ? (doc) => q.encode(doc) : (buf) => q.decode(buf);
}

// the BSON documents of a file, one after another
function splitDocuments(buf) {
    const docs = [];
    for (let pos = 0; pos < buf.length; pos += buf.readInt32LE(pos)) docs.push(Buffer.from(buf.subarray(pos, pos + buf.readInt32LE(pos))));
    return docs;
}

const fromBytes = (buf) => require('bson').deserialize(buf, { promoteLongs: false });

// whether b has a's values and, object by object, a's classes (so encoding b is encoding a)
function sameDocument(a, b) {
    const sameClasses = (x, y) => {
        if (x === null || typeof x !== 'object') return true;
        if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
        if (typeof x._bsontype === 'string' || x instanceof Date || x instanceof Uint8Array) return true;
        return Object.keys(x).every((k) => sameClasses(x[k], y[k]));
    };
    return require('./verify').compare(a, b) === null && sameClasses(a, b);
}

// In the parent: each generated data set the children need, as a file of its BSON
// documents, when decoding those gives back the documents exactly (else the child
// generates it). Returns the folder.
function writeCache(sets) {
    const bson = require('bson');
    const datasets = require('./datasets');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-instructions-'));
    for (const set of sets) {
        const ds = datasets.load(set);
        if (ds.group !== 'generated' && ds.group !== 'corpus') continue;
        const bytes = ds.docs.map((doc) => bson.serialize(doc));
        if (bytes.every((buf, i) => sameDocument(ds.docs[i], fromBytes(buf)))) fs.writeFileSync(path.join(dir, set + '.bson'), Buffer.concat(bytes));
        datasets.forget(set);
    }
    return dir;
}

function inputsFor(op, set, cacheDir) {
    const file = path.join(cacheDir, set + '.bson');
    if (fs.existsSync(file)) {
        const bytes = splitDocuments(fs.readFileSync(file));
        return op.endsWith('encode') ? bytes.map(fromBytes) : bytes;
    }
    const bson = require('bson');
    const docs = require('./datasets').load(set).docs;
    return op.endsWith('encode') ? docs : docs.map((doc) => Buffer.from(bson.serialize(doc)));
}

// In the child: run the operation `count` times over the data set. With allShapes,
// every data set goes through the library first, as in the timed harness: its
// property loads then see documents of many shapes, as they do there.
function child(name, op, set, count, allShapes, cacheDir) {
    const inputs = inputsFor(op, set, cacheDir);
    const run = loadLibrary(name, op, inputs);
    let sink = 0;
    if (allShapes) {
        const { NAMES } = require('./datasets');
        for (const other of NAMES) {
            for (const input of inputsFor(op, other, cacheDir)) sink += run(input) ? 0 : 1;
        }
    }
    for (let i = 0; i < count; i++) {
        for (let j = 0; j < inputs.length; j++) sink += run(inputs[j]) ? 1 : 0;
    }
    if (sink !== count * inputs.length) throw new Error('an operation returned nothing');
}

function countInstructions(name, op, set, count, allShapes, cacheDir) {
    return callgrindCount(['--single-threaded', `--initial-old-space-size=${OLD_SPACE_MB}`,
        __filename, '--child', name, op, set, String(count), allShapes ? 'all-shapes' : 'one-shape', cacheDir], `${name} ${op} ${set}`);
}

// the instructions a node process with nodeArgs runs, counted by callgrind; label names it in an error
function callgrindCount(nodeArgs, label) {
    const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...nodeArgs];
    return new Promise((resolve, reject) => {
        const proc = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        proc.stderr.on('data', (chunk) => (stderr += chunk));
        proc.on('error', (err) => reject(new Error('valgrind did not start (is it installed?): ' + err.message)));
        proc.on('close', (code) => {
            const m = /Collected : (\d+)/.exec(stderr);
            if (code !== 0 || !m) reject(new Error(`${label}: valgrind exited ${code}\n${stderr.slice(-2000)}`));
            else resolve(Number(m[1]));
        });
    });
}

function opsFor(set) {
    const bson = require('bson');
    const bytes = require('./datasets').load(set).docs.reduce((n, doc) => n + bson.calculateObjectSize(doc), 0);
    return Math.min(MAX_OPS, Math.max(MIN_OPS, Math.ceil(WARM_BYTES / bytes)));
}

// runs the jobs, as many at once as there are CPUs
async function runAll(jobs) {
    const results = new Array(jobs.length);
    let next = 0;
    async function worker() {
        while (next < jobs.length) {
            const i = next++;
            results[i] = await jobs[i]();
        }
    }
    await Promise.all(Array.from({ length: Math.min(os.cpus().length, jobs.length) }, worker));
    return results;
}

async function main() {
    const { values, positionals } = parseArgs({
        options: {
            op: { type: 'string', default: 'encode' },
            lib: { type: 'string', default: 'qbson,bson' },
            'all-shapes': { type: 'boolean', default: false },
        },
        allowPositionals: true,
    });
    if (values.op !== 'encode' && values.op !== 'decode' && !TEXT_MODES.includes(values.op) && !CODEC_OPS.includes(values.op)) {
        throw new Error('--op is encode, decode, json, relaxed, canonical, codec-encode or codec-decode');
    }
    const libs = values.lib.split(',');
    const sets = positionals.length ? positionals : DEFAULT_SETS;
    const unknown = sets.filter((set) => !require('./datasets').NAMES.includes(set));
    if (unknown.length) throw new Error('no data set ' + unknown.join(', '));
    const allShapes = values['all-shapes'];
    if (allShapes && CODEC_OPS.includes(values.op)) throw new Error('--all-shapes runs one library over every data set; a codec reads one');
    const ops = sets.map(opsFor);
    const cacheDir = writeCache(allShapes ? require('./datasets').NAMES : sets);
    const jobs = [];
    const cells = [];
    for (const [i, set] of sets.entries()) {
        const n = ops[i];
        for (const name of libs) {
            const cell = { set, name, n };
            cells.push(cell);
            jobs.push(() => countInstructions(name, values.op, set, n, allShapes, cacheDir).then((c) => (cell.low = c)));
            jobs.push(() => countInstructions(name, values.op, set, 3 * n, allShapes, cacheDir).then((c) => (cell.high = c)));
        }
    }
    try {
        await runAll(jobs);
    } finally {
        fs.rmSync(cacheDir, { recursive: true, force: true });
    }
    const label = (name) => (name === 'qbson' || name === 'bson' ? name : path.basename(path.resolve(name)));
    const shapes = values['all-shapes'] ? ', after every data set' : '';
    console.log(`${values.op}: instructions per operation (callgrind, node ${process.version} --single-threaded${shapes})\n`);
    console.log('| data set | ' + libs.map(label).join(' | ') + ' |');
    console.log('| :--- |' + libs.map(() => ' ---: |').join(''));
    for (const set of sets) {
        const row = libs.map((name) => {
            const cell = cells.find((c) => c.set === set && c.name === name);
            return Math.round((cell.high - cell.low) / (2 * cell.n)).toLocaleString('en-US');
        });
        console.log(`| ${set} | ${row.join(' | ')} |`);
    }
}

module.exports = { splitDocuments, sameDocument, writeCache, inputsFor, callgrindCount };

if (require.main === module) {
    if (process.argv[2] === '--child') {
        child(process.argv[3], process.argv[4], process.argv[5], Number(process.argv[6]), process.argv[7] === 'all-shapes', process.argv[8]);
    } else {
        main().catch((err) => {
            console.error(err.message);
            process.exit(1);
        });
    }
}
