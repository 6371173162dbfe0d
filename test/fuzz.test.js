'use strict';

// A seeded mutation fuzzer for the decoder, and through it the encoder. Valid
// documents (the spec corpus's canonical_bson and seeded generated documents)
// are mutated: bytes flipped, inserted, deleted, repeated; truncated, extended;
// length fields set to 0, 1, huge, negative, off by one or four; type bytes,
// booleans and binary subtypes changed; terminators removed. Every input goes
// through decode (four option sets), decodeAll and decodeStream (random chunks),
// and each must return a value or throw a BSONError naming the byte offset,
// within a second, leaving Object.prototype alone; where bson decodes it too, the
// values must agree. Where a lossless decode succeeds, encode must give bytes that
// decode to the same value. Every other input also encodes an awkward JavaScript
// value: a BSONError, or bytes that decode and match calculateObjectSize and bson.
// docs/robustness.md describes the contract and records the long runs.
//
//   QBSON_FUZZ_N      inputs (default 10000)
//   QBSON_FUZZ_SEED   seed (default 1); input i of seed s is the same on every run
//
// A failure names the seed, the input's index and its bytes in hex.

const assert = require('assert');
const util = require('util');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');
const F = require('./support/fuzz');
const P = require('./support/paths');
const { DEFAULT_MAX_DEPTH } = require('../lib/constants');
const { run } = require('./support/run-async');

const N = Number(process.env.QBSON_FUZZ_N) || 10000;
const SEED = process.env.QBSON_FUZZ_SEED !== undefined ? Number(process.env.QBSON_FUZZ_SEED) : 1;
const BATCH = 1000;
// a decode of a small input taking longer than this is a hang
const SLOW_MS = 1000;
// failures reported per batch
const MAX_REPORTED = 5;

// keeps every value's BSON type, so encode can give the same bytes back
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true, validation: { utf8: false } };
const NO_UTF8_CHECK = { validation: { utf8: false } };
// one of these per input, in turn
const OPTION_SETS = [
    { useBigInt64: true },
    { promoteBuffers: true, promoteLongs: false },
    { bsonRegExp: true, validation: { utf8: { a: false } } },
    { maxDepth: 3 },
    { allowObjectSmallerThanBufferSize: true },
    { validation: { utf8: { b: true } }, preserveDeprecated: true },
];

// The outcome of one call: {value} or {error} (a BSONError meeting the contract).
function outcome(input, what, fn) {
    const started = process.hrtime.bigint();
    let result;
    try {
        result = { value: fn() };
    } catch (err) {
        F.checkError(err, input, what);
        result = { error: err };
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms > SLOW_MS) throw new F.ContractViolation(`${what} took ${ms.toFixed(0)} ms`);
    // a lazy view is checked through what it reads
    if (result.value !== undefined && !(result.value instanceof qbson.LazyDocument)) F.checkValue(result.value, what);
    return result;
}

// An out-of-range datetime decodes to an Invalid Date, which encodes as 0 (as in bson).
function invalidDatesAsZero(tree) {
    if (tree === null || typeof tree !== 'object') return tree;
    if (tree.type === 'Date' && tree.time === 'NaN') return { type: 'Date', time: 0 };
    if (Array.isArray(tree)) return tree.map(invalidDatesAsZero);
    const out = {};
    for (const key of Object.keys(tree)) {
        Object.defineProperty(out, key, { value: invalidDatesAsZero(tree[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
}

// encode must take a decoded value back to bytes that decode to it.
function checkRoundTrip(value) {
    let bytes;
    try {
        bytes = qbson.encode({ v: value });
    } catch (err) {
        // bson refuses these values too: a malformed vector, a document with a _bsontype key
        if (err instanceof qbson.BSONError) return;
        throw new F.ContractViolation(`encode of a decoded value threw ${err.stack}`);
    }
    let back;
    try {
        back = qbson.decode(bytes, LOSSLESS);
    } catch (err) {
        throw new F.ContractViolation(`encode emitted bytes that do not decode: ${err.message}; bytes ${bytes.toString('hex')}`);
    }
    assertSame(normalize(back.v), invalidDatesAsZero(normalize(value)), 'decode(encode(value)) differs from value');
    const size = qbson.calculateObjectSize({ v: value });
    if (size !== bytes.length) throw new F.ContractViolation(`calculateObjectSize ${size} but encode wrote ${bytes.length} bytes`);
}

// Compared as JSON text: assert.deepStrictEqual runs out of stack on a value 1000 levels deep.
function assertSame(actual, expected, message) {
    const keepUndefined = (key, v) => (v === undefined ? '(undefined)' : v);
    if (JSON.stringify(actual, keepUndefined) === JSON.stringify(expected, keepUndefined)) return;
    let detail = '';
    try {
        assert.deepStrictEqual(actual, expected);
    } catch (err) {
        detail = err.message;
    }
    throw new F.ContractViolation(`${message}: ${detail}`);
}

function bsonOutcome(input, opts) {
    try {
        return { value: bson.deserialize(input, opts) };
    } catch (err) {
        return { error: err };
    }
}

// Decoding with one of the option sets planted on Object.prototype gives what a clean decode gives.
function checkPollutedPrototype(input, index, plain) {
    const planted = OPTION_SETS[(index >> 2) % OPTION_SETS.length];
    Object.assign(Object.prototype, planted);
    let polluted;
    try {
        polluted = outcome(input, `decode with ${JSON.stringify(planted)} on Object.prototype`, () => qbson.decode(input, {}));
    } finally {
        for (const key of Object.keys(planted)) delete Object.prototype[key];
    }
    if (plain.error || polluted.error) {
        const message = (r) => (r.error ? r.error.message : 'a value');
        if (message(plain) !== message(polluted)) throw new F.ContractViolation(`a polluted Object.prototype changes decode: ${message(polluted)} instead of ${message(plain)}`);
        return;
    }
    assertSame(normalize(polluted.value), normalize(plain.value), 'a polluted Object.prototype changes what decode returns');
}

// The synchronous checks of one input; returns decodeAll's outcome for the stream check.
function checkInput(input, index) {
    const plain = outcome(input, 'decode', () => qbson.decode(input));
    if (index % 4 === 0) checkPollutedPrototype(input, index, plain);
    const opts = OPTION_SETS[index % OPTION_SETS.length];
    outcome(input, `decode with ${JSON.stringify(opts)}`, () => qbson.decode(input, opts));
    const lossless = outcome(input, 'decode lossless', () => qbson.decode(input, LOSSLESS));
    if (lossless.value !== undefined) checkRoundTrip(lossless.value);
    const all = outcome(input, 'decodeAll', () => qbson.decodeAll(input));
    if (plain.value !== undefined) {
        if (all.value === undefined) throw new F.ContractViolation(`decode succeeds but decodeAll throws ${all.error.message}`);
        assertSame(normalize(all.value), [normalize(plain.value)], 'decodeAll differs from decode');
    }
    // where bson decodes the bytes too, both give the same values (invalid UTF-8 replaced as bson does)
    const ours = outcome(input, 'decode without UTF-8 validation', () => qbson.decode(input, NO_UTF8_CHECK));
    if (ours.value !== undefined) {
        const theirs = bsonOutcome(input, NO_UTF8_CHECK);
        if (theirs.value !== undefined) assertSame(normalize(ours.value), normalize(theirs.value), 'decode differs from bson.deserialize');
    }
    checkInPlace(input, index, plain);
    const readerOpts = READER_OPTION_SETS[index % READER_OPTION_SETS.length];
    checkInPlace(input, index, outcome(input, `decode with ${JSON.stringify(readerOpts)}`, () => qbson.decode(input, readerOpts)), readerOpts);
    checkViewUnderChange(input, index);
    return all;
}

// ---------------------------------------------------------------------------
// reading in place: get, has, fields and lazy views

const PATH_KEYS = ['a', 'b', '0', '1', '_id', 'x', '', 'é', '$ref', '$id'];
// the readers are checked under default options, then under one of these in turn
const READER_OPTION_SETS = [
    { raw: true },
    { fieldsAsRaw: { a: true, 0: true } },
    { maxDepth: 3 },
    { raw: true, maxDepth: 4, promoteLongs: false },
    { fieldsAsRaw: { b: true, x: true }, maxDepth: 5 },
    { maxDepth: 2, promoteValues: false },
];

// A path for input `index`: one the decoded value has, or one made of common keys.
function pathFor(rng, plain, open) {
    if (plain.value !== undefined && rng.chance(0.7)) {
        const paths = P.pathsOf(plain.value, 100, open);
        if (paths.length !== 0) return rng.pick(paths);
    }
    const path = [];
    const n = rng.range(1, 3);
    for (let i = 0; i < n; i++) path.push(rng.pick(PATH_KEYS));
    return path;
}

// what decoding a value checks and decode's check of bytes it keeps does not
const VALUE_CHECKS = /invalid UTF-8|regular expression/;

// An in-place reader fails only where decode fails, and where both fail, decode
// fails no later in the bytes: the reader's error is decode's for an element it
// reached, or damage decode met first.
function checkFailsWithDecode(result, plain, what, walksRaw) {
    if (result.error === undefined) return;
    if (plain.error === undefined) {
        // under raw options the walk, not decode, says where a reader may fail (checked with it)
        if (walksRaw) return;
        throw new F.ContractViolation(`${what} throws ${result.error.message} but decode succeeds`);
    }
    // under raw options a reader that reads inside kept bytes checks what decoding
    // them checks (UTF-8, regular expressions), which decode does not look at there
    if (walksRaw && plain.error.offset > result.error.offset && VALUE_CHECKS.test(result.error.message)) return;
    if (plain.error.offset > result.error.offset) {
        throw new F.ContractViolation(`${what} throws ${result.error.message}, before decode's ${plain.error.message}`);
    }
    if (plain.error.offset === result.error.offset && plain.error.message !== result.error.message) {
        throw new F.ContractViolation(`${what} throws ${result.error.message} where decode throws ${plain.error.message}`);
    }
}

// get, has, a projection and a lazy view of the input, under opts, keep the
// decode contract; where decode (plain, under the same opts) succeeds they give
// what walking its value gives, on into the bytes it keeps under raw options.
function checkInPlace(input, index, plain, opts) {
    const rng = F.inputRandom(SEED ^ (opts === undefined ? 0x1a2b : 0x3c4d), index);
    const open = P.opener(opts);
    const path = pathFor(rng, plain, open);
    const got = outcome(input, `get ${JSON.stringify(path)}`, () => qbson.get(input, path, opts));
    const had = outcome(input, `has ${JSON.stringify(path)}`, () => qbson.has(input, path, opts));
    const fields = [path, pathFor(rng, plain, open)];
    const projected = outcome(input, `decode with fields ${JSON.stringify(fields)}`, () => qbson.decode(input, { ...opts, fields }));
    const view = outcome(input, 'lazy', () => qbson.lazy(input, opts));
    const read = view.value === undefined ? view : outcome(input, 'reading a lazy view through', () => P.readAll(view.value));
    for (const [result, what] of [[got, 'get'], [had, 'has'], [projected, 'decode with fields'], [read, 'lazy']]) checkFailsWithDecode(result, plain, what, open !== P.asStored);
    if (plain.value === undefined) {
        if (read.value !== undefined) throw new F.ContractViolation(`decode throws ${plain.error.message} but a lazy view reads through`);
        return;
    }
    assertSame(normalize(view.value.toObject()), normalize(plain.value), 'lazy(...).toObject() differs from decode');
    // a DBPointer decodes as a DBRef, which the reference takes for a stored document;
    // a DBRef whose $ref has a dot loses the stored $ref and $db to the namespace split
    if (P.hasDBPointer(input) || P.hasDottedRef(input)) return;
    // where the walk goes into kept bytes that do not decode, the walk fails and a reader may too
    const stored = P.unlessWalkFails(() => P.storedForm(plain.value, open));
    if (stored !== undefined) {
        failsOnlyWithWalk(read, 'lazy');
        assertSame(keysSorted(normalize(read.value)), keysSorted(normalize(stored)), 'a lazy view read through differs from decode');
    }
    // of a key stored twice, get and projections take the first, decode the last
    if (P.hasDuplicateKeys(input)) return;
    const expected = P.unlessWalkFails(() => P.navigate(plain.value, path, open));
    if (expected !== undefined) {
        failsOnlyWithWalk(got, 'get');
        failsOnlyWithWalk(had, 'has');
        if (had.value !== expected.found) throw new F.ContractViolation(`has ${JSON.stringify(path)} is ${had.value}`);
        assertSame(normalize(got.value), normalize(expected.value), `get ${JSON.stringify(path)} differs from decode`);
    }
    const projectedExpected = P.unlessWalkFails(() => P.project(plain.value, fields, open));
    if (projectedExpected !== undefined) {
        failsOnlyWithWalk(projected, 'decode with fields');
        assertSame(keysSorted(normalize(projected.value)), keysSorted(normalize(projectedExpected)), `decode with fields ${JSON.stringify(fields)} differs from decode`);
    }
}

function failsOnlyWithWalk(result, what) {
    if (result.error !== undefined) throw new F.ContractViolation(`${what} throws ${result.error.message} where walking decode's value succeeds`);
}

// A lazy view over a copy of the input, read step by step while the copy is
// changed between steps (bytes set, ranges filled, the terminator cleared): every
// step returns or throws a BSONError at an offset inside the copy, in time.
function checkViewUnderChange(input, index) {
    const rng = F.inputRandom(SEED ^ 0x5e6f, index);
    const bytes = Buffer.from(input);
    const view = outcome(bytes, 'lazy over a buffer that changes', () => qbson.lazy(bytes, rng.chance(0.5) ? undefined : rng.pick(READER_OPTION_SETS)));
    if (view.value === undefined) return;
    const views = [view.value];
    for (let step = 0; step < 40 && views.length !== 0; step++) {
        if (rng.chance(0.4)) changeBytes(rng, bytes);
        const v = rng.pick(views);
        const it = rng.chance(0.5) ? v.keys() : v.entries();
        for (let n = rng.range(1, 6); n > 0; n--) {
            // a step's value is checked, the views it gives are read on later steps
            const step = outcome(bytes, 'a step of a view whose buffer changes', () => {
                const next = it.next();
                if (next.done) return null;
                if (!Array.isArray(next.value) || !(next.value[1] instanceof qbson.LazyDocument)) return next.value;
                views.push(next.value[1]);
                return next.value[0];
            });
            if (step.error !== undefined || step.value === null) break;
            if (rng.chance(0.3)) changeBytes(rng, bytes);
        }
        outcome(bytes, 'get of a view whose buffer changes', () => v.get(rng.pick(PATH_KEYS)));
        if (rng.chance(0.2)) outcome(bytes, 'toObject of a view whose buffer changes', () => v.toObject());
    }
}

function changeBytes(rng, bytes) {
    switch (rng.int(4)) {
        case 0:
            bytes[rng.int(bytes.length)] = rng.int(256);
            break;
        case 1:
            bytes.fill(rng.int(256), rng.int(bytes.length));
            break;
        case 2:
            bytes[bytes.length - 1] = rng.range(1, 255);
            break;
        default:
            for (let i = rng.range(1, 4); i > 0; i--) bytes[rng.int(bytes.length)] = rng.pick([0, 1, 0x7f, 0xff]);
    }
}

// A normalized tree with the keys of every object sorted: a DBRef does not say
// in which order its document stored $ref, $id and $db.
function keysSorted(tree) {
    if (tree === null || typeof tree !== 'object') return tree;
    if (Array.isArray(tree)) return tree.map(keysSorted);
    const out = {};
    for (const key of Object.keys(tree).sort()) {
        const value = key === 'keys' && Array.isArray(tree[key]) && tree.type === 'Object' ? [...tree[key]].sort() : keysSorted(tree[key]);
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
}

const ENCODE_OPTION_SETS = [{}, { checkKeys: true }, { serializeFunctions: true }, { ignoreUndefined: false }, { maxDepth: 2 }, { maxDocumentSize: 100 }];
// qbson's types bson@7 has no class for
const QBSON_ONLY = /DBPointer|Undefined/;

// bson loses a DBRef's '__proto__' field to Object.assign; qbson writes it
function hasDBRefProtoField(value, seen = new Set()) {
    if (value === null || typeof value !== 'object' || seen.has(value)) return false;
    seen.add(value);
    if (value instanceof qbson.DBRef && value.fields != null && Object.prototype.hasOwnProperty.call(value.fields, '__proto__')) return true;
    const children = value instanceof Map ? [...value.values()] : value instanceof qbson.Code ? [value.scope] : value instanceof qbson.DBRef ? [value.oid, value.fields] : Object.values(value);
    return children.some((child) => hasDBRefProtoField(child, seen));
}

// encode gives bytes that decode, of calculateObjectSize's length and bson's value, or a BSONError.
function checkEncode(rng, index) {
    const value = F.hostileDocument(rng, 0);
    const opts = ENCODE_OPTION_SETS[index % ENCODE_OPTION_SETS.length];
    try {
        checkEncodeOf(value, opts);
    } catch (err) {
        if (err instanceof F.ContractViolation) err.message += `\n  encoding ${util.inspect(value, { depth: 8 })} with ${JSON.stringify(opts)}`;
        throw err;
    }
}

function checkEncodeOf(value, opts) {
    let bytes;
    try {
        bytes = qbson.encode(value, opts);
    } catch (err) {
        if (!(err instanceof qbson.BSONError)) throw new F.ContractViolation(`encode threw ${err.stack}`);
        return;
    }
    if (bytes.readInt32LE(0) !== bytes.length) throw new F.ContractViolation('encode wrote a length that is not its own');
    try {
        qbson.decode(bytes, { bsonRegExp: true, promoteValues: false, preserveDeprecated: true });
    } catch (err) {
        throw new F.ContractViolation(`encode emitted bytes that do not decode: ${err.message}; bytes ${bytes.toString('hex')}`);
    }
    const size = qbson.calculateObjectSize(value, opts);
    if (size !== bytes.length) throw new F.ContractViolation(`calculateObjectSize ${size} but encode wrote ${bytes.length} bytes`);
    let theirs;
    try {
        theirs = Buffer.from(bson.serialize(value, opts));
    } catch (err) {
        if (!QBSON_ONLY.test(err.message) && !(err instanceof RangeError)) {
            throw new F.ContractViolation(`bson refuses what qbson encodes: ${err.message}`);
        }
        return;
    }
    if (!theirs.equals(bytes) && !hasDBRefProtoField(value)) throw new F.ContractViolation(`encode differs from bson.serialize:\n  qbson ${bytes.toString('hex')}\n  bson  ${theirs.toString('hex')}`);
}

function chunksOf(rng, input) {
    const chunks = [];
    const oneByte = input.length <= 64 && rng.chance(0.1);
    let pos = 0;
    while (pos < input.length) {
        const n = oneByte ? 1 : rng.range(1, Math.max(1, input.length));
        const chunk = input.subarray(pos, pos + n);
        chunks.push(rng.chance(0.2) ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : chunk);
        pos += n;
    }
    return chunks;
}

// decodeStream yields what decodeAll gives, or throws a BSONError with the offset;
// under a small maxDocumentSize it may refuse a document decodeAll takes.
async function checkStream(input, rng, all) {
    const docs = [];
    let error = null;
    const opts = rng.chance(0.1) ? { maxDocumentSize: rng.range(5, 64) } : undefined;
    const started = process.hrtime.bigint();
    try {
        for await (const doc of qbson.decodeStream(chunksOf(rng, input), opts)) docs.push(doc);
    } catch (err) {
        F.checkError(err, input, 'decodeStream');
        error = err;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms > SLOW_MS) throw new F.ContractViolation(`decodeStream took ${ms.toFixed(0)} ms`);
    for (const doc of docs) F.checkValue(doc, 'decodeStream');
    if (all.value !== undefined) {
        if (error !== null) {
            if (opts !== undefined && error.code === 'ERR_BSON_TOO_LARGE') return;
            throw new F.ContractViolation(`decodeAll succeeds but decodeStream throws ${error.message}`);
        }
        assertSame(normalize(docs), normalize(all.value), 'decodeStream differs from decodeAll');
    } else if (error === null) {
        throw new F.ContractViolation(`decodeAll throws ${all.error.message} but decodeStream succeeds`);
    }
}

function describeFailure(index, input, err) {
    const hex = input.length <= 2048 ? input.toString('hex') : `${input.subarray(0, 2048).toString('hex')}... (${input.length} bytes)`;
    return `seed ${SEED} input ${index}: ${err instanceof F.ContractViolation ? err.message : err.stack}\n  input ${hex}`;
}

describe(`fuzz: ${N} mutated inputs from seed ${SEED}`, function () {
    const seeds = F.corpusDocuments().concat(F.generatedDocuments(SEED, 300), F.corpusDecodeErrors());
    // at and past maxDepth, and far past it
    const special = [F.nestedBytes(DEFAULT_MAX_DEPTH), F.nestedBytes(DEFAULT_MAX_DEPTH + 1), F.nestedBytes(DEFAULT_MAX_DEPTH + 1, true), F.nestedBytes(3000)];
    const prototypes = F.prototypeSnapshot();
    const protoKeys = Reflect.ownKeys(Object.prototype).length;

    it(`reads ${seeds.length} seed documents from ${F.CORPUS_DIR} and the generator`, function () {
        assert.ok(seeds.length > 900, `only ${seeds.length} seeds`);
    });

    for (let from = 0; from < N; from += BATCH) {
        const to = Math.min(N, from + BATCH);
        it(`inputs ${from} to ${to - 1}: decode, decodeAll and decodeStream keep the contract`, run(async () => {
            const failures = [];
            for (let i = from; i < to && failures.length < MAX_REPORTED; i++) {
                const rng = F.inputRandom(SEED, i);
                const input = F.makeInput(rng, seeds, special);
                try {
                    const all = checkInput(input, i);
                    await checkStream(input, rng, all);
                    // every other input also encodes, cycling through every encode option set
                    if (i % 2 === 0) checkEncode(rng, i / 2);
                    if (Reflect.ownKeys(Object.prototype).length !== protoKeys) throw new F.ContractViolation('Object.prototype gained a property');
                } catch (err) {
                    failures.push(describeFailure(i, input, err));
                }
            }
            assert.strictEqual(F.prototypeSnapshot(), prototypes, 'a built-in prototype changed');
            if (failures.length) assert.fail(`${failures.length} failures:\n${failures.join('\n')}`);
        }));
    }
});
