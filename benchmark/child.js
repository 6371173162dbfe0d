'use strict';

// Child process for the measurements that need a process of their own:
//   node --expose-gc child.js '{"mode":"memory","cells":[["bson","int","encode"]],"seconds":0.1,"warmCalls":3}'
//     heap bytes allocated per operation and time spent in GC, for each data set and direction
//   node child.js '{"mode":"cold","lib":"bson","dataset":"flat_bson","direction":"decode","seconds":0.2}'
//     require time, first and second call, and warmed-up time per call, in a fresh process
//   node child.js '{"mode":"first","lib":"bson","dataset":"tweet","direction":"encode"}'
//     require time and the first call alone, in a fresh process (start.js)
//   node child.js '{"mode":"import","lib":"qbson"}'
//     the time of importing the library's ES module entry in a fresh process (qbson and bson)
// Prints one line of JSON.

const v8 = require('v8');
const libraries = require('./libraries');
const timing = require('./timing');

// Heap bytes allocated = heap growth over the loop + what each GC during it freed.
// Warm up first (at least warmCalls calls), so optimized code is measured.
function allocation(op, seconds, warmCalls) {
    const calls = Math.max(1, Math.ceil(seconds / timing.warmUp(op, seconds / 2, warmCalls)));
    global.gc({ type: 'minor' });       // empty the young generation (a full gc runs per data set)
    const profiler = new v8.GCProfiler();
    profiler.start();
    const before = v8.getHeapStatistics().used_heap_size;
    const start = timing.now();
    for (let i = 0; i < calls; i++) op();
    const wall = timing.now() - start;
    const after = v8.getHeapStatistics().used_heap_size;
    const gcs = profiler.stop().statistics;
    let freed = 0, gcMicros = 0;
    for (const gc of gcs) {
        freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
        gcMicros += gc.cost;
    }
    return { calls, bytesPerOp: Math.max(0, after - before + freed) / calls,
        gcCount: gcs.length, gcPercent: 100 * gcMicros / 1e6 / wall };
}

// the timed input, built without calling the library's own code for that direction
// (the same input verify.check builds; the parent only asks for verified cells)
const plainForms = new Map();
function timedInput(lib, ds, dir) {
    const bson = require('bson');
    if (lib.format === 'bson') {
        return dir === 'encode' ? ds.docs.map((doc) => lib.prepare(doc)) : ds.docs.map((doc) => bson.serialize(doc));
    }
    if (!plainForms.has(ds)) {
        plainForms.clear();
        plainForms.set(ds, ds.docs.map((doc) => JSON.parse(bson.EJSON.stringify(doc, { relaxed: true }))));
    }
    const plain = plainForms.get(ds);
    return dir === 'encode' ? plain : plain.map((doc) => lib.encode(doc));
}

// job.cells: [[library, dataset, direction], ...], grouped by data set; job.seconds, job.warmCalls
function memory(job) {
    if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
    const datasets = require('./datasets');
    const libs = {};
    let current = null;
    return job.cells.map(([libName, name, dir]) => {
        if (current !== name) {
            if (current) datasets.forget(current);      // keep the heap small
            current = name;
            global.gc();
        }
        const lib = libs[libName] = libs[libName] || libraries.create([libName])[0].load();
        if (!lib.available) return { verdict: 'n/a', error: lib.reason };
        const ds = datasets.load(name), own = libraries.forDataset(lib, ds);
        const op = timing.makeOp(own[dir], timedInput(own, ds, dir), libName + ' ' + dir + ' ' + name);
        return Object.assign({ verdict: 'ok' }, allocation(op, job.seconds, job.warmCalls || 1));
    });
}

// job.mode 'first' stops after the first call: start.js runs many such processes
function cold(job) {
    const lib = libraries.create([job.lib])[0].load();
    if (!lib.available) throw new Error(lib.reason);
    const ds = require('./datasets').load(job.dataset), own = libraries.forDataset(lib, ds);
    const op = timing.makeOp(own[job.direction], timedInput(own, ds, job.direction), 'cold ' + job.lib);
    let t = timing.now();
    op();
    const first = timing.now() - t;
    if (job.mode === 'first') return { requireSeconds: lib.loadSeconds, first };
    t = timing.now();
    op();
    const second = timing.now() - t;
    timing.settle(op, job.seconds);
    return { requireSeconds: lib.loadSeconds, first, second, warm: timing.perCall(op, job.seconds / 2, Infinity) };
}

// The ES module entries whose import is timed: `import ... from 'qbson'` and from 'bson'
const ESM_ENTRIES = {
    qbson: () => 'qbson',
    bson: () => 'bson',
};

async function importTime(job) {
    if (!ESM_ENTRIES[job.lib]) throw new Error(`no ES module entry known for ${job.lib}`);
    const entry = ESM_ENTRIES[job.lib]();
    const start = process.hrtime.bigint();
    const ns = await import(entry);
    const importSeconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (typeof ns.deserialize !== 'function') throw new Error(`${job.lib}'s ES module has no deserialize`);
    return { importSeconds };
}

module.exports = { memory, cold, allocation, timedInput };

async function main(job) {
    if (job.mode === 'import') return importTime(job);
    return job.mode === 'memory' ? memory(job) : cold(job);
}

if (require.main === module) {
    const job = JSON.parse(process.argv[2]);
    main(job).then(
        (result) => ({ ok: true, result, sink: timing.state.sink }),
        (err) => ({ ok: false, error: String(err && err.message) }),
    ).then((message) => process.stdout.write(JSON.stringify(message) + '\n'));
}
