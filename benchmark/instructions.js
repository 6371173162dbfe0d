'use strict';

// Instructions per operation, counted by valgrind's callgrind. Unlike time, the
// count is the same for the same code and input whatever else the machine is
// doing, so it tells a 2% change from noise where timing on a shared machine
// cannot. It is not speed (a cache miss costs more than an add): use it to compare
// two versions of the code, and the timed harness (run.js) for the figures.
//
//   node benchmark/instructions.js [--op encode|decode] [--lib qbson,bson,DIR...] [--all-shapes] [data set ...]
//
// DIR is another checkout of qbson (for example a worktree at an older commit),
// shown by its folder name. Each count is (count for 3n ops - count for n ops) / 2n,
// which leaves out start-up, loading and warm-up; V8 runs single-threaded so that
// compilation is counted in the same place every time.

const { spawn } = require('child_process');
const os = require('os');
const path = require('path');
const { parseArgs } = require('util');

const DEFAULT_SETS = ['mixed', 'flat_bson', 'deep_bson', 'full_bson', 'batch1000'];
// operations in the first run: enough bytes that every function is optimized by then
const WARM_BYTES = 6 * 1024 * 1024;
const MIN_OPS = 5;
const MAX_OPS = 20000;

function loadLibrary(name, op) {
    if (name === 'bson') {
        const bson = require('bson');
        return op === 'encode' ? (doc) => bson.serialize(doc) : (buf) => bson.deserialize(buf);
    }
    const q = require(name === 'qbson' ? '..' : path.resolve(name));
    return op === 'encode' ? (doc) => q.encode(doc) : (buf) => q.decode(buf);
}

function inputsFor(op, set) {
    const bson = require('bson');
    const docs = require('./datasets').load(set).docs;
    return op === 'encode' ? docs : docs.map((doc) => Buffer.from(bson.serialize(doc)));
}

// In the child: run the operation `count` times over the data set. With allShapes,
// every data set goes through the library first, as in the timed harness: its
// property loads then see documents of many shapes, as they do there.
function child(name, op, set, count, allShapes) {
    const inputs = inputsFor(op, set);
    const run = loadLibrary(name, op);
    let sink = 0;
    if (allShapes) {
        const { NAMES } = require('./datasets');
        for (const other of NAMES) {
            for (const input of inputsFor(op, other)) sink += run(input) ? 0 : 1;
        }
    }
    for (let i = 0; i < count; i++) {
        for (let j = 0; j < inputs.length; j++) sink += run(inputs[j]) ? 1 : 0;
    }
    if (sink !== count * inputs.length) throw new Error('an operation returned nothing');
}

function countInstructions(name, op, set, count, allShapes) {
    const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded',
        __filename, '--child', name, op, set, String(count), allShapes ? 'all-shapes' : 'one-shape'];
    return new Promise((resolve, reject) => {
        const proc = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        proc.stderr.on('data', (chunk) => (stderr += chunk));
        proc.on('error', (err) => reject(new Error('valgrind did not start (is it installed?): ' + err.message)));
        proc.on('close', (code) => {
            const m = /Collected : (\d+)/.exec(stderr);
            if (code !== 0 || !m) reject(new Error(`${name} ${op} ${set}: valgrind exited ${code}\n${stderr.slice(-2000)}`));
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
    if (values.op !== 'encode' && values.op !== 'decode') throw new Error('--op is encode or decode');
    const libs = values.lib.split(',');
    const sets = positionals.length ? positionals : DEFAULT_SETS;
    const jobs = [];
    const cells = [];
    for (const set of sets) {
        const n = opsFor(set);
        for (const name of libs) {
            const cell = { set, name, n };
            cells.push(cell);
            const allShapes = values['all-shapes'];
            jobs.push(() => countInstructions(name, values.op, set, n, allShapes).then((c) => (cell.low = c)));
            jobs.push(() => countInstructions(name, values.op, set, 3 * n, allShapes).then((c) => (cell.high = c)));
        }
    }
    await runAll(jobs);
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

if (process.argv[2] === '--child') {
    child(process.argv[3], process.argv[4], process.argv[5], Number(process.argv[6]), process.argv[7] === 'all-shapes');
} else {
    main().catch((err) => {
        console.error(err.message);
        process.exit(1);
    });
}
