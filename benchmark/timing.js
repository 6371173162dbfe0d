'use strict';

// Timed loops.  Every library gets its own freshly compiled loop function (so each
// call site stays monomorphic, as in real use) whose results are folded into a sink.
// qtimeit runs the timed loops; the rate is the median of several runs, taken
// round-robin across the libraries after a warm-up. Each run is also timed by process
// CPU time, which a busy machine disturbs far less.

let qtimeit = null;    // loaded on first use: children need no timer

const SILENT = '/* NOOUTPUT */';
const state = { sink: 0 };

// a no-argument function doing one operation: encode or decode one doc, or the whole batch
function makeOp(fn, inputs, label) {
    const fold = '(out === null || out === undefined ? 0 : out.length === undefined ? 1 : out.length)';
    const body = inputs.length === 1
        ? 'const out = fn(input); state.sink = (state.sink + ' + fold + ') | 0;'
        : 'for (let i = 0; i < n; i++) { const out = fn(inputs[i]); state.sink = (state.sink + ' + fold + ') | 0; }';
    const src = "'use strict'; // " + label.replace(/[\r\n]/g, ' ') + '\n' +
        'const input = inputs[0], n = inputs.length;\n' +
        'return function op() { ' + body + ' };';
    return new Function('fn', 'inputs', 'state', src)(fn, inputs, state);
}

function now() {
    return Number(process.hrtime.bigint()) / 1e9;
}

function median(values) {
    if (!values.length) return NaN;
    const v = values.slice().sort((a, b) => a - b), mid = v.length >> 1;
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// call op() for at least `seconds` and `minCalls` calls; returns the seconds per call
function warmUp(op, seconds, minCalls) {
    let calls = 0;
    const start = now();
    let elapsed;
    do {
        op();
        calls++;
        elapsed = now() - start;
    } while (elapsed < seconds || calls < (minCalls || 1));
    return elapsed / calls;
}

// warm up for `seconds` (and at least 3 calls), then go on, up to twice as long, while
// the speed still improves by over 10% from one quarter-length window to the next:
// optimization takes longer on a busy machine, where the compiler threads wait for a CPU.
// (An op slower than a window stops at the first window that is no faster.)
function settle(op, seconds) {
    const window = seconds / 4;
    let prev = warmUp(op, window, 3);
    for (let i = 1; i < 8; i++) {
        const cur = warmUp(op, window);
        if ((i >= 3 || cur > window) && cur > 0.9 * prev) return;
        prev = Math.min(prev, cur);
    }
}

// seconds per call of a warmed-up op: the best of a few short tries, as a busy machine
// only ever makes a try slower (no more tries once a call takes over `enough` seconds)
function perCall(op, seconds, enough) {
    let best = Infinity;
    for (let i = 0; i < 3 && (i === 0 || best <= enough); i++) best = Math.min(best, warmUp(op, seconds / 3));
    return best;
}

// qtimeit calls op() at least 6 times per run; ops slower than sample/5 (milliseconds
// each, where loop overhead does not matter) are timed call by call instead
const MIN_QTIMEIT_LOOPS = 5;
function timeCalls(entry) {
    const start = now();
    for (let i = 0; i < entry.nloops; i++) entry.op();
    return { count: entry.nloops, elapsed: now() - start };
}

function cpuSeconds(since) {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1e6;
}

// ops: [{ op }]; sets on each: nloops; wallRates and cpuRates, the ops/s of each run by
// wall clock and by the process's CPU time; and
// opsPerSec, the median of the runs by the chosen clock (opts.clock 'wall' or 'cpu')
function measure(ops, opts) {
    if (!qtimeit) {
        qtimeit = require('qtimeit');
        qtimeit(1, () => state.sink++, SILENT);      // its one-off self-calibration, untimed
    }
    for (const entry of ops) {
        settle(entry.op, opts.warmup);
        entry.nloops = Math.max(1, Math.round(opts.sample / perCall(entry.op, opts.sample / 4, opts.sample)));
        entry.wallRates = [];
        entry.cpuRates = [];
    }
    // one round more than asked: the first is a further warm-up, not recorded
    for (let run = 0; run <= opts.samples; run++) {
        for (let k = 0; k < ops.length; k++) {
            const entry = ops[(run + k) % ops.length];     // rotate who goes first
            const viaQtimeit = entry.nloops >= MIN_QTIMEIT_LOOPS;
            const cpuStart = process.cpuUsage();
            const res = viaQtimeit ? qtimeit(entry.nloops, entry.op, SILENT) : timeCalls(entry);
            const cpu = cpuSeconds(cpuStart);
            if (run === 0) continue;
            // the loop's own time, as the CPU rate takes it: qtimeit's time less its estimate of
            // the loop's overhead came out at or below 0 for int's and float's decodes (tens of
            // nanoseconds) on an idle machine, and their rates as '-' or 77x bson's
            const wall = viaQtimeit ? res.wallclock : res.elapsed;
            if (wall > 0) entry.wallRates.push(res.count / wall);
            // qtimeit calls op() once more, untimed, before its loop
            if (cpu > 0) entry.cpuRates.push((res.count + (viaQtimeit ? 1 : 0)) / cpu);
        }
    }
    for (const entry of ops) {
        entry.rates = opts.clock === 'cpu' ? entry.cpuRates : entry.wallRates;
        entry.opsPerSec = median(entry.rates);
    }
    return ops;
}

// The sections run.js runs in a process of their own, each data set in turn
// (json-to-bson.js, value-mapping.js): their run lengths, and their command line
// `[--quick] [--markdown] [--filter a,b]`.
const SECTION_MODES = {
    full: { warmup: 0.2, sample: 0.05, samples: 7 },
    quick: { warmup: 0.03, sample: 0.01, samples: 3 },
};

function sectionArgs(argv, allNames) {
    const f = argv.indexOf('--filter');
    return {
        mode: argv.includes('--quick') ? SECTION_MODES.quick : SECTION_MODES.full,
        md: argv.includes('--markdown'),
        names: f >= 0 ? argv[f + 1].split(',') : allNames,
    };
}

// ops/s of each function by process CPU time (a busy machine disturbs it far less
// than the wall clock), median of mode.samples runs taken in turn
function cpuRates(ops, mode) {
    const entries = ops.map((op) => ({ op }));
    measure(entries, { warmup: mode.warmup, sample: mode.sample, samples: mode.samples, clock: 'cpu' });
    return entries.map((e) => e.opsPerSec);
}

module.exports = { makeOp, measure, median, warmUp, settle, perCall, now, state, SECTION_MODES, sectionArgs, cpuRates };
