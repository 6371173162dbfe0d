'use strict';

// The "incremental" section: reading a few fields of a document (qbson's get,
// decode with fields, lazy) against decoding all of it (bson's deserialize and
// qbson's decode), as schemaless-benchmarks sets its incremental test beside the
// full "tree" parse. The documents are the corpus data sets (corpus.js).
//   node --expose-gc benchmark/incremental.js [--quick] [--markdown]
// Each answer is checked against bson's full decode before anything is timed.
// Rates are operations per second, the median of the timed runs, taken in turn
// for the three contenders of a row; allocation is heap bytes per operation.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');
const { allocation } = require('./child');

const MODES = {
    full: { warmup: 0.3, sample: 0.05, samples: 9, memory: 0.2 },
    quick: { warmup: 0.05, sample: 0.01, samples: 3, memory: 0.03 },
};

// One row: the documents' bytes, what is read from each (`part`, qbson only),
// and the value it must give (from bson's full decode of the same bytes).
function rows() {
    const wide = bson.serialize(datasets.load('wide_100k_fields').docs[0]);
    const wideKeys = Object.keys(datasets.load('wide_100k_fields').docs[0]);
    const middle = wideKeys[wideKeys.length >> 1];
    const last = wideKeys[wideKeys.length - 1];
    const logs = datasets.load('log_events').docs.map((d) => bson.serialize(d));
    const reply = bson.serialize({ cursor: { firstBatch: datasets.load('log_events').docs, id: bson.Long.fromNumber(8017401241), ns: 'app.logs' }, ok: 1 });
    const user = bson.serialize(datasets.load('api_statuses').docs[0].statuses[0].user);
    const three = ['screen_name', 'followers_count', 'lang'];
    return [
        { name: 'wide_100k_fields: get the middle field', docs: [wide], part: (b) => qbson.get(b, middle), want: (d) => d[middle] },
        { name: 'wide_100k_fields: get the last field', docs: [wide], part: (b) => qbson.get(b, last), want: (d) => d[last] },
        { name: 'log_events, 1,000 documents: get level of each', docs: logs, part: (b) => qbson.get(b, 'level'), want: (d) => d.level },
        { name: 'the same 1,000 as a reply\'s cursor.firstBatch: get cursor.id', docs: [reply], part: (b) => qbson.get(b, 'cursor.id'),
            want: (d) => d.cursor.id },
        { name: 'api user of 40 fields: decode with 3 fields', docs: [user], part: (b) => qbson.decode(b, { fields: three }),
            want: (d) => Object.fromEntries(three.map((k) => [k, d[k]])) },
        { name: 'api user of 40 fields: lazy, then get 1 field', docs: [user], part: (b) => qbson.lazy(b).get('followers_count'),
            want: (d) => d.followers_count },
        { name: 'wide_100k_fields: lazy, then get the middle field', docs: [wide], part: (b) => qbson.lazy(b).get(middle), want: (d) => d[middle] },
    ];
}

// A loop over the row's documents calling fn on each, folding what it returns into a sink.
const state = { sink: 0 };
function loop(fn, docs) {
    return function op() {
        for (let i = 0; i < docs.length; i++) state.sink = (state.sink + (fn(docs[i]) === undefined ? 0 : 1)) | 0;
    };
}

// canonical Extended JSON: the two libraries' type classes compare by their content
function text(value) {
    return bson.EJSON.stringify({ v: value }, { relaxed: false });
}

function verify(row) {
    for (const bytes of row.docs) {
        const full = bson.deserialize(bytes);
        assert.strictEqual(text(row.part(bytes)), text(row.want(full)), `${row.name}: qbson's answer differs from bson's full decode`);
        assert.strictEqual(text(qbson.decode(bytes)), text(full), `${row.name}: qbson's full decode differs from bson's`);
    }
}

// operations per second of each op, median of `samples` runs taken in turn
function rates(ops, mode) {
    // until the speed stops improving: on a busy machine the compiler threads wait for a CPU
    for (const op of ops) timing.settle(op, mode.warmup);
    const runs = ops.map(() => []);
    for (let s = 0; s < mode.samples; s++) {
        ops.forEach((op, i) => {
            const perCall = timing.warmUp(op, mode.sample, 1);
            runs[i].push(1 / perCall);
        });
    }
    return runs.map((r) => timing.median(r));
}

function measure(row, mode) {
    verify(row);
    const ops = [loop((b) => bson.deserialize(b), row.docs), loop((b) => qbson.decode(b), row.docs), loop(row.part, row.docs)];
    const [bsonRate, qbsonRate, partRate] = rates(ops, mode);
    const fullBytes = allocation(ops[1], mode.memory, 3).bytesPerOp;
    const partBytes = allocation(ops[2], mode.memory, 3).bytesPerOp;
    return { name: row.name, bsonRate, qbsonRate, partRate, fullBytes, partBytes };
}

function fmtRate(r) {
    return r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(3);
}

function fmtBytes(b) {
    return b >= 1e6 ? (b / 1e6).toFixed(2) + ' MB' : b >= 1e3 ? (b / 1e3).toFixed(1) + ' kB' : Math.round(b) + ' B';
}

function table(results, markdown) {
    const head = ['reading', 'bson full decode, ops/s', 'qbson full decode, ops/s', 'qbson reading in place, ops/s', '× bson', '× qbson',
        'heap bytes/op: full decode', 'in place', 'ratio'];
    const body = results.map((r) => [r.name, fmtRate(r.bsonRate), fmtRate(r.qbsonRate), fmtRate(r.partRate),
        (r.partRate / r.bsonRate).toFixed(1), (r.partRate / r.qbsonRate).toFixed(1), fmtBytes(r.fullBytes), fmtBytes(r.partBytes),
        r.partBytes === 0 ? '0' : '1/' + Math.round(r.fullBytes / r.partBytes)]);
    if (markdown) {
        return ['| ' + head.join(' | ') + ' |', '|' + head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|') + '|']
            .concat(body.map((cells) => '| ' + cells.join(' | ') + ' |')).join('\n');
    }
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i].length)));
    return [head, ...body].map((cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')).join('\n');
}

function main(argv) {
    if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
    const mode = argv.includes('--quick') ? MODES.quick : MODES.full;
    const results = rows().map((row) => measure(row, mode));
    const md = argv.includes('--markdown');
    process.stdout.write(report.heading('incremental: a few fields read in place against full decodes (tree)', md) +
        table(results, md) + '\n\n' + (md ? '' : '\n') +
        'Rates: operations per second, median of ' + mode.samples + ' runs; each operation reads every document of its row. ' +
        '× bson, × qbson: the in-place rate over that full decode\'s. Heap bytes per operation from an allocation loop of ' +
        mode.memory + ' s.\n');
    return results;
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main, rows, verify };
