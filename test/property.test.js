'use strict';

// Property tests against bson@7: seeded random nested documents must encode to
// the same bytes, decode to the same values (under each option set), and have
// calculateObjectSize equal to the encoded length.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 5000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261122;

const key = fc.oneof(
    fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')),
    fc.constantFrom('_id', 'a', 'b', '$ref', '$id', '$db', '__proto__', 'constructor', 'é', '日本'),
    // keys checkKeys refuses, except where bson exempts them
    fc.constantFrom('$where', '$oid', '$a', 'a.b.c', '.', 'x.', '$clusterTime'),
    fc.string({ unit: 'binary', maxLength: 6 }).filter((s) => !s.includes('\u0000'))
);

const text = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 80 }),
    fc.string({ minLength: 60, maxLength: 200 })
);

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const bytes = fc.uint8Array({ maxLength: 40 });

// Leaves built with bson's classes: qbson must take them exactly as bson does.
const leaf = fc.oneof(
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    fc.double(),
    fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_SAFE_INTEGER),
    text,
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    int64,
    fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
    fc.constantFrom(/ab+c/, /x/gi, /^\d+$/m, /[é]/, /a/imsu).map((r) => new RegExp(r.source, r.flags)),
    bytes.map((b) => Buffer.from(b)),
    bytes,
    fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new bson.ObjectId(b)),
    int64.map((n) => bson.Long.fromBigInt(n)),
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((n) => new bson.Int32(n)),
    fc.double().map((n) => new bson.Double(n)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.Decimal128(Buffer.from(b))),
    fc.tuple(bytes, fc.constantFrom(0, 1, 2, 3, 5, 6, 7, 8, 0x80)).map(([b, t]) => new bson.Binary(Buffer.from(b), t)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.UUID(Buffer.from(b))),
    fc.tuple(fc.nat(), fc.nat()).map(([t, i]) => new bson.Timestamp({ t: t >>> 0, i: i >>> 0 })),
    text.map((s) => new bson.Code(s)),
    text.filter((s) => !s.includes('\u0000')).map((s) => new bson.BSONSymbol(s)),
    fc.tuple(fc.constantFrom('a.b', '^x$', ''), fc.constantFrom('', 'i', 'mi', 'xsl')).map(([p, o]) => new bson.BSONRegExp(p, o)),
    fc.constant(new bson.MinKey()),
    fc.constant(new bson.MaxKey())
);

const { value: docArb } = fc.letrec((tie) => ({
    value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        leaf,
        leaf,
        tie('array'),
        tie('doc'),
        tie('map'),
        tie('toBSON'),
        tie('code'),
        tie('dbref')
    ),
    array: fc.array(tie('value'), { maxLength: 6 }),
    doc: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    map: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => new Map(entries)),
    // an object standing for whatever its toBSON returns
    toBSON: tie('value').map((value) => ({ toBSON: () => value })),
    code: fc.tuple(text, tie('doc')).map(([c, scope]) => new bson.Code(c, scope)),
    dbref: fc
        .tuple(fc.string({ maxLength: 6 }), leaf, fc.option(fc.string({ maxLength: 4 }), { nil: undefined }), fc.option(tie('doc'), { nil: undefined }))
        // a DBRef field named __proto__ is a documented difference (bson drops it)
        .filter(([, , , fields]) => fields === undefined || !Object.prototype.hasOwnProperty.call(fields, '__proto__'))
        .map(([coll, id, db, fields]) => new bson.DBRef(coll, id === null || id === undefined ? 1 : id, db, fields)),
}));
const rootArb = fc.dictionary(key, docArb, { maxKeys: 8 });

const DECODE_OPTIONS = [
    {},
    { promoteValues: false },
    { promoteLongs: false },
    { useBigInt64: true },
    { bsonRegExp: true },
    { promoteBuffers: true },
];
const ENCODE_OPTIONS = [{}, { ignoreUndefined: false }, { checkKeys: true }];

// Whether a DBRef anywhere in a decoded value has a field named __proto__.
function hasDBRefProtoField(value) {
    if (value === null || typeof value !== 'object') return false;
    if (value._bsontype === 'DBRef') {
        return Object.prototype.hasOwnProperty.call(value.fields, '__proto__') || hasDBRefProtoField(value.fields);
    }
    if (value._bsontype === 'Code') return hasDBRefProtoField(value.scope);
    if (value._bsontype !== undefined) return false;
    return Object.keys(value).some((k) => hasDBRefProtoField(value[k]));
}

// bson's bytes for doc, or null where bson refuses it (a toBSON returning another toBSON
// whose result is no object); the decode properties need documents bson can write.
function bsonBytes(doc) {
    try {
        return Buffer.from(bson.serialize(doc));
    } catch (err) {
        return null;
    }
}

describe('property: qbson against bson@7', function () {
    it(`encodes ${RUNS} random documents to bson's bytes`, function () {
        fc.assert(
            fc.property(rootArb, fc.constantFrom(...ENCODE_OPTIONS), (doc, opts) => {
                let expected;
                try {
                    expected = bson.serialize(doc, opts);
                } catch (err) {
                    // bson crashes on a toBSON result of null inside a DBRef: nothing to compare
                    fc.pre(bson.BSONError.isBSONError(err));
                    // bson refuses it (e.g. an invalid vector): qbson must refuse too
                    assert.throws(() => qbson.encode(doc, opts), qbson.BSONError);
                    return;
                }
                const actual = qbson.encode(doc, opts);
                assert.strictEqual(actual.toString('hex'), Buffer.from(expected).toString('hex'));
                assert.strictEqual(qbson.calculateObjectSize(doc, opts), actual.length);
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });

    it(`decodes ${RUNS} random documents to bson's values under each option set`, function () {
        fc.assert(
            fc.property(rootArb, fc.constantFrom(...DECODE_OPTIONS), (doc, opts) => {
                const bytes = bsonBytes(doc);
                fc.pre(bytes !== null);
                let expected;
                try {
                    expected = bson.deserialize(bytes, opts);
                } catch (err) {
                    // where bson fails on valid bytes (a regex JavaScript rejects), qbson gives a BSONError
                    assert.throws(() => qbson.decode(bytes, opts), qbson.BSONError);
                    return;
                }
                assert.deepStrictEqual(normalize(qbson.decode(bytes, opts)), normalize(expected));
            }),
            { seed: SEED + 1, numRuns: RUNS }
        );
    });

    it('re-encodes its decoded values as bson re-encodes its own, and bson accepts qbson\'s values', function () {
        const opts = { promoteValues: false, bsonRegExp: true };
        fc.assert(
            fc.property(rootArb, (doc) => {
                const bytes = bsonBytes(doc);
                fc.pre(bytes !== null);
                const decoded = qbson.decode(bytes, opts);
                // qbson writes a DBRef's __proto__ field, which bson drops (a documented difference)
                fc.pre(!hasDBRefProtoField(decoded));
                // a DBRef-shaped document comes back with its keys reordered, in bson too
                let expected;
                try {
                    expected = Buffer.from(bson.serialize(bson.deserialize(bytes, opts))).toString('hex');
                } catch (err) {
                    // a root that decodes to a DBRef is no document to bson's serialize, nor to encode
                    assert.throws(() => qbson.encode(decoded), qbson.BSONError);
                    return;
                }
                assert.strictEqual(qbson.encode(decoded).toString('hex'), expected);
                assert.strictEqual(Buffer.from(bson.serialize(decoded)).toString('hex'), expected);
            }),
            { seed: SEED + 2, numRuns: Math.ceil(RUNS / 5) }
        );
    });
});
