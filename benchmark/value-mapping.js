'use strict';

// The "values at decode time" section: decode with the values option
// {objectId: 'hex', date: 'iso'} against decode followed by a walk that makes
// the same conversion, per data set.
//   node benchmark/value-mapping.js [--quick] [--markdown] [--filter a,b]
// The walk is what a program writes by hand: it visits every plain object and
// array in place and replaces each ObjectId by its hex string and each Date by
// its ISO string, writing back only what it changed. bson's deserialize followed
// by the same walk is shown for scale. A batch data set decodes each of its
// documents per operation. Every output is checked against qbson's decode and
// walk before anything is timed. Rates by process CPU time.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');
const { runSection } = require('./section');

const VALUES = { values: { objectId: 'hex', date: 'iso' } };

// v with its ObjectIds and Dates as strings, plain objects and arrays changed in place
function convert(v) {
    if (typeof v !== 'object' || v === null) return v;
    if (v._bsontype === 'ObjectId') return v.toHexString();
    if (v instanceof Date) return v.toISOString();
    if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
            const x = v[i];
            if (typeof x === 'object' && x !== null) {
                const c = convert(x);
                if (c !== x) v[i] = c;
            }
        }
    } else if (Object.getPrototypeOf(v) === Object.prototype) {
        const keys = Object.keys(v);
        for (let k = 0; k < keys.length; k++) {
            const x = v[keys[k]];
            if (typeof x === 'object' && x !== null) {
                const c = convert(x);
                if (c !== x) v[keys[k]] = c;
            }
        }
    }
    return v;
}

const state = { sink: 0 };
function loop(fn, inputs) {
    return function op() {
        for (let i = 0; i < inputs.length; i++) state.sink = (state.sink + (fn(inputs[i]) === null ? 0 : 1)) | 0;
    };
}

const mapped = (b) => qbson.decode(b, VALUES);
const qbsonWalk = (b) => convert(qbson.decode(b));
const bsonWalk = (b) => convert(bson.deserialize(b));

// how many ObjectIds and Dates a decoded value holds
function countConverted(v) {
    if (typeof v !== 'object' || v === null) return 0;
    if (v._bsontype === 'ObjectId' || v instanceof Date) return 1;
    let n = 0;
    for (const x of Object.values(v)) n += countConverted(x);
    return n;
}

const canonical = (doc) => qbson.EJSON.stringify(doc, { relaxed: false });

function measure(name, mode) {
    const ds = datasets.load(name);
    const bufs = ds.docs.map((d) => qbson.encode(d));
    for (const b of bufs) {
        const want = qbsonWalk(b);
        assert.deepStrictEqual(mapped(b), want, `${name}: decode with values differs from decode and walk`);
        // bson's own classes (Long, Binary...) are not qbson's: compared as canonical Extended JSON
        assert.strictEqual(canonical(bsonWalk(b)), canonical(want), `${name}: bson's deserialize and walk differs`);
    }
    const row = { name, bytes: bufs.reduce((s, b) => s + b.length, 0), converted: bufs.reduce((s, b) => s + countConverted(qbson.decode(b)), 0) };
    [row.mappedRate, row.walkRate, row.bsonRate, row.decodeRate] = timing.cpuRates([
        loop(mapped, bufs), loop(qbsonWalk, bufs), loop(bsonWalk, bufs), loop(qbson.decode, bufs),
    ], mode);
    return row;
}

const x = (a, b) => (a > 0 && b > 0 ? (a / b).toFixed(2) + '×' : '-');
const rate = (r) => (r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(3));

function table(rows, md) {
    return report.table('ObjectId → hex and Date → ISO string, ops/s (× = decode with values over the others)',
        ['data set', 'BSON', 'converted', 'decode with values', 'qbson decode + walk', 'bson deserialize + walk', 'plain decode',
            '× qbson walk', '× bson walk', 'values / plain decode', 'ceiling'],
        rows.map((r) => [r.name, report.bytes(r.bytes), String(r.converted), rate(r.mappedRate), rate(r.walkRate), rate(r.bsonRate),
            rate(r.decodeRate), x(r.mappedRate, r.walkRate), x(r.mappedRate, r.bsonRate), x(r.mappedRate, r.decodeRate), x(r.decodeRate, r.walkRate)]),
        md);
}

function summary(rows) {
    const geo = (vals) => report.geomean(vals.filter((v) => isFinite(v) && v > 0));
    const all = geo(rows.map((r) => r.mappedRate / r.walkRate));
    const some = rows.filter((r) => r.converted > 0);
    const withTypes = geo(some.map((r) => r.mappedRate / r.walkRate));
    const least = rows.reduce((m, r) => (r.mappedRate / r.walkRate < m.mappedRate / m.walkRate ? r : m), rows[0]);
    const ceiling = geo(rows.map((r) => r.decodeRate / r.walkRate));
    return `geometric means: decode with values ${all.toFixed(2)}× qbson decode + walk over every data set (target ≥ 1.5×; ceiling ${ceiling.toFixed(2)}×), ` +
        `${withTypes.toFixed(2)}× over the ${some.length} that hold ObjectIds or Dates; lowest ${x(least.mappedRate, least.walkRate)} (${least.name})`;
}

function main(argv) {
    return runSection(argv, {
        label: 'value-mapping',
        title: 'Values at decode time: the values option against decode, then a walk',
        measure,
        tables: table,
        summary,
        note: 'a batch data set decodes each of its documents per operation. converted: ObjectIds and Dates per operation. ' +
            'ceiling: plain decode over decode + walk, what a conversion at no cost at all would reach.',
    });
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main, convert };
