'use strict';

// The "codecs from $jsonSchema" section: qbson.compile(schema) against the usual
// way of checking documents, a JSON Schema validator (ajv 8) run over decode's
// result or before encode, per data set; and against deepkit's typed JIT on its
// own case.
//   node benchmark/schema.js [--quick] [--markdown] [--filter a,b]   (npm run benchmark runs it last)
// Each data set's schema is inferred from its documents (test/support/infer-schema.js):
// every field's bsonType and the fields every document has (required), nested
// documents and array elements alike. ajv compiles the same schema translated to
// plain JSON Schema (toAjvSchema below), which checks what it can see in the decoded
// values: int32 as an integer, double as a number, strings, booleans, null, documents
// and arrays by their JSON types, and every other BSON type (ObjectId, Date, Binary,
// Long beyond 2^53, Decimal128...) only as "an object". The codec checks each value's
// BSON type as the bytes hold it (a double 1.0 is not an int), so ajv checks less.
// On the encode side the documents hold Int32 and Double instances, which ajv sees
// as objects: its int and double accept an object there.
// A batch data set decodes (encodes) each of its documents per operation. Every
// output is checked before anything is timed: codec.decode equals decode, ajv says
// valid, codec.encode equals encode byte for byte. Rates by process CPU time.

const assert = require('assert');
const childProcess = require('child_process');
const Ajv = require('ajv');
const qbson = require('..');
const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');
const { runSection } = require('./section');
const { inferSchema } = require('../test/support/infer-schema');
const { FAIL } = require('../lib/schema/generate');

// a data set of 100,000 fields: its generated code alone is larger than the rest together
const SKIPPED = new Set(['wide_100k_fields']);
const DEEPKIT_CASES = ['deepkit_cursor', 'deepkit_item'];
// seconds of warm-up per way: V8 takes a while to optimize generated code (the codec's
// and deepkit's); on a busy machine deep_bson's 64 readers ran at a tenth of their
// rate for its first 0.5 s
const FULL_WARMUP = 0.8;
const QUICK_WARMUP = 0.1;

const JSON_TYPE = { string: 'string', bool: 'boolean', null: 'null', object: 'object', array: 'array' };

// one bsonType as the JSON types ajv can check: on the decode side as decode gives
// the value, on the encode side as the documents hold it (Int32, Double, Long instances)
function jsonTypes(bsonType, side) {
    if (Object.prototype.hasOwnProperty.call(JSON_TYPE, bsonType)) return [JSON_TYPE[bsonType]];
    if (bsonType === 'int') return side === 'decode' ? ['integer'] : ['integer', 'object'];
    if (bsonType === 'double') return side === 'decode' ? ['number'] : ['number', 'object'];
    if (bsonType === 'long') return ['integer', 'object'];
    return ['object'];
}

// an inferred $jsonSchema as plain JSON Schema for ajv
function toAjvSchema(schema, side) {
    const out = {};
    if (schema.bsonType !== undefined) {
        const names = Array.isArray(schema.bsonType) ? schema.bsonType : [schema.bsonType];
        const types = [...new Set(names.flatMap((t) => jsonTypes(t, side)))];
        // 'integer' is within 'number'
        const kept = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
        out.type = kept.length === 1 ? kept[0] : kept;
    }
    if (schema.required) out.required = schema.required.slice();
    if (schema.properties) {
        out.properties = {};
        for (const key of Object.keys(schema.properties)) {
            Object.defineProperty(out.properties, key, { value: toAjvSchema(schema.properties[key], side), enumerable: true, writable: true, configurable: true });
        }
    }
    if (schema.items) out.items = toAjvSchema(schema.items, side);
    return out;
}

const state = { sink: 0 };
function loop(fn, inputs) {
    return function op() {
        for (let i = 0; i < inputs.length; i++) state.sink = (state.sink + (fn(inputs[i]) ? 1 : 0)) | 0;
    };
}

function newAjv() {
    return new Ajv({ strict: false, allErrors: false, validateSchema: false });
}

function deepkitPair(ds) {
    const dk = require('@deepkit/bson');
    const deepkit = require('./deepkit');
    const type = deepkit.inferType(ds.docs);
    return { dk, deepkit, serialize: dk.getBSONSerializer(undefined, type), deserialize: dk.getBSONDeserializer(undefined, type) };
}

function measure(name, mode) {
    const ds = datasets.load(name);
    const bufs = ds.docs.map((d) => qbson.encode(d));
    const schema = inferSchema(bufs);
    const codec = qbson.compile(schema);
    const row = { name, bytes: bufs.reduce((s, b) => s + b.length, 0), docs: bufs.length, ajvError: null,
        read: codec.read === null ? 0 : bufs.filter((b) => codec.read(b) !== FAIL).length,
        written: codec.write === null ? 0 : ds.docs.filter((d) => codec.write(d) !== FAIL).length };
    let ajvDecode = null;
    let ajvEncode = null;
    try {
        const ajv = newAjv();
        ajvDecode = ajv.compile(toAjvSchema(schema, 'decode'));
        ajvEncode = ajv.compile(toAjvSchema(schema, 'encode'));
    } catch (err) {
        // ajv's code generator recurses once per property: 10,000 of them overflow the stack
        row.ajvError = err.message;
    }
    for (let i = 0; i < bufs.length; i++) {
        const want = qbson.decode(bufs[i]);
        assert.deepStrictEqual(codec.decode(bufs[i]), want, `${name}: codec.decode differs from decode`);
        assert.ok(codec.encode(ds.docs[i]).equals(bufs[i]), `${name}: codec.encode differs from encode`);
        if (row.ajvError !== null) continue;
        // To JSON Schema a Date, an ObjectId and a document are all objects: where one place
        // holds documents and such values (a shape that changes every document), ajv applies the
        // documents' required and properties to the others, and cannot check this data set.
        if (!ajvDecode(want) || !ajvEncode(ds.docs[i])) {
            const errors = ajvDecode.errors || ajvEncode.errors;
            row.ajvError = `ajv refuses a conforming document (${errors[0].instancePath} ${errors[0].message}): JSON Schema's objects include BSON's other values`;
        }
    }
    const none = () => {};
    const ops = [
        loop((b) => codec.decode(b), bufs), row.ajvError === null ? loop((b) => ajvDecode(qbson.decode(b)), bufs) : none, loop(qbson.decode, bufs),
        loop((d) => codec.encode(d), ds.docs), row.ajvError === null ? loop((d) => ajvEncode(d) && qbson.encode(d), ds.docs) : none, loop(qbson.encode, ds.docs),
    ];
    let pair = null;
    let deepkitDocs = null;
    if (DEEPKIT_CASES.includes(name)) {
        pair = deepkitPair(ds);
        deepkitDocs = ds.docs.map((d) => pair.deepkit.toDeepkit(d, true, pair.dk));
        for (let i = 0; i < bufs.length; i++) {
            assert.ok(Buffer.from(pair.serialize(deepkitDocs[i])).equals(bufs[i]), `${name}: deepkit's serializer writes other bytes`);
            assert.deepStrictEqual(pair.deepkit.fromDeepkit(pair.deserialize(bufs[i]), qbson.decode(bufs[i])), qbson.decode(bufs[i]), `${name}: deepkit reads another value`);
        }
        ops.push(loop(pair.deserialize, bufs), loop(pair.serialize, deepkitDocs));
    }
    const rates = timing.cpuRates(ops, Object.assign({}, mode, { warmup: Math.max(mode.warmup, mode.samples > 3 ? FULL_WARMUP : QUICK_WARMUP) }));
    [row.codecDecode, row.ajvDecode, row.decode, row.codecEncode, row.ajvEncode, row.encode] = rates;
    if (row.ajvError !== null) row.ajvDecode = row.ajvEncode = 0;
    if (pair !== null) [row.deepkitDecode, row.deepkitEncode] = rates.slice(6);
    return row;
}

const x = (a, b) => (a > 0 && b > 0 ? (a / b).toFixed(2) + '×' : '-');
const rate = (r) => (r >= 100 ? Math.round(r).toLocaleString('en-US') : r.toPrecision(3));

function tables(rows, md) {
    let text = report.table('codec against ajv, ops/s (× = the codec over ajv with decode or encode; generated: the documents the generated reader and writer take)',
        ['data set', 'BSON', 'generated', 'codec.decode', 'ajv(decode)', '×', 'decode alone', 'codec.encode', 'ajv + encode', '×', 'encode alone'],
        rows.map((r) => [r.name, report.bytes(r.bytes), r.read === r.docs && r.written === r.docs ? 'all' : `${r.read}, ${r.written} of ${r.docs}`, rate(r.codecDecode), rate(r.ajvDecode), x(r.codecDecode, r.ajvDecode),
            rate(r.decode), rate(r.codecEncode), rate(r.ajvEncode), x(r.codecEncode, r.ajvEncode), rate(r.encode)]),
        md);
    const dk = rows.filter((r) => r.deepkitDecode !== undefined);
    if (dk.length > 0) {
        text += '\n' + report.table('codec against deepkit\'s typed JIT on its own case, ops/s',
            ['data set', 'codec.decode', 'deepkit-jit decode', '×', 'codec.encode', 'deepkit-jit encode', '×'],
            dk.map((r) => [r.name, rate(r.codecDecode), rate(r.deepkitDecode), x(r.codecDecode, r.deepkitDecode),
                rate(r.codecEncode), rate(r.deepkitEncode), x(r.codecEncode, r.deepkitEncode)]),
            md);
    }
    return text;
}

function summary(rows) {
    const geo = (vals) => report.geomean(vals.filter((v) => isFinite(v) && v > 0));
    const withAjv = rows.filter((r) => r.ajvError === null);
    const dec = geo(withAjv.map((r) => r.codecDecode / r.ajvDecode));
    const enc = geo(withAjv.map((r) => r.codecEncode / r.ajvEncode));
    const least = withAjv.reduce((m, r) => (r.codecDecode / r.ajvDecode < m.codecDecode / m.ajvDecode ? r : m), rows[0]);
    let text = `geometric means: codec.decode ${dec.toFixed(2)}× ajv over decode (target ≥ 2×; lowest ${x(least.codecDecode, least.ajvDecode)}, ${least.name}), ` +
        `codec.encode ${enc.toFixed(2)}× ajv then encode`;
    const failed = rows.filter((r) => r.ajvError !== null).map((r) => r.name);
    if (failed.length > 0) text += ` (ajv cannot check ${failed.map((n) => `${n}: ${rows.find((r) => r.name === n).ajvError}`).join('; ')})`;
    for (const r of rows.filter((row) => row.deepkitDecode !== undefined)) {
        text += `; ${r.name}: codec.decode ${x(r.codecDecode, r.deepkitDecode)} deepkit-jit (target ≥ 1.3×), codec.encode ${x(r.codecEncode, r.deepkitEncode)} (target ≥ 1.5×)`;
    }
    return text;
}

// One data set measured in a process of its own: after wide_1k_fields (ajv's code for
// its 1,000 properties, the codec's table) everything measured later in the same process,
// decode alone too, ran at 0.2-0.6x its rate in a fresh one.
function measureApart(name, mode) {
    const args = [__filename, '--row', name].concat(mode === timing.SECTION_MODES.quick ? ['--quick'] : []);
    const out = childProcess.execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
    return JSON.parse(out.trim().split('\n').pop());
}

function main(argv) {
    const row = argv.indexOf('--row');
    if (row >= 0) {
        const { mode } = timing.sectionArgs(argv, datasets.NAMES);
        process.stdout.write(JSON.stringify(measure(argv[row + 1], mode)) + '\n');
        return null;
    }
    const filter = argv.indexOf('--filter');
    const args = filter >= 0 ? argv : argv.concat('--filter', datasets.NAMES.filter((n) => !SKIPPED.has(n)).join(','));
    return runSection(args, {
        label: 'schema',
        title: 'Codecs from $jsonSchema: compile against ajv and deepkit\'s typed JIT',
        measure: measureApart,
        tables,
        summary,
        note: 'each data set\'s schema is inferred from its documents; ajv 8 compiles it as plain JSON Schema, which checks less than the codec ' +
            '(BSON types beyond JSON\'s are only objects to it; benchmark/schema.js says what). A batch data set decodes (encodes) each of its documents per operation; ' +
            'each data set is measured in a process of its own; wide_100k_fields is left out.',
    });
}

if (require.main === module) main(process.argv.slice(2));

module.exports = { main, toAjvSchema };
