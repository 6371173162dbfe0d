'use strict';

// Property tests against bson@7: seeded random nested documents must encode to
// the same bytes, decode to the same values (under each option set), and have
// calculateObjectSize equal to the encoded length.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');
const { documentArbitraries, DECODE_OPTIONS, ENCODE_OPTIONS } = require('./support/arbitraries');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 5000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261122;

const { rootArb } = documentArbitraries(fc, bson, (bytes) => Buffer.from(bytes));

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
