'use strict';

// qbson benchmark: qbson against bson, bson-ext, buffalo, msgpackr and JSON (on strings and on UTF-8 bytes).
//   node benchmark/run.js [--quick | --smoke] [--filter a,b] [--markdown] [--json FILE] [--update DOC]
//                         [--cpu | --wall] [--cold DATASET] [--no-memory] [--no-cold] [--no-size] [--no-incremental] [--mixed [--seed N]]
// See benchmark/README.md for what each table and column means.

const fs = require('fs');
const os = require('os');
const path = require('path');
const childProcess = require('child_process');
const datasets = require('./datasets');
const libraries = require('./libraries');
const timing = require('./timing');
const report = require('./report');
const mixed = require('./mixed');
const start = require('./start');
const { DIRECTIONS, BASELINE, progress, verifyAll, warmAll, timeAll } = require('./measure');

// warmup, sample: seconds of warm-up and of each of `samples` timed runs per cell;
// memory, warmCalls: seconds of the allocation loop, and calls before it; cold: seconds to warm up;
// starts: fresh processes per figure of qbson against bson (start.js), whose medians are shown;
// jobs: child processes at once (1 in full mode, so they do not disturb each other)
const MODES = {
    full: { warmup: 0.15, sample: 0.045, samples: 9, memory: 0.1, warmCalls: 3, cold: 0.2, starts: 11, jobs: 1 },
    quick: { warmup: 0.015, sample: 0.008, samples: 5, memory: 0.03, warmCalls: 1, cold: 0.1, starts: 5, jobs: 2 },
    // smoke: verifies every data set but times only those under 64 kB, barely;
    // memory and cold start for qbson and bson only
    smoke: { warmup: 0.001, sample: 0.001, samples: 1, memory: 0.001, warmCalls: 1, cold: 0.001, starts: 1, jobs: 4,
        maxTimedBytes: 64e3, childLibs: ['qbson', 'bson'] },
};
const CHILD = path.join(__dirname, 'child.js');
const INCREMENTAL = path.join(__dirname, 'incremental.js');
const JSON_TO_BSON = path.join(__dirname, 'json-to-bson.js');
const TRANSCODE = path.join(__dirname, 'transcode.js');
const DRIVER_JSON = path.join(__dirname, 'driver-json.js');
const VALUE_MAPPING = path.join(__dirname, 'value-mapping.js');
const SCHEMA = path.join(__dirname, 'schema.js');
const USAGE = 'usage: node benchmark/run.js [--quick | --smoke] [--filter NAME,...] [--markdown] [--json FILE] [--update DOC]\n' +
    '                             [--cpu | --wall] [--cold DATASET] [--no-memory] [--no-cold] [--no-size] [--no-incremental] [--mixed [--seed N]]';

function usageError(message) {
    return Object.assign(new Error(message), { usage: true });
}

function seedValue(text) {
    if (!/^\d{1,9}$/.test(text)) throw usageError('--seed takes a whole number, not ' + text);
    return Number(text);
}

function parseArgs(argv) {
    const opts = { mode: 'full', filter: [], markdown: false, json: null, update: null, cold: 'flat_bson', memory: true, coldStart: true, size: true, incremental: true,
        clock: 'auto', mixed: false, seed: null };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        const value = () => {
            if (i + 1 >= argv.length) throw usageError(arg + ' needs a value');
            return argv[++i];
        };
        if (arg === '--quick' || arg === '--smoke' || arg === '--full') opts.mode = arg.slice(2);
        else if (arg === '--filter') opts.filter = value().split(',').map((s) => s.trim()).filter(Boolean);
        else if (arg === '--markdown') opts.markdown = true;
        else if (arg === '--json') opts.json = value();
        else if (arg === '--update') opts.update = value();
        else if (arg === '--cold') opts.cold = value();
        else if (arg === '--no-memory') opts.memory = false;
        else if (arg === '--no-cold') opts.coldStart = false;
        else if (arg === '--no-incremental') opts.incremental = false;
        else if (arg === '--no-size') opts.size = false;
        else if (arg === '--cpu' || arg === '--wall') opts.clock = arg.slice(2);
        else if (arg === '--mixed') opts.mixed = true;
        else if (arg === '--seed') opts.seed = seedValue(value());
        else if (arg === '--help' || arg === '-h') opts.help = true;
        else throw usageError('unknown option ' + arg);
    }
    // the report goes into a Markdown document, so it is written as Markdown
    if (opts.update) opts.markdown = true;
    return opts;
}

// each term picks the data sets or libraries it names exactly, else those it is a substring of
function applyFilter(terms) {
    const picked = { datasets: new Set(), libs: new Set() };
    const matching = (names, t) => names.filter((n) => n.toLowerCase().includes(t));
    for (const term of terms) {
        const t = term.toLowerCase();
        const exactLibs = libraries.NAMES.filter((n) => n.toLowerCase() === t);
        const exactData = datasets.NAMES.filter((n) => n.toLowerCase() === t);
        const exact = exactLibs.length + exactData.length > 0;
        const libs = exact ? exactLibs : matching(libraries.NAMES, t);
        const data = exact ? exactData : matching(datasets.NAMES, t);
        if (!libs.length && !data.length) throw usageError('--filter ' + term + ' matches no data set or library');
        libs.forEach((n) => picked.libs.add(n));
        data.forEach((n) => picked.datasets.add(n));
    }
    const someLibs = picked.libs.size > 0;
    picked.libs.add(BASELINE);      // the baseline of every rate, and the reference of verification
    return {
        datasets: datasets.NAMES.filter((n) => !picked.datasets.size || picked.datasets.has(n)),
        libs: libraries.NAMES.filter((n) => !someLibs || picked.libs.has(n)),
    };
}

// versions of every compared package (also those filtered out), and the machine
function systemInfo(libs) {
    const cpus = os.cpus();
    const versions = {};
    for (const name of libraries.NAMES.concat('qtimeit').filter((n) => !libraries.BUILTIN.includes(n))) {
        const lib = libs.find((l) => l.name === name);
        try {
            versions[name] = libraries.packageVersion(name);
        } catch (err) {
            versions[name] = 'not installed';
        }
        if (lib && !lib.available) versions[name] += ' (n/a)';
        if (lib && lib.note) versions[name] += ' (' + lib.note + ')';
    }
    return { node: process.versions.node, v8: process.versions.v8, platform: process.platform + ' ' + process.arch,
        cpu: cpus.length ? cpus[0].model.trim() : '?', cpuCount: cpus.length, versions, loadavg: os.loadavg()[0] };
}

function runChild(job, execArgv) {
    return new Promise((resolve) => {
        const args = execArgv.concat([CHILD, JSON.stringify(job)]);
        childProcess.execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
            try {
                const msg = JSON.parse(String(stdout).trim().split('\n').pop());
                resolve(msg.ok ? msg.result : { error: msg.error });
            } catch (e) {
                resolve({ error: 'child failed: ' + String(stderr || (err && err.message)).trim().split('\n').pop() });
            }
        });
    });
}

// run the task functions (each returning a promise), at most `limit` at a time
async function pool(tasks, limit) {
    let next = 0;
    const worker = async () => {
        while (next < tasks.length) await tasks[next++]();
    };
    await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

const childLib = (mode, name) => !mode.childLibs || mode.childLibs.includes(name);

// child processes (node --expose-gc) measure every verified cell, data set by data set;
// with jobs > 1 the libraries are shared out among that many children
async function memoryAll(mode, results) {
    const rows = results.timing.filter((r) => childLib(mode, r.lib)).map((r) => ({ dataset: r.dataset,
        direction: r.direction, lib: r.lib, verdict: r.verdict, skipped: r.skipped }));
    const todo = rows.filter((r) => r.verdict === 'ok' && !r.skipped);
    const libNames = [...new Set(todo.map((r) => r.lib))];
    const shares = Array.from({ length: Math.min(mode.jobs, libNames.length) },
        (_, k) => todo.filter((r) => libNames.indexOf(r.lib) % mode.jobs === k));
    progress('memory');
    await Promise.all(shares.map(async (share) => {
        const res = await runChild({ mode: 'memory', seconds: mode.memory, warmCalls: mode.warmCalls,
            cells: share.map((r) => [r.lib, r.dataset, r.direction]) }, ['--expose-gc']);
        share.forEach((r, i) => Object.assign(r, res.error ? { verdict: 'n/a', error: res.error } : res[i]));
    }));
    results.memory.push(...rows);
    progress('');
}

// a fresh child process per library and direction
async function coldAll(dsName, libs, mode, results) {
    const rows = [];
    for (const lib of libs.filter((l) => childLib(mode, l.name))) {
        for (const dir of DIRECTIONS) {
            const timed = results.timing.find((r) => r.dataset === dsName && r.direction === dir && r.lib === lib.name);
            rows.push({ dataset: dsName, direction: dir, lib: lib.name, verdict: timed ? timed.verdict : 'n/a' });
        }
    }
    await pool(rows.filter((row) => row.verdict === 'ok').map((row) => async () => {
        progress('cold start ' + row.lib + ' ' + row.direction);
        const res = await runChild({ mode: 'cold', lib: row.lib, dataset: dsName, direction: row.direction, seconds: mode.cold }, []);
        Object.assign(row, res.error ? { verdict: 'n/a', error: res.error } : res);
    }), mode.jobs);
    results.cold.push(...rows);
    progress('');
}

// the mixed mode: every data set timed alone, each in a fresh process, then all of them in
// this one, in a seeded shuffled order, after every library has warmed up on every data set
async function measureMixed(opts, dsNames, libs, mode, results, phase, write) {
    const seed = opts.seed === null ? Date.now() % 1e6 : opts.seed;
    const order = mixed.shuffle(dsNames, seed);
    write('mixed mode: each data set timed alone in a fresh process, then all in one process after every library ' +
        'has warmed up on every data set, in this order (seed ' + seed + ', --seed to repeat it): ' + order.join(', ') + '\n\n');
    let alone, verified;
    await phase('alone', async () => { alone = await mixed.timeAllAlone(dsNames, libs.map((l) => l.name), mode); });
    await phase('verify', () => { verified = verifyAll(order, libs, mode, results); });
    await phase('warm-up', () => warmAll(verified, libs, mode));
    await phase('timing', () => timeAll(verified, libs, mode, results));
    results.alone = alone;
    results.mixed = { seed, order, fractions: mixed.fractions(alone, results.timing) };
}

async function run(opts, write) {
    const started = timing.now();
    // the package's entries (dist/node), made from lib/ as it is now
    await require('../scripts/build').build();
    // --update DOC: the report also replaces the one between DOC's markers, once the run is done;
    // a document without them is refused before anything is measured
    let doc = null;
    const written = [];
    if (opts.update) {
        doc = fs.readFileSync(opts.update, 'utf8');
        report.replaceReport(doc, '');
        const print = write;
        write = (text) => {
            written.push(text);
            print(text);
        };
    }
    const load = os.loadavg()[0], busy = load > Math.max(1, os.cpus().length / 2);
    // wall clock on an idle machine; on a busy one, CPU time (which it disturbs far less)
    const clock = opts.clock === 'auto' ? (busy ? 'cpu' : 'wall') : opts.clock;
    const mode = Object.assign({ name: opts.mode, clock }, MODES[opts.mode]);
    const pick = applyFilter(opts.filter);
    if (opts.coldStart && !datasets.NAMES.includes(opts.cold)) throw usageError('--cold: no data set ' + opts.cold);
    const coldData = pick.datasets.includes(opts.cold) ? opts.cold : pick.datasets[0];     // must be verified
    const libs = libraries.create(pick.libs).map((lib) => lib.load());
    const libNames = libs.map((l) => l.name);
    const md = opts.markdown;
    const results = { format: 'qbson-benchmark/1', date: new Date().toISOString(), argv: process.argv.slice(2),
        mode, system: systemInfo(libs), libraries: libs.map((l) => ({ name: l.name, version: l.version,
            available: l.available, reason: l.reason, note: l.note, format: l.format })),
        datasets: [], timing: [], memory: [], cold: [], start: null, size: null, phases: {} };
    const phase = async (name, fn) => {
        const t = timing.now();
        await fn();
        results.phases[name] = timing.now() - t;
    };
    const notes = (lines) => (lines.length ? lines.map((l) => (md ? '- ' : '') + l).join('\n') + '\n\n' : '');

    const sys = results.system;
    write(report.heading('qbson benchmark', md));
    write('node ' + sys.node + ', V8 ' + sys.v8 + ', ' + sys.platform + ', ' + sys.cpu + ' × ' + sys.cpuCount + '; ' +
        Object.keys(sys.versions).map((k) => k + ' ' + sys.versions[k]).join(', ') + '\n' + (md ? '\n' : ''));
    if (busy) {
        write('warning: the machine is busy (load average ' + load.toFixed(1) + ' on ' + sys.cpuCount + ' CPUs): ' +
            (clock === 'wall' ? 'wall-clock rates are unreliable; use an idle machine or --cpu'
                : 'timing by CPU time' + (opts.clock === 'auto' ? ' (--wall to force wall clock)' : '') + ', expect some noise') +
            '\n' + (md ? '\n' : ''));
    }
    write('mode ' + mode.name + ': each rate is the median of ' + mode.samples + ' timed runs of ~' + report.micros(mode.sample) +
        ' after a ' + report.micros(mode.warmup) + ' warm-up, by ' + (mode.clock === 'cpu' ? 'process CPU time' : 'wall clock') +
        (mode.maxTimedBytes ? '; data sets over ' + report.bytes(mode.maxTimedBytes) + ' are verified, not timed (-)' : '') + '\n\n');

    if (opts.mixed) {
        await measureMixed(opts, pick.datasets, libs, mode, results, phase, write);
    } else {
        let verified;
        await phase('verify', () => { verified = verifyAll(pick.datasets, libs, mode, results); });
        await phase('timing', () => timeAll(verified, libs, mode, results));
    }
    write(report.table('data sets', ['data set', 'bson size', 'docs', 'description'], results.datasets.map((d) =>
        [d.name, report.bytes(d.bsonBytes), String(d.docs), md ? '`' + d.title + '`' : d.title]), md, 'lrrl') + '\n');
    write(report.heading('verification (≠ = output differs from bson, n/a = not available or threw)', md));
    write(notes(report.verificationNotes(results)) || 'every library agrees with bson on every data set\n\n');
    if (opts.mixed) {
        write(report.heading('mixed against alone', md) + mixed.fractionTables(results, libNames, md) + '\n' +
            notes(mixed.fractionLines(results, libNames).concat(results.alone.filter((r) => r.error).map((r) => r.dataset + ': ' + r.error))));
    } else {
        write(report.heading('speed', md) + report.timingTables(results, libNames, md) + '\n' + notes([report.spread(results)]));
    }
    write(report.heading('qbson against the targets' + (opts.mixed ? ', in the mixed run' : ''), md) +
        report.comparisonTable(results, md) + '\n' + report.behindTable(results, md) + '\n' + notes(report.targetLines(results)));

    if (opts.memory && !opts.mixed) {
        await phase('memory', () => memoryAll(mode, results));
        const measured = libNames.filter((n) => results.memory.some((r) => r.lib === n));
        write(report.heading('memory', md) + report.memoryTables(results, measured, md) + '\n' +
            notes([report.memoryLine(results)].concat(report.childErrors(results.memory))));
    }
    if (opts.coldStart && !opts.mixed) {
        await phase('cold', () => coldAll(coldData, libs, mode, results));
        let text = report.heading('cold start', md);
        // qbson against bson in many fresh processes (start.js), when both are measured
        if (start.LIBS.every((name) => libNames.includes(name))) {
            await phase('start', async () => {
                results.start = await start.startAll({ names: pick.datasets, rounds: mode.starts, jobs: mode.jobs, progress });
            });
            text += report.startTable(results.start, md) + '\n' + notes(report.startLines(results.start));
        }
        write(text + report.coldTable(results, md) + '\n' + notes(report.childErrors(results.cold)));
    }
    if (opts.size) {
        await phase('size', async () => {
            try {
                // the files in each bundle, counted
                results.size = (await require('../scripts/sizes').measure()).map((r) => Object.assign({}, r, { inputs: r.inputs.length,
                    bson: Object.assign({}, r.bson, { inputs: r.bson.inputs.length }) }));
                write(report.heading('bundle size', md) + report.sizeTable(results.size, md) + '\n');
            } catch (err) {
                write(report.heading('bundle size', md) + 'not measured: ' + String(err.message).split('\n')[0] + '\n\n');
            }
        });
    }
    // reading a few fields in place against full decodes (incremental.js), in a process of its own
    if (opts.incremental && !opts.mixed && mode.name !== 'smoke' && !opts.filter.length) {
        await phase('incremental', async () => write(await incrementalSection(mode, md)));
        await phase('json-to-bson', async () => write(await incrementalSection(mode, md, JSON_TO_BSON)));
        await phase('value-mapping', async () => write(await incrementalSection(mode, md, VALUE_MAPPING)));
        await phase('transcode', async () => write(await incrementalSection(mode, md, TRANSCODE)));
        await phase('driver-json', async () => write(await incrementalSection(mode, md, DRIVER_JSON)));
        await phase('schema', async () => write(await incrementalSection(mode, md, SCHEMA)));
    }
    results.sink = timing.state.sink;
    results.seconds = timing.now() - started;
    write('sink ' + results.sink + '; ran ' + results.seconds.toFixed(1) + ' s (' +
        Object.keys(results.phases).map((k) => k + ' ' + results.phases[k].toFixed(1) + ' s').join(', ') + ')\n');
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify(results, null, 1) + '\n');
    if (doc !== null) fs.writeFileSync(opts.update, report.replaceReport(doc, written.join('')));
    return results;
}

// a section measured by a script of its own (incremental.js, json-to-bson.js, value-mapping.js, transcode.js, driver-json.js, schema.js), in a process of its own
function incrementalSection(mode, md, script = INCREMENTAL) {
    const args = ['--expose-gc', script].concat(mode.name === 'quick' ? ['--quick'] : [], md ? ['--markdown'] : []);
    return new Promise((resolve) => {
        childProcess.execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
            resolve(err ? path.basename(script, '.js') + ': failed: ' + String(stderr || err.message).trim().split('\n').pop() + '\n\n' : stdout + '\n');
        });
    });
}

module.exports = { run, parseArgs, applyFilter, MODES };

if (require.main === module) {
    const fail = (err) => {
        process.stderr.write(err.usage ? err.message + '\n' + USAGE + '\n' : err.stack + '\n');
        process.exitCode = err.usage ? 2 : 1;
    };
    try {
        const opts = parseArgs(process.argv.slice(2));
        if (opts.help) process.stdout.write(USAGE + '\n');
        else run(opts, (text) => process.stdout.write(text)).catch(fail);
    } catch (err) {
        fail(err);
    }
}
