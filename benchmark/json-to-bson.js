'use strict';

// The "JSON text to BSON" section: qbson's jsonToBSON against parsing the text
// into values and encoding them, per data set.
//   node benchmark/json-to-bson.js [--quick] [--markdown] [--filter a,b]
// Extended JSON (relaxed, as EJSON.stringify writes it by default):
//   jsonToBSON(UTF-8 bytes), jsonToBSON(string), qbson.encode(qbson.EJSON.parse(text)),
//   bson.serialize(bson.EJSON.parse(text));
// plain JSON (data sets holding only what JSON has): jsonToBSON(bytes),
//   jsonToBSON(string), qbson.encode(JSON.parse(text)).
// A batch data set is one text per document, all of them per operation. Every
// output is checked against encode(EJSON.parse(text)) before anything is timed.
// Rates by process CPU time (a busy machine disturbs it far less than the wall clock).

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');
const { runSection } = require('./section');

// texts of one data set: Extended JSON and, when the data is plain, JSON
function textsOf(ds) {
    const ejson = ds.docs.map((d) => qbson.EJSON.stringify(d));
    const json = ds.json ? ds.docs.map((d) => JSON.stringify(d)) : null;
    return { ejson, json };
}

const state = { sink: 0 };
function loop(fn, inputs) {
    return function op() {
        for (let i = 0; i < inputs.length; i++) state.sink = (state.sink + fn(inputs[i]).length) | 0;
    };
}

function verify(name, texts, expect, contenders) {
    texts.forEach((t, i) => {
        const want = expect(t);
        for (const [label, fn, input] of contenders) {
            assert.deepStrictEqual(Buffer.from(fn(input[i])), want, `${name}: ${label} differs from encode(parse(text))`);
        }
    });
}

function measure(name, mode) {
    const ds = datasets.load(name);
    const { ejson, json } = textsOf(ds);
    const ejsonBytes = ejson.map((t) => Buffer.from(t));
    const row = { name, textBytes: ejsonBytes.reduce((s, b) => s + b.length, 0) };
    const bsonEncode = (t) => Buffer.from(bson.serialize(bson.EJSON.parse(t)));
    verify(name, ejson, (t) => qbson.encode(qbson.EJSON.parse(t)), [
        ['jsonToBSON(bytes)', qbson.jsonToBSON, ejsonBytes],
        ['jsonToBSON(string)', qbson.jsonToBSON, ejson],
    ]);
    row.bsonSame = ejson.every((t) => bsonEncode(t).equals(qbson.encode(qbson.EJSON.parse(t))));
    [row.ejsonBytesRate, row.ejsonStringRate, row.ejsonQbsonRate, row.ejsonBsonRate] = timing.cpuRates([
        loop(qbson.jsonToBSON, ejsonBytes),
        loop(qbson.jsonToBSON, ejson),
        loop((t) => qbson.encode(qbson.EJSON.parse(t)), ejson),
        loop((t) => bson.serialize(bson.EJSON.parse(t)), ejson),
    ], mode);
    if (json !== null) {
        const jsonBytes = json.map((t) => Buffer.from(t));
        verify(name, json, (t) => qbson.encode(JSON.parse(t)), [
            ['jsonToBSON(bytes)', qbson.jsonToBSON, jsonBytes],
            ['jsonToBSON(string)', qbson.jsonToBSON, json],
        ]);
        [row.jsonBytesRate, row.jsonStringRate, row.jsonQbsonRate] = timing.cpuRates([
            loop(qbson.jsonToBSON, jsonBytes),
            loop(qbson.jsonToBSON, json),
            loop((t) => qbson.encode(JSON.parse(t)), json),
        ], mode);
    }
    return row;
}

const x = (a, b) => (a > 0 && b > 0 ? (a / b).toFixed(2) + '×' : '-');
const rate = (r) => (r === undefined ? '-' : r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(3));

function tables(rows, md) {
    const ejson = report.table('relaxed Extended JSON text to BSON, ops/s (× = jsonToBSON(bytes) over the others)',
        ['data set', 'text', 'jsonToBSON bytes', 'jsonToBSON string', 'qbson encode(EJSON.parse)', 'bson serialize(EJSON.parse)',
            '× qbson', '× bson'],
        rows.map((r) => [r.name, report.bytes(r.textBytes), rate(r.ejsonBytesRate), rate(r.ejsonStringRate), rate(r.ejsonQbsonRate),
            rate(r.ejsonBsonRate) + (r.bsonSame ? '' : ' ≠'), x(r.ejsonBytesRate, r.ejsonQbsonRate), x(r.ejsonBytesRate, r.ejsonBsonRate)]),
        md);
    const plain = rows.filter((r) => r.jsonBytesRate !== undefined);
    const json = report.table('plain JSON text to BSON, ops/s',
        ['data set', 'jsonToBSON bytes', 'jsonToBSON string', 'qbson encode(JSON.parse)', '× bytes', '× string'],
        plain.map((r) => [r.name, rate(r.jsonBytesRate), rate(r.jsonStringRate), rate(r.jsonQbsonRate),
            x(r.jsonBytesRate, r.jsonQbsonRate), x(r.jsonStringRate, r.jsonQbsonRate)]),
        md);
    return ejson + '\n' + json;
}

function summary(rows) {
    const geo = (vals) => report.geomean(vals.filter((v) => isFinite(v) && v > 0));
    const e = geo(rows.map((r) => r.ejsonBytesRate / r.ejsonQbsonRate));
    const plain = rows.filter((r) => r.jsonBytesRate !== undefined);
    const j = geo(plain.map((r) => r.jsonBytesRate / r.jsonQbsonRate));
    const js = geo(plain.map((r) => r.jsonStringRate / r.jsonQbsonRate));
    return `geometric means: Extended JSON, jsonToBSON(bytes) ${e.toFixed(2)}× qbson.encode(EJSON.parse) (target ≥ 1.5×); ` +
        `plain JSON, jsonToBSON(bytes) ${j.toFixed(2)}× and jsonToBSON(string) ${js.toFixed(2)}× qbson.encode(JSON.parse) (target ≥ 1×)`;
}

function main(argv) {
    return runSection(argv, {
        label: 'json-to-bson',
        title: 'JSON text to BSON: jsonToBSON against parse, then encode',
        measure,
        tables,
        summary,
        note: 'a batch data set converts each of its documents per operation. ≠: bson\'s bytes differ from qbson\'s.',
    });
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main };
