'use strict';

// The cold start (start.js) counted in instructions by valgrind's callgrind instead of timed:
// what loading the package and its first calls cost, as a figure that is the same from run to
// run whatever else the machine is doing. Each figure is the count of a fresh process that does
// the thing less the count of one that does everything before it:
//   require        require(entry) less an empty process
//   import         import(entry) less an import of an empty ES module (Node's ESM loader)
//   first decode   decode of the data set's first document, after the require and the read
//   first encode   encode of it, after the require and bson.deserialize of it (the benchmark's
//                  input, as run.js gives it to every library)
// V8 runs single-threaded and with fixed hash and random seeds, so that compiling is counted in
// the process and a count repeats exactly, and without its optimizing compiler: in a normal process
// that compiles on another thread, and here it came into the count or not by where the package's
// folder was (Node's path.normalizeString reaching its optimization threshold: 19M instructions). Instructions are not time: a file read or a page
// fault costs time and few instructions. Compare two versions of the code with it, and quote
// start.js's times against bson's.
//
//   node benchmark/start-instructions.js [--lib qbson,bson,DIR...] [data set ...]
//
// DIR is another checkout of qbson with its dist/node built (npm run build), shown by its folder name.

const SETS = ['flat_bson', 'tweet', 'small_doc'];
const NODE_FLAGS = ['--single-threaded', '--no-opt', '--hash-seed=42', '--random-seed=42'];

// the entries a library is loaded by: require's and import's
function entries(name) {
    const path = require('path');
    if (name === 'bson') return { cjs: require.resolve('bson'), esm: 'bson' };
    const dir = name === 'qbson' ? path.join(__dirname, '..') : path.resolve(name);
    const { pathToFileURL } = require('url');
    return { cjs: path.join(dir, 'dist', 'node', 'qbson.cjs'), esm: pathToFileURL(path.join(dir, 'dist', 'node', 'qbson.mjs')).href };
}

// The child: job.step is how far it goes (steps in order; each count is one step less the one before).
async function child(job) {
    if (job.step === 'none') return;
    if (job.step === 'empty-import' || job.step === 'import') {
        await import(job.step === 'import' ? job.esm : job.empty);
        return;
    }
    const lib = require(job.cjs);
    if (job.step === 'require') return;
    const bytes = require('fs').readFileSync(job.input);
    if (job.direction === 'decode') {
        if (job.step === 'first') (lib.decode || lib.deserialize)(bytes);
        return;
    }
    const doc = require('bson').deserialize(bytes);
    if (job.step === 'first') (lib.encode || lib.serialize)(doc);
}

function count(job) {
    const { callgrindCount } = require('./instructions');
    return callgrindCount([...NODE_FLAGS, __filename, '--child', JSON.stringify(job)], JSON.stringify(job));
}

async function main() {
    const fs = require('fs');
    const os = require('os');
    const path = require('path');
    const { parseArgs } = require('util');
    const { values, positionals } = parseArgs({ options: { lib: { type: 'string', default: 'qbson,bson' } }, allowPositionals: true });
    const libs = values.lib.split(',');
    const sets = positionals.length ? positionals : SETS;
    const datasets = require('./datasets');
    const unknown = sets.filter((set) => !datasets.NAMES.includes(set));
    if (unknown.length) throw new Error('no data set ' + unknown.join(', '));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-start-count-'));
    const empty = path.join(dir, 'empty.mjs');
    fs.writeFileSync(empty, 'export {};\n');
    const inputs = {};
    for (const set of sets) {
        inputs[set] = path.join(dir, set + '.bson');
        fs.writeFileSync(inputs[set], require('bson').serialize(datasets.load(set).docs[0]));
    }
    // rows: [label, steps (the count is the last step's less the one before)], per library
    const rows = [['require', (e) => [{ step: 'none' }, { step: 'require', cjs: e.cjs }]],
        ['import', (e) => [{ step: 'empty-import', empty }, { step: 'import', esm: e.esm }]]];
    for (const direction of ['encode', 'decode']) {
        for (const set of sets) {
            rows.push([`first ${direction} ${set}`, (e) => ['loaded', 'first'].map((step) => ({ step, cjs: e.cjs, direction, input: inputs[set] }))]);
        }
    }
    const jobs = [];
    const counts = new Map();
    for (const name of libs) {
        for (const [label, steps] of rows) {
            for (const job of steps(entries(name))) {
                const key = JSON.stringify(job);
                if (!counts.has(key)) {
                    counts.set(key, null);
                    jobs.push(() => count(job).then((n) => counts.set(key, n)));
                }
            }
        }
    }
    let next = 0;
    const worker = async () => {
        while (next < jobs.length) await jobs[next++]();
    };
    try {
        await Promise.all(Array.from({ length: Math.min(os.cpus().length, jobs.length) }, worker));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
    const label = (name) => (name === 'qbson' || name === 'bson' ? name : path.basename(path.resolve(name)));
    const cell = (name, steps) => {
        const [before, after] = steps(entries(name)).map((job) => counts.get(JSON.stringify(job)));
        return after - before;
    };
    const hasBson = libs.includes('bson');
    console.log(`cold start: instructions (callgrind, node ${process.version} ${NODE_FLAGS.join(' ')})\n`);
    console.log('| measure | ' + libs.map(label).join(' | ') + (hasBson ? ' | ' + libs.filter((n) => n !== 'bson').map((n) => label(n) + ' ÷ bson').join(' | ') : '') + ' |');
    console.log('| :--- |' + libs.map(() => ' ---: |').join('') + (hasBson ? libs.filter((n) => n !== 'bson').map(() => ' ---: |').join('') : ''));
    for (const [name, steps] of rows) {
        const values = libs.map((lib) => cell(lib, steps));
        const ratios = hasBson ? libs.filter((n) => n !== 'bson').map((n) => (cell(n, steps) / cell('bson', steps)).toFixed(2) + '×') : [];
        console.log(`| ${name} | ${values.map((v) => (v / 1e6).toFixed(2) + 'M').join(' | ')}${ratios.length ? ' | ' + ratios.join(' | ') : ''} |`);
    }
}

if (require.main === module) {
    if (process.argv[2] === '--child') {
        child(JSON.parse(process.argv[3])).catch((err) => {
            console.error(err);
            process.exit(1);
        });
    } else {
        main().catch((err) => {
            console.error(err.message);
            process.exit(1);
        });
    }
}
