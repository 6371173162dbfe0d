'use strict';

// The in-process measurement passes shared by the normal and the mixed mode: verify
// every library on every data set, warm every cell up, time every cell.

const datasets = require('./datasets');
const verify = require('./verify');
const timing = require('./timing');

const DIRECTIONS = ['encode', 'decode'];
const BASELINE = 'bson';

function progress(text) {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K' + text);
}

// verify every library on every data set (which also runs each once on every data set
// before any timing); returns the cells with the timed inputs
function verifyAll(dsNames, libs, mode, results) {
    const verified = dsNames.map((name) => {
        progress('verifying ' + name);
        const ds = datasets.load(name);
        const ref = verify.reference(ds);
        const bsonBytes = ref.bytes.reduce((n, b) => n + b.length, 0);
        results.datasets.push({ name, group: ds.group, title: ds.title, docs: ds.docs.length, bsonBytes, json: ds.json });
        return { name, cells: libs.map((lib) => verify.check(lib, ds, ref)), skipped: bsonBytes > (mode.maxTimedBytes || Infinity) };
    });
    progress('');
    return verified;
}

// the ops of one data set and direction, with their result rows (pushed to results.timing)
function cellOps(entry, dir, libs, results) {
    const { name, cells, skipped } = entry;
    const ops = [];
    libs.forEach((lib, i) => {
        const cell = cells[i];
        const row = { dataset: name, direction: dir, lib: lib.name, verdict: cell[dir].verdict,
            reason: cell[dir].reason, size: cell.size, skipped };
        if (results) results.timing.push(row);
        if (row.verdict === 'ok' && !skipped) {
            ops.push({ row, op: timing.makeOp(cell[dir + 'Fn'], cell[dir + 'Input'], lib.name + ' ' + dir + ' ' + name) });
        }
    });
    return ops;
}

// warm every verified cell up, data set by data set, without timing it (the mixed mode,
// so that every data set is timed after all the others have run)
function warmAll(verified, libs, mode) {
    for (const entry of verified) {
        for (const dir of DIRECTIONS) {
            progress('warming up ' + entry.name + ' ' + dir);
            for (const { op } of cellOps(entry, dir, libs, null)) timing.settle(op, mode.warmup);
        }
    }
    progress('');
}

// time the verified cells, data set by data set
function timeAll(verified, libs, mode, results) {
    for (const entry of verified) {
        for (const dir of DIRECTIONS) {
            progress('timing ' + entry.name + ' ' + dir);
            const ops = cellOps(entry, dir, libs, results);
            timing.measure(ops, mode);
            const base = ops.find((e) => e.row.lib === BASELINE);
            for (const { row, nloops, rates, opsPerSec, wallRates, cpuRates } of ops) {
                Object.assign(row, { opsPerSec, mbPerSec: opsPerSec * row.size / 1e6,
                    spread: (Math.max(...rates) - Math.min(...rates)) / opsPerSec,
                    rate: !base ? NaN : row.lib === BASELINE ? 100 : 100 * opsPerSec / base.opsPerSec,
                    nloops, wallOpsPerSec: timing.median(wallRates), cpuOpsPerSec: timing.median(cpuRates), wallRates, cpuRates });
            }
        }
    }
    progress('');
}

module.exports = { DIRECTIONS, BASELINE, progress, verifyAll, warmAll, timeAll };
