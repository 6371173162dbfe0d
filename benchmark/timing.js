'use strict';

// Timed loops.  Every library gets its own freshly compiled loop function (so each
// call site stays monomorphic, as in real use) whose results are folded into a sink.
// qtimeit runs the timed loops and subtracts its own loop overhead; the rate is the
// median of several runs, taken round-robin across the libraries after a warm-up.

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

// call op() for at least `seconds`; returns the seconds per call
function warmUp(op, seconds) {
    let calls = 0;
    const start = now();
    let elapsed;
    do {
        op();
        calls++;
        elapsed = now() - start;
    } while (elapsed < seconds);
    return elapsed / calls;
}

// qtimeit calls op() at least 6 times per run; ops slower than sample/5 (milliseconds
// each, where loop overhead does not matter) are timed call by call instead
const MIN_QTIMEIT_LOOPS = 5;
function timeCalls(entry) {
    const start = now();
    for (let i = 0; i < entry.nloops; i++) entry.op();
    return { count: entry.nloops, elapsed: now() - start };
}

// ops: [{ op }]; sets on each: nloops, rates (ops/s of each run), opsPerSec (their median)
function measure(ops, opts) {
    qtimeit = qtimeit || require('qtimeit');
    for (const entry of ops) {
        const perCall = warmUp(entry.op, opts.warmup);
        entry.nloops = Math.max(1, Math.round(opts.sample / perCall));
        entry.rates = [];
    }
    for (let run = 0; run < opts.samples; run++) {
        for (let k = 0; k < ops.length; k++) {
            const entry = ops[(run + k) % ops.length];     // rotate who goes first
            const res = entry.nloops >= MIN_QTIMEIT_LOOPS ? qtimeit(entry.nloops, entry.op, SILENT) : timeCalls(entry);
            if (res.elapsed > 0) entry.rates.push(res.count / res.elapsed);
        }
    }
    for (const entry of ops) entry.opsPerSec = median(entry.rates);
    return ops;
}

module.exports = { makeOp, measure, median, warmUp, now, state };
