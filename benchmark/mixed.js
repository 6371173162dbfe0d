'use strict';

// The mixed mode (run.js --mixed): is a data set as fast after every other data set has
// gone through the libraries as it is alone?  Each data set is first timed alone, in a
// fresh process of its own (run.js --filter DATASET); then all of them in this process,
// in a seeded shuffled order, after every library has warmed up on every data set; each
// mixed rate is reported as a fraction of the alone one.

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { prng } = require('./generate');
const report = require('./report');
const { DIRECTIONS, progress } = require('./measure');

const RUN = path.join(__dirname, 'run.js');

// a copy of `names` in a random order that depends only on the seed (Fisher-Yates)
function shuffle(names, seed) {
    const rng = prng(seed);
    const out = names.slice();
    for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
}

// time one data set alone: run.js in a fresh process, on that data set and these libraries
function timeAlone(dsName, libNames, mode) {
    const file = path.join(os.tmpdir(), 'qbson-alone-' + process.pid + '-' + dsName + '.json');
    const args = [RUN, '--' + mode.name, '--' + mode.clock, '--filter', [dsName].concat(libNames).join(','),
        '--no-memory', '--no-cold', '--json', file];
    return new Promise((resolve) => {
        childProcess.execFile(process.execPath, args, { maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
            let rows;
            try {
                rows = JSON.parse(fs.readFileSync(file, 'utf8')).timing;
                fs.unlinkSync(file);
            } catch (e) {
                const why = String(stderr || (err && err.message) || e.message).trim().split('\n').pop();
                rows = [{ dataset: dsName, error: 'alone run failed: ' + why }];
            }
            resolve(rows);
        });
    });
}

// every data set alone, one process after another (so they do not disturb each other)
async function timeAllAlone(dsNames, libNames, mode) {
    const rows = [];
    for (const name of dsNames) {
        progress('timing ' + name + ' alone');
        rows.push(...await timeAlone(name, libNames, mode));
    }
    progress('');
    return rows;
}

const timed = (r) => r && r.verdict === 'ok' && !r.skipped && r.opsPerSec > 0;

// one row per timing row of the mixed run: its ops/s, the alone ops/s, and mixed ÷ alone
function fractions(alone, mixed) {
    return mixed.map((m) => {
        const a = alone.find((r) => r.dataset === m.dataset && r.direction === m.direction && r.lib === m.lib);
        return { dataset: m.dataset, direction: m.direction, lib: m.lib,
            alone: timed(a) ? a.opsPerSec : NaN, mixed: timed(m) ? m.opsPerSec : NaN,
            fraction: timed(a) && timed(m) ? m.opsPerSec / a.opsPerSec : NaN };
    });
}

const percent = (x) => (isFinite(x) ? Math.round(100 * x) + '%' : '-');

// per direction: each data set, in the mixed order, with every library's mixed ÷ alone
function fractionTables(results, libNames, markdown) {
    return DIRECTIONS.map((dir) => {
        const rows = results.mixed.order.map((name, i) => [String(i + 1), name].concat(libNames.map((lib) => {
            const f = results.mixed.fractions.find((r) => r.dataset === name && r.direction === dir && r.lib === lib);
            return f ? percent(f.fraction) : 'n/a';
        })));
        return report.table(dir + ': ops/s in the mixed run as % of alone', ['#', 'data set'].concat(libNames), rows,
            markdown, 'rl' + 'r'.repeat(libNames.length));
    }).join('\n');
}

// per library: how many data sets keep the target share of their alone rate, and which do not
function fractionLines(results, libNames) {
    const target = report.TARGETS.mixed;
    return libNames.map((lib) => {
        const parts = DIRECTIONS.map((dir) => {
            const rows = results.mixed.fractions.filter((r) => r.lib === lib && r.direction === dir && isFinite(r.fraction));
            const below = rows.filter((r) => r.fraction < target).map((r) => r.dataset + ' ' + percent(r.fraction));
            return dir + ' ' + (rows.length - below.length) + ' of ' + rows.length + ' (geometric mean ' +
                percent(report.geomean(rows.map((r) => r.fraction))) + ')' + (below.length ? ', below: ' + below.join(', ') : '');
        });
        return lib + ' keeps ≥ ' + percent(target) + ' of its alone rate on ' + parts.join('; ');
    });
}

module.exports = { shuffle, timeAllAlone, fractions, fractionTables, fractionLines };
