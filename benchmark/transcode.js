'use strict';

// The "BSON to JSON text" section: qbson's bsonToJSON against decoding the bytes
// into values and stringifying them, per data set.
//   node benchmark/transcode.js [--quick] [--markdown] [--filter a,b]
// 'json' mode: bsonToJSON(b, {mode: 'json'}) against JSON.stringify(qbson.decode(b))
//   and JSON.stringify(bson.deserialize(b));
// 'relaxed' and 'canonical' modes: bsonToJSON(b, {mode}) against
//   bson.EJSON.stringify(bson.deserialize(b), {relaxed}) and qbson's own EJSON of decode.
// A batch data set is one buffer per document, all of them per operation. Every
// output is checked against the text of the decoded value before anything is timed.
// Rates by process CPU time (a busy machine disturbs it far less than the wall clock).

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');
const { runSection } = require('./section');

// the decode under which Extended JSON keeps every BSON type as stored
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };
const JSON_MODE = { mode: 'json' };
const RELAXED = { mode: 'relaxed' };
const CANONICAL = { mode: 'canonical' };

const state = { sink: 0 };
function loop(fn, inputs) {
    return function op() {
        for (let i = 0; i < inputs.length; i++) state.sink = (state.sink + fn(inputs[i]).length) | 0;
    };
}


function verify(name, buffers) {
    for (const b of buffers) {
        assert.strictEqual(qbson.bsonToJSON(b, JSON_MODE), JSON.stringify(qbson.decode(b)), `${name}: json mode differs from JSON.stringify(decode(b))`);
        for (const relaxed of [true, false]) {
            const want = qbson.EJSON.stringify(qbson.decode(b, LOSSLESS), { relaxed });
            assert.strictEqual(qbson.bsonToJSON(b, relaxed ? RELAXED : CANONICAL), want, `${name}: relaxed ${relaxed} differs from EJSON.stringify(decode(b))`);
        }
    }
}

function measure(name, mode) {
    const ds = datasets.load(name);
    const buffers = ds.docs.map((d) => qbson.encode(d));
    verify(name, buffers);
    const row = { name, bsonBytes: buffers.reduce((s, b) => s + b.length, 0) };
    [row.json, row.qbsonJSON, row.bsonJSON] = timing.cpuRates([
        loop((b) => qbson.bsonToJSON(b, JSON_MODE), buffers),
        loop((b) => JSON.stringify(qbson.decode(b)), buffers),
        loop((b) => JSON.stringify(bson.deserialize(b)), buffers),
    ], mode);
    [row.relaxed, row.canonical, row.bsonRelaxed, row.bsonCanonical, row.qbsonRelaxed] = timing.cpuRates([
        loop((b) => qbson.bsonToJSON(b, RELAXED), buffers),
        loop((b) => qbson.bsonToJSON(b, CANONICAL), buffers),
        loop((b) => bson.EJSON.stringify(bson.deserialize(b), { relaxed: true }), buffers),
        loop((b) => bson.EJSON.stringify(bson.deserialize(b), { relaxed: false }), buffers),
        loop((b) => qbson.EJSON.stringify(qbson.decode(b, LOSSLESS), { relaxed: true }), buffers),
    ], mode);
    return row;
}

const x = (a, b) => (a > 0 && b > 0 ? (a / b).toFixed(2) + '×' : '-');
const rate = (r) => (r === undefined ? '-' : r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(3));

function tables(rows, md) {
    const json = report.table("'json' mode: BSON to JSON.stringify's text, ops/s (× = bsonToJSON over the others)",
        ['data set', 'BSON', 'bsonToJSON json', 'qbson decode + JSON.stringify', 'bson deserialize + JSON.stringify', '× qbson', '× bson'],
        rows.map((r) => [r.name, report.bytes(r.bsonBytes), rate(r.json), rate(r.qbsonJSON), rate(r.bsonJSON), x(r.json, r.qbsonJSON), x(r.json, r.bsonJSON)]),
        md);
    const ejson = report.table('Extended JSON: BSON to EJSON.stringify\'s text, ops/s',
        ['data set', 'bsonToJSON relaxed', 'bson EJSON relaxed', '× relaxed', 'bsonToJSON canonical', 'bson EJSON canonical', '× canonical', 'qbson EJSON relaxed'],
        rows.map((r) => [r.name, rate(r.relaxed), rate(r.bsonRelaxed), x(r.relaxed, r.bsonRelaxed), rate(r.canonical), rate(r.bsonCanonical),
            x(r.canonical, r.bsonCanonical), rate(r.qbsonRelaxed)]),
        md);
    return json + '\n' + ejson;
}

function summary(rows) {
    const geo = (vals) => report.geomean(vals.filter((v) => isFinite(v) && v > 0));
    const json = rows.map((r) => r.json / r.qbsonJSON);
    const relaxed = rows.map((r) => r.relaxed / r.bsonRelaxed);
    const canonical = rows.map((r) => r.canonical / r.bsonCanonical);
    const range = (v) => `${Math.min(...v).toFixed(2)}× to ${Math.max(...v).toFixed(2)}×`;
    return `geometric means: 'json' ${geo(json).toFixed(2)}× qbson decode + JSON.stringify (${range(json)}; target ≥ 2×, each ≥ 1.5×); ` +
        `'relaxed' ${geo(relaxed).toFixed(2)}× (${range(relaxed)}) and 'canonical' ${geo(canonical).toFixed(2)}× (${range(canonical)}) ` +
        'bson EJSON.stringify(deserialize) (target ≥ 5×)';
}

function main(argv) {
    return runSection(argv, {
        label: 'transcode',
        title: 'BSON to JSON text: bsonToJSON against decode, then stringify',
        measure,
        tables,
        summary,
        note: 'a batch data set converts each of its documents per operation.',
    });
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main };
