// The runtime benchmark's measurement, in any JavaScript runtime: every data set
// encoded and decoded by qbson and by bson in the same runtime, after checking
// that qbson's bytes and values are bson's. Timing as benchmark/timing.js does it,
// with what every runtime has: a loop compiled per library so each call site sees
// one library, a warm-up until the speed settles, then samples taken in turn
// across the two libraries, and the median rate of each.

const state = { sink: 0 };

// Process CPU seconds where the runtime has them (Node, Bun, Deno): a busy machine
// disturbs them far less than the wall clock (benchmark/timing.js does the same);
// else the wall clock (browsers).
const cpuUsage = globalThis.process && typeof globalThis.process.cpuUsage === 'function' ? () => globalThis.process.cpuUsage() : null;
export const CLOCK = cpuUsage ? 'process CPU time' : 'wall clock';
function seconds() {
    if (cpuUsage === null) return performance.now() / 1000;
    const used = cpuUsage();
    return (used.user + used.system) / 1e6;
}

function hex(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return out;
}

// calls fn on each input `calls` times over; its own code per library where the
// runtime may compile code from strings (a browser's CSP may refuse)
function makeLoop(fn, inputs) {
    const body = 'return function loop(calls) { for (let c = 0; c < calls; c++) for (let i = 0; i < inputs.length; i++) ' +
        '{ const out = fn(inputs[i]); state.sink = (state.sink + (out.length === undefined ? 1 : out.length)) | 0; } };';
    try {
        return new Function('fn', 'inputs', 'state', body)(fn, inputs, state);
    } catch {
        return (calls) => {
            for (let c = 0; c < calls; c++) for (let i = 0; i < inputs.length; i++) state.sink = (state.sink + 1) | 0, fn(inputs[i]);
        };
    }
}

function median(values) {
    const v = values.slice().sort((a, b) => a - b), mid = v.length >> 1;
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// seconds per call of loop(1), run for at least `wanted` seconds
function perCall(loop, wanted) {
    let calls = 0;
    const start = seconds();
    let elapsed;
    do {
        loop(1);
        calls++;
        elapsed = seconds() - start;
    } while (elapsed < wanted);
    return elapsed / calls;
}

// Warm up for `wanted` seconds, then go on, up to six times as long, while the speed
// still improves by over 10% from one quarter-length window to the next: JavaScriptCore
// tiers code up later than V8 (qbson's flat_bson encode on Bun ran 7,590/s in its first
// 0.3 s of CPU and 43,629/s in its fourth).
function settle(loop, wanted) {
    const window = wanted / 4;
    let prev = perCall(loop, window);
    for (let i = 1; i < 24; i++) {
        const cur = perCall(loop, window);
        if (i >= 3 && cur > 0.9 * prev) return;
        prev = Math.min(prev, cur);
    }
}

// ops/s of each loop: warm-up, then `samples` rounds taking turns (who goes first rotates)
function measure(loops, opts) {
    const counts = loops.map((loop) => {
        settle(loop, opts.warmup);
        return Math.max(1, Math.round(opts.sample / perCall(loop, opts.sample)));
    });
    const rates = loops.map(() => []);
    for (let round = 0; round < opts.samples; round++) {
        for (let k = 0; k < loops.length; k++) {
            const j = (round + k) % loops.length;
            const start = seconds();
            loops[j](counts[j]);
            const elapsed = seconds() - start;
            if (elapsed > 0) rates[j].push(counts[j] / elapsed);
        }
    }
    return rates.map(median);
}

// null, or why qbson's output for this data set is not bson's
function verify(qbson, bson, docs, encoded) {
    for (let i = 0; i < docs.length; i++) {
        if (hex(qbson.encode(docs[i])) !== hex(encoded[i])) return `encode: document ${i} differs from bson's bytes`;
        if (hex(bson.serialize(qbson.decode(encoded[i]))) !== hex(bson.serialize(bson.deserialize(encoded[i])))) {
            return `decode: document ${i} differs from bson's values`;
        }
    }
    return null;
}

export const MODES = {
    full: { warmup: 0.2, sample: 0.03, samples: 7 },
    quick: { warmup: 0.05, sample: 0.01, samples: 5 },
};

// datasets: { NAMES, load }; returns { rows: [{ name, title, encode: [qbson, bson], decode: [qbson, bson] } | { name, error }] }
export function runBenchmark(qbson, bson, datasets, { mode = 'full', filter = [] } = {}) {
    const opts = MODES[mode];
    const rows = [];
    for (const name of datasets.NAMES) {
        if (filter.length && !filter.includes(name)) continue;
        const ds = datasets.load(name);
        const encoded = ds.docs.map((doc) => bson.serialize(doc));
        const wrong = verify(qbson, bson, ds.docs, encoded);
        if (wrong) {
            rows.push({ name, error: wrong });
            continue;
        }
        const encode = measure([makeLoop((d) => qbson.encode(d), ds.docs), makeLoop((d) => bson.serialize(d), ds.docs)], opts);
        const decode = measure([makeLoop((b) => qbson.decode(b), encoded), makeLoop((b) => bson.deserialize(b), encoded)], opts);
        rows.push({ name, bytes: encoded.reduce((n, b) => n + b.length, 0), encode, decode });
        if (datasets.forget) datasets.forget(name);
    }
    return { rows, clock: CLOCK, sink: state.sink };
}
