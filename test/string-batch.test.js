'use strict';

// Long string values are written in batches (lib/string-batch.js): their room is
// reserved as for ASCII and fixed up when a string turns out not to be. Every
// case is checked byte for byte against bson@7.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { MIN_LENGTH, MAX_LENGTH, MAX_STRINGS, MAX_CHARS } = require('../lib/string-batch');
const { resumeStringBatching } = require('../lib/encode');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 5000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261122;

function hex(buf) {
    return Buffer.from(buf).toString('hex');
}

// After a batch that was not ASCII, long strings go unbatched for a while; this
// ends that while, so the next document's long strings are batched again.
function batchAgain() {
    resumeStringBatching();
}

function assertBatchedAsBson(doc) {
    batchAgain();
    assert.strictEqual(hex(qbson.encode(doc)), hex(bson.serialize(doc)));
    assert.strictEqual(qbson.calculateObjectSize(doc), qbson.encode(doc).length);
}

const ascii = (c, n) => c.repeat(n);
const accented = 'é' + 'x'.repeat(MIN_LENGTH + 10);
const astral = '😀'.repeat(20);
const lone = 'y'.repeat(MIN_LENGTH) + '\ud800';

describe('long strings written in batches', function () {
    it('ASCII strings around the batched lengths, in one document', function () {
        const doc = {};
        for (const n of [MIN_LENGTH - 1, MIN_LENGTH, 80, 81, 87, MAX_LENGTH, MAX_LENGTH + 1]) doc['s' + n] = ascii('a', n);
        assertBatchedAsBson(doc);
    });
    it('strings with a NUL inside (a BSON string may hold one)', function () {
        assertBatchedAsBson({ a: 'x'.repeat(40) + '\u0000' + 'y'.repeat(40), b: '\u0000'.repeat(MIN_LENGTH) });
    });
    it('a string that is not ASCII first, between and last among ASCII ones', function () {
        assertBatchedAsBson({ a: accented, b: ascii('b', 50), c: ascii('c', 60) });
        assertBatchedAsBson({ a: ascii('a', 50), b: astral, c: ascii('c', 60) });
        assertBatchedAsBson({ a: ascii('a', 50), b: ascii('b', 60), c: lone });
        assertBatchedAsBson({ a: accented, b: astral, c: lone, d: ascii('d', 30) });
    });
    it('non-ASCII strings among other values, in nested documents and arrays', function () {
        assertBatchedAsBson({
            a: ascii('a', 40), n: 1, b: { c: accented, d: ascii('d', 40), e: [astral, ascii('f', 30), 7] },
            g: ascii('g', 90), h: [{ i: lone }, ascii('j', 26)], k: new bson.Double(1.5), l: astral,
        });
    });
    it('a string before a nested document and one after it, each not ASCII', function () {
        assertBatchedAsBson({ a: accented, b: { c: ascii('c', 40), d: { e: astral } }, f: lone });
    });
    it('Code, Symbol, code with scope and DBPointer, ASCII or not', function () {
        assertBatchedAsBson({
            a: ascii('a', 40), b: new bson.Code(accented), c: new bson.BSONSymbol(ascii('s', 30)),
            d: new bson.Code(astral, { e: lone, f: ascii('f', 50) }), g: ascii('g', 40),
            h: new bson.Code(ascii('c', 40), { i: ascii('i', 40) }),
        });
    });
    it('a DBPointer namespace that is not ASCII (bson@7 has no DBPointer to compare with)', function () {
        const ns = 'n'.repeat(30) + 'é';
        const doc = { a: ascii('a', 40), p: new qbson.DBPointer(ns, new qbson.ObjectId('0123456789abcdef01234567')), b: astral };
        batchAgain();
        const batched = qbson.encode(doc);
        // the batch was not ASCII, so this one is written string by string
        const direct = qbson.encode(doc);
        assert.strictEqual(hex(batched), hex(direct));
        const back = qbson.decode(batched);
        assert.deepStrictEqual([back.a, back.p.namespace, back.p.oid.toHexString(), back.b], [doc.a, ns, '0123456789abcdef01234567', astral]);
    });
    it('more strings than a batch holds, with some not ASCII', function () {
        const arr = [];
        for (let i = 0; i < 3 * MAX_STRINGS + 5; i++) arr.push(i % 97 === 5 ? accented : ascii('a', MIN_LENGTH + (i % 7)));
        assertBatchedAsBson({ arr, tail: astral });
        const doc = {};
        for (let i = 0; i < 2 * MAX_STRINGS; i++) doc['k' + i] = i === MAX_STRINGS + 3 ? lone : ascii('b', 30);
        assertBatchedAsBson(doc);
    });
    it('more characters than a batch holds, with some not ASCII', function () {
        const n = Math.ceil((2 * MAX_CHARS) / MAX_LENGTH) + 1;
        const arr = [];
        for (let i = 0; i < n; i++) arr.push((i === n >> 1 ? 'ü' : 'z') + ascii('z', MAX_LENGTH - 1));
        assertBatchedAsBson({ arr });
    });
    it('a document that outgrows the encoder\'s buffer while strings wait', function () {
        const doc = { a: ascii('a', 30), big: Buffer.alloc(200 * 1024, 1), b: astral, c: ascii('c', 30) };
        assertBatchedAsBson(doc);
    });
    it('encodeInto, and encode from a toBSON that encodes another document', function () {
        batchAgain();
        const doc = { a: accented, b: ascii('b', 30) };
        const out = Buffer.alloc(200);
        const end = qbson.encodeInto(doc, out, 3);
        assert.strictEqual(hex(out.subarray(3, end)), hex(bson.serialize(doc)));
        const inner = { x: astral, y: ascii('y', 40) };
        const outer = {
            a: ascii('a', 40),
            b: { toBSON: () => ({ bytes: qbson.encode(inner).toString('hex'), c: lone }) },
            d: accented,
        };
        batchAgain();
        const expected = bson.serialize({ a: outer.a, b: { bytes: hex(bson.serialize(inner)), c: lone }, d: accented });
        assert.strictEqual(hex(qbson.encode(outer)), hex(expected));
    });
    it('a failed encode leaves no batch behind for the next one', function () {
        batchAgain();
        assert.throws(() => qbson.encode({ a: ascii('a', 40), b: ascii('b', 40), ['bad\u0000key']: 1 }), qbson.BSONError);
        // here the strings waited past the end of the buffer the next encode gets
        const huge = { big: Buffer.alloc(5 * 1024 * 1024), a: ascii('a', 40), b: ascii('b', 40), ['bad\u0000key']: 1 };
        assert.throws(() => qbson.encode(huge), qbson.BSONError);
        const doc = { d: ascii('d', 50), e: ascii('e', 60) };
        assert.strictEqual(hex(qbson.encode(doc)), hex(bson.serialize(doc)));
    });
    it('text mostly not ASCII stays exact while batches are paused and after', function () {
        const doc = {};
        for (let i = 0; i < 100; i++) doc['k' + i] = i % 2 ? accented : ascii('a', 40);
        batchAgain();
        for (let round = 0; round < 3; round++) assert.strictEqual(hex(qbson.encode(doc)), hex(bson.serialize(doc)));
    });
    it('random documents of long strings, ASCII or not, match bson', function () {
        const longText = fc.oneof(
            fc.string({ minLength: MIN_LENGTH, maxLength: 120, unit: fc.constantFrom('a', 'b', '0', ' ') }),
            fc.string({ minLength: MIN_LENGTH - 2, maxLength: 60 }),
            fc.string({ minLength: MIN_LENGTH, maxLength: 60, unit: 'binary' }),
            fc.string({ minLength: 10, maxLength: 40, unit: 'grapheme' })
        );
        const value = fc.letrec((tie) => ({
            value: fc.oneof({ depthSize: 'small' }, longText, longText, fc.integer(), tie('doc'), fc.array(tie('value'), { maxLength: 6 })),
            doc: fc.dictionary(fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'b', 'c', 'd') }), tie('value'), { maxKeys: 8 }),
        }));
        fc.assert(fc.property(value.doc, (doc) => {
            assertBatchedAsBson(doc);
        }), { numRuns: Math.ceil(RUNS / 25), seed: SEED });
    });
});
