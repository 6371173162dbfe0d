'use strict';

// Keys past a document's first 128 fields, read in sequence against the keys of
// the last such document (lib/key-cache.js): whatever the order documents come
// in, each decodes as bson decodes it.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');
const { MAX_SHAPE_FIELDS } = require('../lib/shapes');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 2000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261128;

// the fields a document has before its keys are read in sequence
const lead = () => Object.fromEntries(Array.from({ length: MAX_SHAPE_FIELDS }, (_, i) => [`lead${i}`, i]));

function sameAsBson(bytes, opts) {
    let expected;
    try {
        expected = normalize(bson.deserialize(bytes, opts));
    } catch (err) {
        assert.throws(() => qbson.decode(bytes, opts), qbson.BSONError);
        return;
    }
    assert.deepStrictEqual(normalize(qbson.decode(bytes, opts)), expected);
}

// a document of the given [key, value] pairs (int32 values), as bytes written by
// hand so that keys may repeat or be ill-formed UTF-8 (each key a Buffer)
function documentOf(pairs) {
    const parts = pairs.map(([key, value]) => {
        const v = Buffer.alloc(4);
        v.writeInt32LE(value);
        return Buffer.concat([Buffer.from([0x10]), key, Buffer.from([0]), v]);
    });
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(4);
    head.writeInt32LE(body.length + 5);
    return Buffer.concat([head, body, Buffer.from([0])]);
}

// keys that look alike: same length, same first and last bytes, one byte apart;
// short, at and past the 16-byte slot; non-ASCII; empty
const KEYS = ['a', 'b', 'ab', 'ba', 'abc', 'acc', 'k01', 'k10', 'name', 'nAme', 'x'.repeat(15), 'x'.repeat(14) + 'y',
    'x'.repeat(16), 'x'.repeat(15) + 'y', 'y'.repeat(40), 'é', 'ée', '日本', '日本語', '', '__proto__', 'constructor', '0', '12'];

describe('keys read in sequence', function () {
    it(`${RUNS} runs of wide documents with fields left out, added, renamed and reordered decode as bson`, function () {
        const fieldArb = fc.tuple(fc.constantFrom(...KEYS), fc.integer({ min: -5, max: 5 }));
        const docArb = fc.array(fieldArb, { minLength: 0, maxLength: 30 }).map((fields) => {
            const doc = lead();
            for (const [key, value] of fields) doc[key] = value;
            return doc;
        });
        fc.assert(
            fc.property(fc.array(docArb, { minLength: 1, maxLength: 8 }), (docs) => {
                for (const doc of docs) sameAsBson(Buffer.from(bson.serialize(doc)));
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });

    it('a document of one shape after another: left out, added, renamed by one byte, longer', function () {
        const base = { ...lead(), alpha: 1, bravo: 2, charlie: 3, delta: 4, echo: 5 };
        const variants = [
            base,
            { ...lead(), alpha: 1, charlie: 3, delta: 4, echo: 5 },
            { ...lead(), alpha: 1, bravo: 2, extra: 9, charlie: 3, delta: 4, echo: 5 },
            { ...lead(), alpha: 1, brAvo: 2, charlie: 3, delta: 4, echo: 5 },
            { ...lead(), alpha: 1, bravo: 2, charlie: 3, delta: 4, echo: 5, foxtrot: 6, golf: 7 },
            { ...lead(), one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 },
        ];
        for (let round = 0; round < 20; round++) {
            for (const doc of variants) sameAsBson(Buffer.from(bson.serialize(doc)));
        }
    });

    it('runs of one to six fields left out, at the start, inside and at the end of the tail', function () {
        const tail = Array.from({ length: 12 }, (_, i) => `t${i}`);
        const docOf = (keys) => Object.fromEntries([...Object.entries(lead()), ...keys.map((k, i) => [k, i])]);
        for (let round = 0; round < 5; round++) {
            for (let run = 1; run <= 6; run++) {
                for (const from of [0, 3, tail.length - run]) {
                    sameAsBson(Buffer.from(bson.serialize(docOf(tail))));
                    sameAsBson(Buffer.from(bson.serialize(docOf(tail.filter((_, i) => i < from || i >= from + run)))));
                }
            }
        }
    });

    it('a wide document inside a wide document: the parent goes on where it was', function () {
        const inner = { ...lead(), p: 1, q: 2, r: 3 };
        const doc = { ...lead(), before: 1, inner, after: 2, last: 3, list: [inner, inner], end: 4 };
        for (let round = 0; round < 10; round++) {
            sameAsBson(Buffer.from(bson.serialize(doc)));
            sameAsBson(Buffer.from(bson.serialize(inner)));
        }
    });

    it('an ill-formed key past the 128th field: refused by default, replaced as bson with validation off', function () {
        const pairs = Object.keys(lead()).map((k, i) => [Buffer.from(k), i]);
        const good = documentOf([...pairs, [Buffer.from('abc'), 1], [Buffer.from('abd'), 2]]);
        const bad = documentOf([...pairs, [Buffer.from('abc'), 1], [Buffer.from([0x61, 0xff, 0x64]), 2]]);
        const badAt = bad.length - 1 - 9 + 1;
        for (let round = 0; round < 5; round++) {
            sameAsBson(good);
            sameAsBson(bad, { validation: { utf8: false } });
            // docs/differences.md: invalid UTF-8 in a key throws by default
            assert.throws(() => qbson.decode(bad), (err) => err instanceof qbson.BSONError && err.message.endsWith(`invalid UTF-8 in key at offset ${badAt}`));
        }
    });

    it('a decode that fails half way through a wide document leaves the next decodes right', function () {
        const doc = { ...lead(), a: 1, b: 2, c: 3, d: 4 };
        const bytes = Buffer.from(bson.serialize(doc));
        const cut = Buffer.from(bytes);
        cut[cut.length - 8] = 0x7f; // an unknown type byte among the last fields
        for (let round = 0; round < 5; round++) {
            assert.throws(() => qbson.decode(cut), qbson.BSONError);
            sameAsBson(bytes);
        }
    });

    it('documents of more keys than the sequence has slots (70,000), each time', function () {
        const wide = {};
        for (let i = 0; i < 70000; i++) wide['f' + i.toString(36)] = i;
        const bytes = Buffer.from(bson.serialize(wide));
        for (let round = 0; round < 3; round++) sameAsBson(bytes);
    });
});
