'use strict';

// qbson against bson from a fresh process, as a command, a serverless function or a test file
// meets them. Every figure is the median of `rounds` fresh processes per library, the two
// libraries taking turns in each round:
//   require        of the package's CommonJS entry, timed in every process of the first calls
//   import         of its ES module entry (child.js 'import')
//   first encode,  after the require, of each data set of DATASETS (child.js 'first')
//   first decode
//   short process  load, decode the document of a file, encode it, decode that (short-process.js):
//                  from spawn to exit as this process sees it, and the time of its own code
// and an empty node process's spawn to exit, the floor under the short process's.

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const LIBS = ['qbson', 'bson'];
const DATASETS = ['flat_bson', 'tweet', 'small_doc'];
const CHILD = path.join(__dirname, 'child.js');
const SHORT = path.join(__dirname, 'short-process.js');

// runs node with args; resolves { wall: spawn to exit in seconds, message: its last line as JSON } or { error }
function spawnTimed(args) {
    return new Promise((resolve) => {
        const start = process.hrtime.bigint();
        childProcess.execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
            const wall = Number(process.hrtime.bigint() - start) / 1e9;
            if (err) return resolve({ error: String(stderr || err.message).trim().split('\n').pop() });
            const last = String(stdout).trim().split('\n').pop();
            try {
                resolve({ wall, message: last ? JSON.parse(last) : null });
            } catch (e) {
                resolve({ error: 'unreadable output: ' + last });
            }
        });
    });
}

async function pool(tasks, limit) {
    let next = 0;
    const worker = async () => {
        while (next < tasks.length) await tasks[next++]();
    };
    await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

// names: the data sets picked (those of DATASETS among them are measured); rounds, jobs;
// progress(text). Returns { rounds, datasets, missing, samples: [{ lib, what, dataset, seconds }],
// empty: [seconds], errors: [text] }.
async function startAll({ names, rounds, jobs, progress = () => {} }) {
    const datasets = require('./datasets');
    const bson = require('bson');
    const measured = DATASETS.filter((n) => datasets.NAMES.includes(n) && names.includes(n));
    const result = { rounds, datasets: measured, missing: DATASETS.filter((n) => !datasets.NAMES.includes(n)),
        samples: [], empty: [], errors: [] };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-start-'));
    const files = {};
    for (const name of measured) {
        files[name] = path.join(dir, name + '.bson');
        fs.writeFileSync(files[name], bson.serialize(datasets.load(name).docs[0]));
    }
    const add = (lib, what, dataset, seconds) => result.samples.push({ lib, what, dataset, seconds });
    const fail = (lib, what, dataset, error) => result.errors.push(lib + ' ' + what + (dataset ? ' ' + dataset : '') + ': ' + error);
    const child = (lib, what, dataset, job, record) => async () => {
        progress('fresh process ' + lib + ' ' + what + (dataset ? ' ' + dataset : ''));
        const res = await spawnTimed([CHILD, JSON.stringify(job)]);
        if (res.error || !res.message.ok) fail(lib, what, dataset, res.error || res.message.error);
        else record(res.message.result);
    };
    const tasks = [];
    for (let round = 0; round < rounds; round++) {
        // the two libraries take turns, the first one changing from round to round
        const libs = round % 2 ? LIBS.slice().reverse() : LIBS;
        tasks.push(async () => {
            const res = await spawnTimed(['-e', '0']);
            if (res.error) result.errors.push('empty process: ' + res.error);
            else result.empty.push(res.wall);
        });
        for (const lib of libs) {
            tasks.push(child(lib, 'import', '', { mode: 'import', lib }, (r) => add(lib, 'import', '', r.importSeconds)));
        }
        for (const dataset of measured) {
            for (const direction of ['encode', 'decode']) {
                for (const lib of libs) {
                    tasks.push(child(lib, direction, dataset, { mode: 'first', lib, dataset, direction }, (r) => {
                        add(lib, 'require', dataset, r.requireSeconds);
                        add(lib, direction, dataset, r.first);
                    }));
                }
            }
            for (const lib of libs) {
                tasks.push(async () => {
                    progress('fresh process ' + lib + ' short process ' + dataset);
                    const res = await spawnTimed([SHORT, lib, files[dataset]]);
                    if (res.error) return fail(lib, 'short process', dataset, res.error);
                    add(lib, 'process', dataset, res.wall);
                    add(lib, 'process code', dataset, res.message.seconds);
                });
            }
        }
    }
    try {
        await pool(tasks, jobs);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        progress('');
    }
    return result;
}

module.exports = { startAll, LIBS, DATASETS };
