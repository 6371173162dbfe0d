'use strict';

// The raw and fieldsAsRaw decode options against bson@7's deserialize: seeded
// generated documents and the spec corpus decode to the same values (raw
// documents as Buffers over the input's memory) under each option set; options
// are read as own properties only; a raw document's bytes are still checked.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const F = require('./support/fuzz');
const { normalize } = require('./support/normalize');

const N = Number(process.env.QBSON_RAW_N) || 2000;
const SEED = Number(process.env.QBSON_RAW_SEED) || 1717;

// fieldsAsRaw without a prototype, so bson's plain property lookup reads own keys only, as qbson does
function fields(obj) {
    return Object.assign(Object.create(null), obj);
}

const OPTION_SETS = [
    { raw: true },
    { fieldsAsRaw: fields({ a: true, 0: 1, _id: true }) },
    { fieldsAsRaw: fields({ b: true, x: true, é: true }), promoteValues: false },
    { raw: true, fieldsAsRaw: fields({ a: true }), bsonRegExp: true },
    { raw: 1, promoteBuffers: true, useBigInt64: true },
    { fieldsAsRaw: fields({ a: false, b: 0 }) },
];

function run(fn) {
    try {
        return { value: normalize(fn()) };
    } catch (error) {
        return { error };
    }
}

describe('raw and fieldsAsRaw', function () {
    it(`${N} generated documents and the corpus decode as bson decodes them under ${OPTION_SETS.length} option sets`, function () {
        const inputs = F.generatedDocuments(SEED, N).concat(F.corpusDocuments());
        let compared = 0;
        let rawSeen = 0;
        for (const bytes of inputs) {
            for (const opts of OPTION_SETS) {
                const theirs = run(() => bson.deserialize(bytes, opts));
                const ours = run(() => qbson.deserialize(bytes, { ...opts, validation: { utf8: false } }));
                if (theirs.error) continue;
                const label = `${bytes.toString('hex')} with ${JSON.stringify(opts)}`;
                assert.ok(!ours.error, `${label}: ${ours.error && ours.error.message}`);
                assert.deepStrictEqual(ours.value, theirs.value, label);
                compared++;
                if (JSON.stringify(ours.value).includes('"Buffer"')) rawSeen++;
            }
        }
        assert.ok(compared > N * 4, `only ${compared} comparisons`);
        assert.ok(rawSeen > N / 4, `only ${rawSeen} results held raw documents`);
    });

    it('raw: every embedded document, in arrays and code scopes too, is a Buffer over the input', function () {
        const input = qbson.encode({ a: { x: 1 }, list: [{ y: 2 }, [{ z: 3 }], 4], code: new qbson.Code('f', { s: { k: 1 } }) });
        const out = qbson.decode(input, { raw: true });
        assert.ok(Buffer.isBuffer(out.a) && out.a.buffer === input.buffer, 'a view of the input, as in bson');
        assert.deepStrictEqual(qbson.decode(out.a), { x: 1 });
        assert.deepStrictEqual(qbson.decode(out.list[0]), { y: 2 });
        assert.deepStrictEqual(qbson.decode(out.list[1][0]), { z: 3 });
        assert.strictEqual(out.list[2], 4);
        assert.deepStrictEqual(qbson.decode(out.code.scope.s), { k: 1 });
    });

    it('fieldsAsRaw: documents anywhere below a named array stay raw; a named document field does not', function () {
        const input = qbson.encode({ tags: [{ t: 1 }, [{ u: 2 }]], deep: { tags: [{ v: 3 }] }, other: [{ w: 4 }], doc: { tags: 1 } });
        const out = qbson.decode(input, { fieldsAsRaw: { tags: true, doc: true } });
        assert.deepStrictEqual(qbson.decode(out.tags[0]), { t: 1 });
        assert.deepStrictEqual(qbson.decode(out.tags[1][0]), { u: 2 });
        assert.deepStrictEqual(qbson.decode(out.deep.tags[0]), { v: 3 });
        assert.deepStrictEqual(out.other, [{ w: 4 }]);
        assert.deepStrictEqual(out.doc, { tags: 1 });
    });

    it('options are read as own properties: a polluted Object.prototype changes nothing', function () {
        const input = qbson.encode({ a: { x: 1 }, list: [{ y: 2 }] });
        const plain = qbson.decode(input);
        Object.prototype.raw = true;
        Object.prototype.fieldsAsRaw = { list: true };
        try {
            assert.deepStrictEqual(qbson.decode(input, {}), plain);
            assert.deepStrictEqual(qbson.decode(input, { fieldsAsRaw: {} }), plain);
        } finally {
            delete Object.prototype.raw;
            delete Object.prototype.fieldsAsRaw;
        }
    });

    it('fieldsAsRaw names fields by own keys: an array called "constructor" or "toString" is decoded (bson makes it raw)', function () {
        const input = qbson.encode({ constructor: [{ a: 1 }], toString: [{ b: 2 }] });
        assert.deepStrictEqual(normalize(qbson.decode(input, { fieldsAsRaw: {} })), normalize({ constructor: [{ a: 1 }], toString: [{ b: 2 }] }));
        // the difference README's "Differences from bson" names
        assert.ok(Buffer.isBuffer(bson.deserialize(input, { fieldsAsRaw: { x: true } }).constructor[0]));
    });

    it('a fieldsAsRaw that is not an object is a BSONError', function () {
        const input = qbson.encode({ a: [] });
        assert.throws(() => qbson.decode(input, { fieldsAsRaw: 'a' }), (err) => err instanceof qbson.BSONError && /fieldsAsRaw/.test(err.message));
    });

    it('a raw document\'s bytes are checked all the way down: bad bytes are a BSONError with the offset', function () {
        const good = qbson.encode({ a: { b: { s: 'text' } } });
        const bad = Buffer.from(good);
        // the string length inside a.b, made to run past its document
        const at = good.indexOf(Buffer.from('text')) - 4;
        bad.writeInt32LE(99, at);
        assert.throws(() => qbson.decode(bad, { raw: true }), (err) => err instanceof qbson.BSONError && err.offset === at);
        const unknownType = Buffer.from(good);
        unknownType[good.indexOf(0x02)] = 0x20;
        assert.throws(() => qbson.decode(unknownType, { raw: true }), qbson.BSONError);
    });

    it('maxDepth bounds the nesting inside raw documents too', function () {
        const deep = F.nestedBytes(12, false);
        assert.ok(Buffer.isBuffer(qbson.decode(deep, { raw: true, maxDepth: 12 }).a));
        assert.throws(() => qbson.decode(deep, { raw: true, maxDepth: 11 }), (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_DEEP');
    });
});
