'use strict';

// Documents of repeated shapes read by readers generated for them (lib/shape-reader.js):
// the same values, key order and plain objects as bson's and as the decoder's own
// path, whatever differs in a document, for any key, with bounded memory, and the
// same results where code cannot be generated.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const path = require('path');
const { spawnSync } = require('child_process');
const { normalize } = require('./support/normalize');
const { makeRandom } = require('./support/fuzz');
const shapeReader = require('./support/shape-readers');
const { Decoder } = require('../lib/decoder');

const { COMPILE_AFTER, SLOTS, MISS } = shapeReader;
const ROUNDS = COMPILE_AFTER + 8;
// options that change nothing in these documents but keep the readers off: the
// decoder's own path (a key with a NUL cannot be stored in BSON)
const GENERIC = { fieldsAsRaw: { 'no\u0000such key': true } };

// the decoder's own result or error for bytes, as something to compare
function outcome(bytes, opts) {
    try {
        return { value: normalize(qbson.decode(bytes, opts)) };
    } catch (err) {
        return { error: err.name, code: err.code, offset: err.offset, message: err.message };
    }
}

function sameEveryRound(bytes, rounds = ROUNDS) {
    const expected = normalize(bson.deserialize(bytes));
    const generic = qbson.decode(bytes, GENERIC);
    for (let round = 0; round < rounds; round++) {
        const doc = qbson.decode(bytes);
        assert.deepStrictEqual(normalize(doc), expected, `round ${round}`);
        assert.deepStrictEqual(Object.getOwnPropertyDescriptors(doc), Object.getOwnPropertyDescriptors(generic), `round ${round}`);
    }
}

// each document of docs (BSON), decoded `rounds` times in turn, gives what bson gives and the
// decoder's own path's fields (values, key order, property descriptors)
function sameAsDecoderEachRound(docs, rounds) {
    const generic = docs.map((bytes) => qbson.decode(bytes, GENERIC));
    for (let round = 0; round < rounds; round++) {
        docs.forEach((bytes, i) => {
            const doc = qbson.decode(bytes);
            assert.deepStrictEqual(normalize(doc), normalize(bson.deserialize(bytes)), `round ${round}, document ${i}`);
            assert.deepStrictEqual(Object.getOwnPropertyDescriptors(doc), Object.getOwnPropertyDescriptors(generic[i]));
        });
    }
}

const ITEM = () => ({ id: 7, name: 'Peter', ready: true, priority: 0, tags: ['a', 'b', 'c'] });
// every type a reader reads itself, and some it leaves to the decoder
const EVERY_TYPE = () => ({
    _id: new bson.ObjectId('64b7f0c2a1b2c3d4e5f60718'), d: 1.5, s: 'text é日本😀', sub: { a: 1, b: [1, 2.5], c: { deep: 'x' } },
    docs: [{ x: 1, y: 'a' }, { x: 2, y: 'b' }], strs: ['p', 'q'], mixed: [1, 'two', null, { three: 3 }], nums: [1, 2, 3], empty: [],
    bin: new bson.Binary(Buffer.from([1, 2, 3])), uuid: new bson.Binary(Buffer.alloc(16, 1), 4), old: new bson.Binary(Buffer.from([1, 2]), 2),
    user: new bson.Binary(Buffer.from([9]), 0x80), numsThenText: [1, 2.5, 'x'], t: true, f: false, when: new Date(12345), nil: null, i: -5, big: bson.Long.fromString('1234567890123456789'),
    small: bson.Long.fromNumber(42), re: new bson.BSONRegExp('^a', 'i'), code: new bson.Code('x'), ts: new bson.Timestamp({ t: 1, i: 2 }),
    dec: bson.Decimal128.fromString('1.5'), min: new bson.MinKey(), max: new bson.MaxKey(), ref: new bson.DBRef('c', 1), last: 'end',
});

describe('readers generated for repeated shapes', function () {
    it('give what bson and the decoder give: values, key order, plain own fields, every round', function () {
        sameEveryRound(Buffer.from(bson.serialize(ITEM())));
        sameEveryRound(Buffer.from(bson.serialize({ cursor: { firstBatch: Array.from({ length: 50 }, ITEM), id: bson.Long.fromNumber(0), ns: 'db.c' }, ok: 1 })));
        sameEveryRound(Buffer.from(bson.serialize(EVERY_TYPE())));
        const doc = qbson.decode(Buffer.from(bson.serialize(EVERY_TYPE())));
        for (const o of [doc, doc.sub, doc.sub.c, doc.docs[1]]) assert.strictEqual(Object.getPrototypeOf(o), Object.prototype);
        assert.ok(doc.ref instanceof qbson.DBRef);
    });

    it('read documents with other values of the same shape, and fields that are null in some', function () {
        const random = makeRandom(46).next;
        const word = () => 'w'.repeat(1 + Math.floor(random() * 20)) + (random() < 0.2 ? 'é' : '');
        for (let round = 0; round < 3 * ROUNDS; round++) {
            const doc = { id: Math.floor(random() * 1e6), name: random() < 0.2 ? null : word(), score: random(), owner: random() < 0.3 ? null : { n: word(), k: 1 },
                tags: Array.from({ length: Math.floor(random() * 4) }, word), at: new Date(Math.floor(random() * 1e12)) };
            const bytes = Buffer.from(bson.serialize(doc));
            assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), `round ${round}`);
        }
    });

    it('return MISS or the decoder\'s own value for every byte of a document changed, and never throw', function () {
        const bytes = Buffer.from(bson.serialize({ ...EVERY_TYPE(), list: [ITEM(), ITEM()] }));
        const reader = shapeReader.readerFor(bytes, 0, bytes.length);
        assert.strictEqual(typeof reader, 'function');
        const dec = new Decoder(null, undefined);
        let misses = 0;
        for (let i = 4; i < bytes.length; i++) {
            for (const b of new Set([0, 1, 2, 3, 4, 0x0a, 0x10, 0x7f, 0x80, 0xff, (bytes[i] + 1) & 0xff, (bytes[i] - 1) & 0xff])) {
                if (b === bytes[i]) continue;
                const changed = Buffer.from(bytes);
                changed[i] = b;
                dec.buf = changed;
                const value = reader(dec, changed, 0, changed.length, 0);
                const generic = outcome(changed, GENERIC);
                if (value === MISS) {
                    misses++;
                    continue;
                }
                assert.deepStrictEqual({ value: normalize(value) }, generic, `byte ${i} = ${b}`);
            }
        }
        assert.ok(misses > bytes.length, `${misses} misses`);
    });

    it('fall back for every kind of difference at every field: the decoder\'s value or its very error', function () {
        const base = { a: 1, b: 'two', c: { d: 3.5, e: [{ f: 1 }, { f: 2 }] }, g: ['x', 'y'], h: new Date(1), i: true };
        const variants = [];
        for (const key of Object.keys(base)) {
            const without = { ...base };
            delete without[key];
            variants.push(without, { ...base, [key]: 'other type' }, { ...base, [key]: null }, { ...base, [key + 'x']: 1 },
                Object.fromEntries(Object.entries(base).map(([k, v]) => [k === key ? k.toUpperCase() : k, v])));
        }
        variants.push({ ...base, extra: 1 }, { z: 0, ...base }, { ...base, c: { d: 3.5, e: [{ f: 1 }, { g: 2 }] } }, { ...base, c: { d: 3.5, e: [{ f: 1 }, 5] } },
            { ...base, g: ['x', 2] }, { ...base, c: { d: 3.5, e: [{ f: 1 }, { f: 2 }], more: 1 } });
        const learnt = Buffer.from(bson.serialize(base));
        for (const variant of variants) {
            const bytes = Buffer.from(bson.serialize(variant));
            for (let round = 0; round < 3; round++) {
                // keep the shape's reader in use between the variants
                for (let k = 0; k < ROUNDS; k++) qbson.decode(learnt);
                assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), JSON.stringify(variant));
            }
        }
        // truncations and a nesting deeper than maxDepth fail with the decoder's own errors
        for (let round = 0; round < ROUNDS; round++) qbson.decode(learnt);
        for (let cut = 5; cut < learnt.length; cut += 3) {
            const bytes = Buffer.from(learnt.subarray(0, cut));
            bytes.writeInt32LE(cut, 0);
            bytes[cut - 1] = 0;
            assert.deepStrictEqual(outcome(bytes), outcome(bytes, GENERIC), `cut at ${cut}`);
        }
        for (const maxDepth of [1, 2, 3]) assert.deepStrictEqual(outcome(learnt, { maxDepth }), outcome(learnt, { ...GENERIC, maxDepth }));
        const badText = Buffer.from(learnt);
        badText[learnt.indexOf('two') + 1] = 0xff;
        assert.deepStrictEqual(outcome(badText), outcome(badText, GENERIC));
        assert.deepStrictEqual(outcome(badText, { validation: { utf8: false } }), outcome(badText, { ...GENERIC, validation: { utf8: false } }));
    });

    it('fields null or arrays empty in every document learnt are read in place, and anything else there by the decoder', function () {
        const base = { a: 1, logo: null, tags: [], areas: [{ id: 1, blockIds: [] }, { id: 2, blockIds: [] }], name: 'x' };
        const learnt = Buffer.from(bson.serialize(base));
        const reader = shapeReader.readerFor(learnt, 0, learnt.length);
        const dec = new Decoder(learnt, undefined);
        assert.deepStrictEqual(normalize(reader(dec, learnt, 0, learnt.length, 0)), normalize(bson.deserialize(learnt)));
        assert.strictEqual(dec.shapeFallbacks, 0);
        const others = ['text', { n: 1 }, [1, 2], ['s'], [[]], [{}], new Date(5), 7];
        for (const value of others) {
            for (const variant of [{ ...base, logo: value }, { ...base, tags: value }, { ...base, areas: [{ id: 1, blockIds: value }, { id: 2, blockIds: [] }] }]) {
                const bytes = Buffer.from(bson.serialize(variant));
                const read = new Decoder(bytes, undefined);
                const doc = reader(read, bytes, 0, bytes.length, 0);
                assert.notStrictEqual(doc, MISS, JSON.stringify(variant));
                assert.deepStrictEqual({ value: normalize(doc) }, outcome(bytes, GENERIC), JSON.stringify(variant));
                assert.ok(read.shapeFallbacks > 0 || variant.logo !== base.logo, JSON.stringify(variant));
                for (let round = 0; round < ROUNDS; round++) qbson.decode(learnt);
                assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), JSON.stringify(variant));
            }
        }
        // an empty array one level past maxDepth is the decoder's error, as any array there
        for (const maxDepth of [1, 2, 3]) assert.deepStrictEqual(outcome(learnt, { maxDepth }), outcome(learnt, { ...GENERIC, maxDepth }));
        const deep = new Decoder(learnt, { maxDepth: 1 });
        assert.strictEqual(reader(deep, learnt, 0, learnt.length, 0), MISS);
    });

    it('a stream whose shape changes every document decodes as bson decodes it, and the table stays its size', function () {
        const random = makeRandom(4646).next;
        const NAMES = ['name', 'title', 'count', 'score', 'active', 'created', 'owner', 'tags', 'meta', 'price', 'note', 'kind'];
        const VALUES = [() => 5, () => 2.5, () => 'str', () => true, () => null, () => new Date(9), () => ({ a: 1 }), () => [1, 2]];
        for (let n = 0; n < 2000; n++) {
            const doc = { _id: new bson.ObjectId() };
            for (const name of NAMES) if (random() < 0.5) doc[name] = VALUES[Math.floor(random() * VALUES.length)]();
            const bytes = Buffer.from(bson.serialize(doc));
            assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), `document ${n}`);
        }
        // many shapes, each repeated: readers are bounded by the table's slots
        for (let s = 0; s < 4 * SLOTS; s++) {
            const bytes = Buffer.from(bson.serialize({ ['k' + s]: s, v: 'x' }));
            for (let round = 0; round < COMPILE_AFTER + 1; round++) qbson.decode(bytes);
        }
        assert.ok(shapeReader.readersInUse() <= SLOTS);
    });

    it('leave a nested value of another type or shape to the decoder, in place, and count it against the reader', function () {
        const item = (i) => ({ id: i, name: 'n' + i, tags: ['a', 'b'] });
        const learnt = Buffer.from(bson.serialize({ kind: 'list', items: Array.from({ length: 8 }, (_, i) => item(i)), owner: { n: 'x', k: 1 }, nums: [1, 2] }));
        const reader = shapeReader.readerFor(learnt, 0, learnt.length);
        const odd = [{ ...item(3), extra: true }, null, 'text', [1, 2], { other: 1 }];
        for (const [i, value] of odd.entries()) {
            const items = Array.from({ length: 8 }, (_, j) => item(j));
            items[i + 1] = value;
            const variants = [{ kind: 'list', items, owner: { n: 'x', k: 1 }, nums: [1, 2] },
                { kind: 'list', items: Array.from({ length: 8 }, (_, j) => item(j)), owner: value, nums: [1, 2] },
                { kind: 'list', items: Array.from({ length: 8 }, (_, j) => item(j)), owner: { n: 'x', k: 1 }, nums: [1, value] }];
            for (const variant of variants) {
                const bytes = Buffer.from(bson.serialize(variant));
                const dec = new Decoder(bytes, undefined);
                const value = reader(dec, bytes, 0, bytes.length, 0);
                assert.notStrictEqual(value, MISS, JSON.stringify(variant));
                assert.deepStrictEqual({ value: normalize(value) }, outcome(bytes, GENERIC), JSON.stringify(variant));
                // a field that is null where the shape has a document is the shape's
                assert.ok(dec.shapeFallbacks > 0 || variant.owner === null, JSON.stringify(variant));
                assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), JSON.stringify(variant));
            }
        }
        // a document of the shape leaves nothing to the decoder
        const dec = new Decoder(learnt, undefined);
        assert.deepStrictEqual(normalize(reader(dec, learnt, 0, learnt.length, 0)), normalize(bson.deserialize(learnt)));
        assert.strictEqual(dec.shapeFallbacks, 0);
    });

    it('a root of fewer than 32 bytes decoded without options gets a reader, and a document unlike it does not use it', function () {
        // first keys no other test uses: a slot is keyed by the first element's type and key bytes;
        // and an empty table, where no other test's reader holds a slot these hash to
        shapeReader.clearTable();
        const small = [{ qa: 1234 }, { qb: 1234.5 }, { qc: 1 }, { qd: 1, y: -2 }, { qe: 'héllo' }, { qf: null, t: true }];
        for (const doc of small) {
            const bytes = Buffer.from(bson.serialize(doc));
            assert.ok(bytes.length < shapeReader.MIN_SHAPE_SIZE, JSON.stringify(doc));
            // while it has no reader, one small root in 16 looks (lib/decoder.js readSmallRoot)
            sameEveryRound(bytes, 16 * 2 * ROUNDS);
            assert.ok(shapeReader.hasReader(bytes, 0, bytes.length, 0), 'no reader for ' + JSON.stringify(doc));
        }
        // same first element and size, other values and types after it: each read as the decoder reads it
        sameEveryRound(Buffer.from(bson.serialize({ qd: 1, y: 'z' })));
        sameEveryRound(Buffer.from(bson.serialize({ qd: 1, z: -2 })));
        sameEveryRound(Buffer.from(bson.serialize({ qa: 'abcd' })));
        // and the same first two elements and size class, with one more after them
        sameEveryRound(Buffer.from(bson.serialize({ qd: 1, y: -2, z: 3 })));
        sameEveryRound(Buffer.from(bson.serialize({ qf: null, t: false, u: 1 })));
        // a buffer holding more than the document, and bytes cut short, fail as before
        const bytes = Buffer.from(bson.serialize({ qa: 1234 }));
        for (const bad of [Buffer.concat([bytes, Buffer.from([0])]), bytes.subarray(0, bytes.length - 1)]) {
            assert.deepStrictEqual(outcome(bad), outcome(bad, GENERIC));
            assert.ok(outcome(bad).error, 'no error for ' + bad.toString('hex'));
        }
    });

    it('a large shape met twice in one reader is written once, a small one at each place, and both read as bson reads them', function () {
        // a status and the status it retweets hold users of one shape (60 fields), and one small place
        const user = (n) => Object.fromEntries(Array.from({ length: 60 }, (_, i) => ['field_' + i, i % 3 === 0 ? 'v' + n + i : i * n]));
        const status = (n) => ({ text: 'status ' + n, user: user(n), place: { name: 'p' + n, country: 'c' },
            retweeted: { text: 'retweet ' + n, user: user(n + 1), place: { name: 'q' + n, country: 'd' } } });
        // (bytes from bson, so that the encoder's table of writers is left as it was)
        const bytes = bson.serialize(status(1));
        const source = shapeReader.sourceFor(bytes, 0, bytes.length);
        const readers = (source.match(/^function r\d+\(/gm) || []).length;
        // the root, the retweet, one user, and a place at each of its two places
        assert.strictEqual(readers, 5, source.slice(0, 400));
        const read = shapeReader.readerFor(bytes, 0, bytes.length);
        for (let n = 1; n < 4; n++) {
            const doc = bson.serialize(status(n));
            const dec = new Decoder(doc, undefined);
            dec.view = null;
            const value = read(dec, doc, 0, doc.length, 0);
            assert.notStrictEqual(value, shapeReader.MISS);
            assert.deepStrictEqual(normalize(value), normalize(bson.deserialize(doc)));
        }
        sameEveryRound(bson.serialize(status(5)));
    });
    it('a document and one nested in it with the same first key and size class each keep a reader', function () {
        // nested-object: the root and its field a are both {a: {...}} of 32-63 bytes
        const bytes = Buffer.from(bson.serialize({ a: { a: { b: { c: { d: { e: 5 } } } } } }));
        sameEveryRound(bytes, 4 * ROUNDS);
        assert.ok(shapeReader.hasReader(bytes, 0, bytes.length, 0), 'the root has no reader');
        const nested = Buffer.from(bson.serialize({ x: { a: { a: { b: { c: { d: { e: 5 } } } } } } }));
        sameEveryRound(nested, 4 * ROUNDS);
        assert.ok(shapeReader.hasReader(bytes, 0, bytes.length, 0), 'the root lost its reader to a nested document');
        assert.ok(shapeReader.hasReader(nested, 0, nested.length, 0));
    });

    it('documents of two collections that begin with an ObjectId _id, read in turn, each keep a reader', function () {
        // of one size class (64-127 bytes), as a program reading two collections' cursors in turn meets them
        const users = Array.from({ length: 8 }, (_, i) => Buffer.from(bson.serialize({
            _id: new bson.ObjectId(), name: 'user' + i, email: 'u' + i + '@example.com', age: 20 + i, active: i % 3 === 0 })));
        const orders = Array.from({ length: 8 }, (_, i) => Buffer.from(bson.serialize({
            _id: new bson.ObjectId(), userId: new bson.ObjectId(), total: 12.5 + i, status: 'open', qty: i })));
        for (let round = 0; round < 2 * ROUNDS; round++) {
            for (let i = 0; i < 8; i++) {
                for (const bytes of [users[i], orders[i]]) {
                    assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), `round ${round}`);
                }
            }
        }
        for (const bytes of [users[0], orders[0]]) {
            assert.ok(shapeReader.readsWhole(new Decoder(bytes, undefined), 0, bytes.length, 0), 'no reader for ' + JSON.stringify(bson.deserialize(bytes)));
        }
    });

    it('a reader that leaves a nested document to the decoder is compiled for the one shape its documents come to have', function () {
        // the mixed, object and nested-object data sets' roots: {rf: {...}} of 32-63 bytes, whose keys agree
        // at the top only, so that the reader of what they share reads rf by the decoder
        const shapes = [{ rf: { a: 'ABC', b: 1, c: 'DEFGHI\xff', d: 1234.567, e: null } }, { rf: { a: 1, b: 2, c: 3, d: 4, e: 5 } },
            { rf: { a: { b: { c: { d: { e: 5 } } } } } }].map((doc) => Buffer.from(bson.serialize(doc)));
        for (let round = 0; round < 2 * ROUNDS; round++) shapes.forEach((bytes) => sameEveryRound(bytes, 1));
        const mixed = shapes[0];
        assert.ok(shapeReader.hasReader(mixed, 0, mixed.length, 0), 'the three shapes have no reader of what they share');
        assert.ok(!shapeReader.readsWhole(new Decoder(mixed, undefined), 0, mixed.length, 0), 'the reader of what they share reads rf itself');
        // then documents of one of them only: a look at CONFIRM (4) in a row of that shape comes after 64
        // hits, and after twice as many as the last for each look (a look during the rounds above saw
        // three shapes), so within 512
        sameEveryRound(mixed, 512);
        assert.ok(shapeReader.readsWhole(new Decoder(mixed, undefined), 0, mixed.length, 0), 'the reader was not compiled for the shape left');
        // the others still decode as bson does
        shapes.forEach((bytes) => sameEveryRound(bytes, 2));
    });

    it('documents whose keys agree but whose types, nested documents and arrays differ get a reader of what they share', function () {
        // a status whose entities hold a different number of hashtags, whose place is a document or null
        const status = (i) => ({
            idStatus: i, text: 'status ' + i, user: { name: 'u' + (i % 3), followers: i * 7 },
            entities: { hashtags: Array.from({ length: i % 4 }, (_, k) => ({ text: 'tag' + k, at: [k, k + 3] })), urls: i % 2 ? ['http://x'] : [] },
            place: i % 5 === 0 ? null : { country: 'JP', name: i % 2 ? 'Tokyo' : { ja: '東京' } }, n: i % 3 === 0 ? 1.5 : i,
        });
        const docs = Array.from({ length: 4 * ROUNDS }, (_, i) => Buffer.from(bson.serialize(status(i))));
        sameAsDecoderEachRound(docs, 2);
        const last = docs[docs.length - 1];
        assert.ok(shapeReader.hasReader(last, 0, last.length, 0), 'the statuses have no reader');
    });

    it('documents that leave out fields get one reader of every field in their order, each optional: the same objects', function () {
        const docs = shapeReader.sparseRecords(400).map((doc) => Buffer.from(bson.serialize(doc)));
        sameAsDecoderEachRound(docs, 3);
        // in a process of its own, where no other test's documents hold the slots: most records
        // are read whole by one reader, whichever fields they leave out
        const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
            const bson = require('bson');
            const reader = require(${JSON.stringify(path.join(__dirname, 'support', 'shape-readers'))});
            const { Decoder } = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'decoder'))});
            const docs = reader.sparseRecords(400).map((doc) => Buffer.from(bson.serialize(doc)));
            for (let round = 0; round < 3; round++) docs.forEach((bytes) => qbson.decode(bytes));
            const whole = docs.filter((bytes) => reader.readsWhole(new Decoder(bytes, undefined), 0, bytes.length, 0)).length;
            const optional = reader.slotOf(docs[0], 0, docs[0].length, 0).shape.fields.filter((f) => f.optional).map((f) => f.key);
            // records unlike any before (keys reversed, a key never seen) leave the reader in place
            const last = docs[docs.length - 1], learnt = bson.deserialize(last);
            for (const doc of [Object.fromEntries(Object.entries(learnt).reverse()), { ...learnt, extra: 1 }]) qbson.decode(bson.serialize(doc));
            const kept = reader.readsWhole(new Decoder(last, undefined), 0, last.length, 0);
            console.log(JSON.stringify({ whole, optional, kept }));`;
        const res = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: path.join(__dirname, '..') });
        assert.strictEqual(res.status, 0, res.stderr);
        const { whole, optional, kept } = JSON.parse(res.stdout);
        assert.ok(whole >= 0.9 * docs.length, `${whole} of ${docs.length} records read whole by a reader`);
        assert.ok(optional.includes('age') && !optional.includes('name'), 'optional fields: ' + optional);
        assert.ok(kept, 'records unlike the others took the reader away');
        // then records that differ from every one before: the decoder's objects
        const last = docs[docs.length - 1];
        const learnt = bson.deserialize(last);
        const reordered = Object.fromEntries(Object.entries(learnt).reverse());
        const unknown = { ...learnt, extra: 1 };
        const undefinedValue = Buffer.from(bson.serialize({ ...learnt, age: null }));
        undefinedValue[undefinedValue.indexOf(Buffer.from('\u000aage\u0000', 'latin1'))] = 0x06;
        for (const bytes of [reordered, unknown].map((doc) => Buffer.from(bson.serialize(doc))).concat(undefinedValue)) {
            for (let round = 0; round < 3; round++) {
                const doc = qbson.decode(bytes);
                assert.deepStrictEqual(normalize(doc), normalize(bson.deserialize(bytes)));
                assert.deepStrictEqual(Object.getOwnPropertyDescriptors(doc), Object.getOwnPropertyDescriptors(qbson.decode(bytes, GENERIC)));
            }
        }
        assert.ok(Object.prototype.hasOwnProperty.call(qbson.decode(undefinedValue), 'age'), 'a BSON undefined is an own field, as bson has it');
    });

    it('shapes merge into one of optional fields only where their keys come in one order and their shared fields agree', function () {
        const shape = (doc) => {
            const bytes = Buffer.from(bson.serialize(doc));
            return shapeReader.deriveShape(bytes, 0, bytes.length);
        };
        const merged = shapeReader.mergeShapes(shape({ a: 1, c: 'x', d: true }), shape({ a: 2, b: 1.5, d: false, e: null }));
        assert.deepStrictEqual(merged.fields.map((f) => (f.optional ? '?' : '') + f.key), ['a', '?c', '?b', 'd', '?e']);
        assert.strictEqual(shapeReader.mergeShapes(shape({ a: 1, b: 2 }), shape({ b: 2, a: 1 })), null, 'keys in orders that differ');
        assert.strictEqual(shapeReader.mergeShapes(shape({ a: 1, b: 2 }), shape({ a: 'one' })), null, 'a shared field of other types');
        assert.notStrictEqual(shapeReader.mergeShapes(shape({ a: 1, b: 2 }), shape({ a: null })), null, 'null in one takes the other\'s type');
        const many = (from) => Object.fromEntries(Array.from({ length: 16 }, (_, i) => ['k' + (from + i), i]));
        assert.strictEqual(shapeReader.mergeShapes(shape(many(0)), shape(many(100))), null, 'more optional fields than one int has bits for');
        assert.notStrictEqual(shapeReader.mergeShapes(shape(many(0)), shape(many(8))), null);
    });

    it('a root is looked up once a decode: a document its reader misses costs that reader one miss, with options or without', function () {
        shapeReader.clearTable();
        // one fingerprint (first element, size class 32-63 bytes, root), two shapes
        const learnt = Buffer.from(bson.serialize({ qz: 1, name: 'abcdefghijklmnopqrst' }));
        const other = Buffer.from(bson.serialize({ qz: 1, note: 'abcdefghijklmnopqrst' }));
        assert.strictEqual(shapeReader.slotOf(learnt, 0, learnt.length, 0), null);
        for (const opts of [undefined, { promoteValues: true }]) {
            shapeReader.clearTable();
            for (let round = 0; round < 64 && !shapeReader.hasReader(learnt, 0, learnt.length, 0); round++) qbson.decode(learnt, opts);
            const slot = shapeReader.slotOf(learnt, 0, learnt.length, 0);
            assert.ok(slot !== null && slot.reader !== null, 'no reader');
            const { score, widened } = slot;
            assert.deepStrictEqual(normalize(qbson.decode(other, opts)), normalize(bson.deserialize(other)));
            assert.strictEqual(shapeReader.slotOf(other, 0, other.length, 0), slot);
            assert.strictEqual(slot.widened, widened + 1, 'widened once');
            assert.strictEqual(slot.score, score - shapeReader.MISS_COST, 'one miss');
        }
    });

    it('a large document has its reader within its first few decodes', function () {
        // in a process of its own: here other tests' readers may hold its slot
        const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
            const reader = require(${JSON.stringify(path.join(__dirname, 'support', 'shape-readers'))});
            const bytes = qbson.encode({ largeDocumentKey: 1, rows: Array.from({ length: 2000 }, (_, i) => ({ i, s: 'row ' + i })) });
            const readers = [];
            for (let round = 0; round < 5; round++) {
                qbson.decode(bytes);
                readers.push(reader.readersInUse());
            }
            console.log(JSON.stringify({ size: bytes.length, readers }));`;
        const res = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
        assert.strictEqual(res.status, 0, res.stderr);
        const out = JSON.parse(res.stdout);
        assert.ok(out.size > 32 * 1024, String(out.size));
        // the rows (under 32 bytes) never look at the table; the document, counted once more per
        // 4 kB, is learnt from its first decode and compiled once 4 in a row had its shape
        assert.deepStrictEqual(out.readers, [0, 0, 0, 0, 1]);
    });

    it('keys made to break out of a string literal stay data, in the documents and in the generated source', function () {
        const HOSTILE = ['"', "'", '\\', '`', '${globalThis.qbsonShapeHit = 1}', '"]; globalThis.qbsonShapeHit = 1; //', "'); globalThis.qbsonShapeHit = 1; ('",
            '\n', '\r\n', '\u2028', '\u2029', '*/', '/*', '</script>', ' ', '0', '1', '-1', '4294967295', 'constructor', 'toString', 'hasOwnProperty',
            'valueOf', 'prototype', 'this', 'MISS', 'buf', 'p', 'dec', 'ключ', '鍵', '😀', '__proto__'];
        for (let i = 0; i < HOSTILE.length; i += 3) {
            const keys = HOSTILE.slice(i, i + 3);
            const doc = Object.fromEntries(keys.map((k, j) => [k, j]));
            const nested = { outer: Object.fromEntries(keys.map((k) => [k, 'v'])), list: [doc, doc] };
            for (const value of [doc, nested]) {
                const bytes = Buffer.from(bson.serialize(value));
                sameEveryRound(bytes);
                const source = shapeReader.sourceFor(bytes, 0, bytes.length);
                // '$' keys (a DBRef's) and '__proto__' are left to the decoder
                if (source === null) {
                    assert.ok(keys.some((k) => k[0] === '$' || k === '__proto__'), keys.join());
                    continue;
                }
                assert.ok(!source.includes('__proto__'), keys.join());
                // what is left once the literals and the one fixed string are out: none
                // of the text that could end a literal or comment or start code
                let rest = source.replace("'use strict';", '');
                for (const k of [...keys, 'outer', 'list']) rest = rest.split(JSON.stringify(k)).join('');
                assert.doesNotMatch(rest, /["'\\`\u2028\u2029\r]|\$\{|\*\/|\/\*|<\//, keys.join());
                for (const k of keys.filter((k) => /["'\\`\u2028\u2029\r]|\$\{|\*\//.test(k))) assert.ok(!rest.includes(k), `${JSON.stringify(k)} outside its literal`);
            }
        }
        assert.strictEqual(globalThis.qbsonShapeHit, undefined);
        assert.strictEqual(Object.prototype.x, undefined);
    });

    it('documents read with the MongoDB driver\'s options get readers too, and the same values', function () {
        const reply = Buffer.from(bson.serialize({ cursor: { firstBatch: Array.from({ length: 40 }, ITEM), id: bson.Long.fromNumber(0), ns: 'db.c' }, ok: 1 }));
        const opts = { fieldsAsRaw: {}, promoteLongs: true, promoteValues: true, promoteBuffers: false, bsonRegExp: false, validation: { utf8: { writeErrors: false } },
            index: 0, allowObjectSmallerThanBufferSize: true };
        const before = shapeReader.readersInUse();
        const expected = normalize(bson.deserialize(reply, opts));
        for (let round = 0; round < ROUNDS; round++) assert.deepStrictEqual(normalize(qbson.decode(reply, opts)), expected);
        const decoder = new Decoder(reply, opts);
        assert.strictEqual(decoder.shapeReaders, true);
        assert.ok(shapeReader.readersInUse() >= Math.min(before + 1, SLOTS));
        // options whose results a reader does not build leave them off
        for (const off of [{ promoteValues: false }, { raw: true }, { reviver: (k, v) => v }, { values: { objectId: 'hex' } }, { fieldsAsRaw: { tags: true } }]) {
            assert.strictEqual(new Decoder(reply, off).shapeReaders, false, Object.keys(off)[0]);
            const o = { ...opts, ...off };
            if (!o.raw) assert.deepStrictEqual(normalize(qbson.decode(reply, o)), normalize(bson.deserialize(reply, o)), Object.keys(off)[0]);
        }
    });

    describe('without code generation', function () {
        const expected = { cursor: { firstBatch: [{ id: 1, name: 'a', tags: ['x'] }, { id: 2, name: 'b', tags: [] }] }, ok: 1 };
        // a process of its own: compiling stays off in it once refused
        function decodeInChild(flags, refuse) {
            const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
                const reader = require(${JSON.stringify(path.join(__dirname, 'support', 'shape-readers'))});
                if (${refuse}) globalThis.Function = function Function() { throw new EvalError('Code generation from strings disallowed for this context'); };
                let refused = false;
                try { new Function('return 1'); } catch (err) { refused = err instanceof EvalError; }
                const bytes = qbson.encode(${JSON.stringify(expected)});
                const docs = [];
                for (let i = 0; i < ${ROUNDS}; i++) docs.push(qbson.decode(bytes));
                console.log(JSON.stringify({ refused, docs, readers: reader.readersInUse() }));`;
            const res = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
            assert.strictEqual(res.status, 0, res.stderr);
            const out = JSON.parse(res.stdout);
            assert.ok(out.refused, 'the premise: this process refuses to compile code from strings');
            assert.strictEqual(out.readers, 0);
            for (const doc of out.docs) assert.deepStrictEqual(doc, expected);
        }
        it('a host that throws EvalError from Function gets the same documents from the decoder itself', () => decodeInChild([], true));
        // nyc's coverage hooks, which every child of the test run gets, compile code from strings themselves
        const name = 'node --disallow-code-generation-from-strings gets the same documents from the decoder itself';
        if (process.env.NYC_PROCESS_ID !== undefined) it.skip(`${name} (skipped: under nyc, whose hooks cannot load in such a process)`);
        else it(name, () => decodeInChild(['--disallow-code-generation-from-strings'], false));
    });
});
