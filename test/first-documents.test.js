'use strict';

// A process's first documents: decoded without the table of readers for repeated shapes,
// which pays only once shapes repeat (lib/decoder.js documentsBeforeShapes), to the same
// values as later ones; encoded with no key entered in the key table unless it outgrows
// 64 kB (lib/encode.js FIRST_ENCODES), to the same bytes as later ones. Each case runs in a process of its own, where nothing came before it.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

// runs script (which prints one JSON line) in a fresh node, with qbson, bson and lib/ at hand
function inFreshProcess(script) {
    const prelude = `const qbson = require(${JSON.stringify(ROOT)});
        const bson = require('bson');
        const lib = (name) => require(${JSON.stringify(path.join(ROOT, 'lib'))} + '/' + name);
        const sameAsBson = (doc, bytes) => { const want = bson.deserialize(bytes);
            return require('util').isDeepStrictEqual(doc, want) && JSON.stringify(doc) === JSON.stringify(want)
                && Object.getPrototypeOf(doc) === Object.prototype; };\n`;
    const res = spawnSync(process.execPath, ['-e', prelude + script], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout);
}

describe('a process\'s first documents', function () {
    it('are decoded as bson decodes them, the shape table untouched until the 16th', function () {
        const out = inFreshProcess(`
            const wide = JSON.parse('{"__proto__": {"x": 1}}');
            for (let i = 0; i < 40; i++) wide[i % 3 === 0 ? String(40 - i) : 'field' + i] = i % 2 ? 'v' + i : { n: i, s: 'nested ' + i };
            const bytes = bson.serialize(wide);
            const slots = lib('shape-reader').slots;
            const taken = () => slots.filter((s) => s.fp !== -1).length;
            const first = qbson.decode(bytes);
            const result = { first: sameAsBson(first, bytes), takenAfterFirst: taken(), later: true };
            for (let i = 0; i < 30; i++) result.later = result.later && sameAsBson(qbson.decode(bytes), bytes);
            result.takenAfterMore = taken();
            console.log(JSON.stringify(result));`);
        assert.deepStrictEqual(out, { first: true, takenAfterFirst: 0, later: true, takenAfterMore: out.takenAfterMore });
        assert.ok(out.takenAfterMore > 0, 'the table is in use after 31 decodes of 21 documents each');
    });

    it('a document of 4 kB or more is looked up from the first', function () {
        const out = inFreshProcess(`
            const bytes = bson.serialize({ name: 'large', rows: Array.from({ length: 300 }, (_, i) => 'row ' + i) });
            qbson.decode(bytes);
            console.log(JSON.stringify({ size: bytes.length, taken: lib('shape-reader').slots.filter((s) => s.fp !== -1).length }));`);
        assert.ok(out.size >= 4096, String(out.size));
        assert.strictEqual(out.taken, 1);
    });
    it('the first encode enters no key, and writes bson\'s bytes as the later ones do', function () {
        const out = inFreshProcess(`
            const { ObjectId: BsonId, Long } = bson;
            const item = (i) => ({ itemName: 'n' + i, quantity: i, priceInCents: i * 1.5, tags: ['alpha', 'beta'] });
            const doc = { _id: new BsonId('0123456789abcdef01234567'), customerName: 'Ana', createdAt: new Date(1e12),
                total: Long.fromNumber(2 ** 40), id: new qbson.ObjectId('0123456789abcdef01234567'),
                items: [item(1), item(2), item(3)], address: { streetName: 'Main', cityName: 'Oslo' } };
            const want = bson.serialize(doc);
            const keys = lib('key-table').keyTableSize;
            const same = () => Buffer.from(qbson.encode(doc)).equals(want);
            const result = { first: same(), keysAfterFirst: keys() };
            result.second = same();
            result.keysAfterSecond = keys();
            result.later = true;
            for (let i = 0; i < 20; i++) result.later = result.later && same();
            console.log(JSON.stringify(result));`);
        assert.deepStrictEqual(out, { first: true, keysAfterFirst: 0, second: true, keysAfterSecond: out.keysAfterSecond, later: true });
        assert.ok(out.keysAfterSecond >= 8, 'the second encode enters the keys of 4 bytes or more: ' + out.keysAfterSecond);
    });

    it('a first encode that outgrows 64 kB enters keys as it goes', function () {
        const out = inFreshProcess(`
            // 50 shapes in turn: too rare for the shape writers, so every key goes through the table
            const items = Array.from({ length: 2000 }, (_, i) => ({ ['field' + (i % 50)]: i, itemName: 'item ' + i }));
            const doc = { cursor: { firstBatch: items, namespace: 'shop.items' } };
            const want = bson.serialize(doc);
            const first = Buffer.from(qbson.encode(doc)).equals(want);
            console.log(JSON.stringify({ size: want.length, first, keys: lib('key-table').keyTableSize() }));`);
        assert.ok(out.size > 64 * 1024, String(out.size));
        assert.strictEqual(out.first, true);
        assert.ok(out.keys >= 40, 'keys entered: ' + out.keys);
    });
});
