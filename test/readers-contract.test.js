'use strict';

// The in-place readers (get, has, fields, lazy) keep decode's contract under
// every option: a view whose buffer changes between two steps stops with a
// BSONError; maxDepth counts an array the same whatever it holds; under raw and
// fieldsAsRaw a reader gives what walking decode's value gives, going on into
// the bytes decode keeps as decode reads them (raw, every document below bytes).

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');

const hex = (s) => Buffer.from(s, 'hex');
const isBSONError = (pattern) => (err) => err instanceof qbson.BSONError && (pattern === undefined || pattern.test(err.message));

describe('a lazy view whose buffer changes between two steps', function () {
    // {a: 1, b: 2}
    const AB = '13000000106100010000001062000200000000';

    for (const iterate of ['keys', 'entries']) {
        it(`${iterate}(): the next step after the document lost its NUL is a BSONError, not an endless scan`, function () {
            const buf = hex(AB);
            const it = qbson.lazy(buf)[iterate]();
            it.next();
            buf.fill(1, 5);
            assert.throws(() => it.next(), isBSONError(/changed/));
        });

        it(`${iterate}(): a step whose element now runs past the document is a BSONError`, function () {
            const buf = hex(AB);
            const it = qbson.lazy(buf)[iterate]();
            it.next();
            // b's type byte made a string whose length runs past the document
            buf[11] = 0x02;
            assert.throws(() => it.next(), isBSONError(/offset 14/));
        });
    }

    it('get() of a nested view after its parent\'s bytes changed is a BSONError', function () {
        const buf = qbson.encode({ a: { b: 1, c: 2 } });
        const a = qbson.lazy(buf).get('a');
        buf.fill(0xff);
        assert.throws(() => a.get('c'), isBSONError(/changed/));
        assert.throws(() => [...a.entries()], isBSONError(/changed/));
        assert.throws(() => a.toObject(), isBSONError(/changed/));
    });

    it('keeps the values it read before the change', function () {
        const buf = qbson.encode({ a: 1, b: 'text' });
        const view = qbson.lazy(buf);
        assert.strictEqual(view.get('b'), 'text');
        buf.fill(0);
        assert.strictEqual(view.get('b'), 'text');
        assert.throws(() => view.get('a'), qbson.BSONError);
    });
});

describe('maxDepth counts an array of numbers as any other array', function () {
    // {a: {b: {c: {d: [1, 2]}}}}: d's array is at depth 4
    const NUMBERS = hex('330000000361002b000000036200230000000363001b0000000464001300000010300001000000103100020000000000000000');
    const others = { empty: { a: { b: { c: { d: [] } } } }, strings: { a: { b: { c: { d: ['x'] } } } }, doubles: { a: { b: { c: { d: [1.5, 2.5] } } } } };

    it('decode refuses it past maxDepth, at the array, as it refuses an empty or a string array', function () {
        assert.throws(() => qbson.decode(NUMBERS, { maxDepth: 3 }), (err) => err.code === 'ERR_BSON_TOO_DEEP' && err.offset === 28);
        for (const [name, doc] of Object.entries(others)) {
            assert.throws(() => qbson.decode(qbson.encode(doc), { maxDepth: 3 }), (err) => err.code === 'ERR_BSON_TOO_DEEP', name);
            assert.deepStrictEqual(qbson.decode(qbson.encode(doc), { maxDepth: 4 }), doc, name);
        }
        assert.deepStrictEqual(qbson.decode(NUMBERS, { maxDepth: 4 }), { a: { b: { c: { d: [1, 2] } } } });
    });

    it('decode, the readers and encode agree on the same documents', function () {
        const doc = qbson.decode(NUMBERS);
        for (const maxDepth of [3, 4]) {
            const fails = maxDepth === 3;
            const outcomes = {
                decode: () => qbson.decode(NUMBERS, { maxDepth }),
                'decode raw': () => qbson.decode(NUMBERS, { maxDepth, raw: true }),
                get: () => qbson.get(NUMBERS, 'a.b.c.d.0', { maxDepth }),
                has: () => qbson.has(NUMBERS, 'a.b.c.d.0', { maxDepth }),
                fields: () => qbson.decode(NUMBERS, { maxDepth, fields: ['a.b.c.d.x'] }),
                lazy: () => qbson.lazy(NUMBERS, { maxDepth }).get('a').get('b').get('c').get('d'),
                encode: () => qbson.encode(doc, { maxDepth }),
            };
            for (const [name, run] of Object.entries(outcomes)) {
                if (fails) assert.throws(run, qbson.BSONError, `${name} with maxDepth ${maxDepth}`);
                else assert.doesNotThrow(run, `${name} with maxDepth ${maxDepth}`);
            }
        }
    });
});

describe('readers under raw and fieldsAsRaw go on into the bytes decode keeps', function () {
    // {a: {c: {d: 2}}}
    const ACD = hex('1c000000036100140000000363000c00000010640002000000000000');
    const bytesOf = (buf, path) => {
        // the bytes of the document at path, found by bson's element list
        let start = 0;
        for (const key of path.split('.')) {
            const el = bson.onDemand.parseToElements(buf, start).find(([, at, len]) => buf.toString('utf8', at, at + len) === key);
            start = el[3];
        }
        return buf.subarray(start, start + buf.readInt32LE(start));
    };

    it('get gives the bytes of a document inside a raw one, and a value below it', function () {
        const c = qbson.get(ACD, 'a.c', { raw: true });
        assert.ok(Buffer.isBuffer(c));
        assert.deepStrictEqual(c, bytesOf(ACD, 'a.c'));
        assert.strictEqual(qbson.get(ACD, 'a.c.d', { raw: true }), 2);
        assert.deepStrictEqual(qbson.get(ACD, 'a', { raw: true }), qbson.decode(ACD, { raw: true }).a);
        assert.strictEqual(qbson.has(ACD, 'a.c.d', { raw: true }), true);
    });

    it('a projection through a raw document keeps the documents below it as bytes', function () {
        assert.deepStrictEqual(qbson.decode(ACD, { raw: true, fields: ['a.c'] }), { a: { c: bytesOf(ACD, 'a.c') } });
        assert.deepStrictEqual(qbson.decode(ACD, { raw: true, fields: ['a.c.d'] }), { a: { c: { d: 2 } } });
    });

    it('a lazy view of a raw document reads as decode reads those bytes under raw', function () {
        const a = qbson.lazy(ACD, { raw: true }).get('a');
        assert.deepStrictEqual(a.toObject(), { c: bytesOf(ACD, 'a.c') });
        assert.deepStrictEqual(qbson.lazy(ACD, { raw: true }).toObject(), qbson.decode(ACD, { raw: true }));
        assert.deepStrictEqual([...a.get('c').entries()], [['d', 2]]);
    });

    it('a string in a document below a raw one is read with the UTF-8 check decoding those bytes would make', function () {
        // {a: {s: '\xff'}}: decode keeps a as bytes and never reads s
        const input = hex('160000000361000e00000002730002000000ff000000');
        assert.ok(Buffer.isBuffer(qbson.decode(input, { raw: true }).a));
        assert.ok(Buffer.isBuffer(qbson.get(input, 'a', { raw: true })));
        assert.throws(() => qbson.get(input, 'a.s', { raw: true }), isBSONError(/UTF-8/));
        assert.strictEqual(qbson.get(input, 'a.s', { raw: true, validation: { utf8: false } }), '\ufffd');
    });

    it('fieldsAsRaw: a path below a document of a named array stays in bytes all the way', function () {
        // {a: [{a: {a: {b: {'\xe2': {v: 1}}}}}]}: the key \xe2 is not UTF-8
        const input = hex('3c000000046100340000000330002c000000036100240000000361001c0000000362001400000003e2000c0000001076000100000000000000000000');
        const opts = { fieldsAsRaw: { a: true } };
        assert.ok(Buffer.isBuffer(qbson.decode(input, opts).a[0]));
        const b = qbson.get(input, 'a.0.a.a.b', opts);
        assert.ok(Buffer.isBuffer(b));
        assert.deepStrictEqual(b, bytesOf(input, 'a.0.a.a.b'));
        assert.ok(Buffer.isBuffer(qbson.lazy(input, opts).get('a').get(0).get('a').toObject().a));
    });

    it('fieldsAsRaw names an array element by its position, as bson does, not by its stored key', function () {
        // {arr: [[{x: 1}]]} with the inner array stored under key "7"
        const input = hex('2600000004617272001c000000043700140000000330000c0000001078000100000000000000');
        const opts = { fieldsAsRaw: { 0: true } };
        const ours = qbson.decode(input, opts);
        assert.ok(Buffer.isBuffer(ours.arr[0][0]));
        assert.deepStrictEqual(ours, bson.deserialize(input, opts));
        assert.ok(Buffer.isBuffer(qbson.get(input, 'arr.0.0', opts)));
        assert.ok(Buffer.isBuffer(qbson.lazy(input, opts).get('arr').get(0).toObject()[0]));
    });

    it('damage inside a raw document is reported by a reader as decode reports it', function () {
        const good = qbson.encode({ a: { b: { s: 'text' } }, z: 1 });
        const bad = Buffer.from(good);
        const at = good.indexOf(Buffer.from('text')) - 4;
        bad.writeInt32LE(99, at);
        let decodeError;
        assert.throws(() => qbson.decode(bad, { raw: true }), (err) => (decodeError = err) instanceof qbson.BSONError);
        assert.match(decodeError.message, new RegExp(`at offset ${at}$`));
        assert.throws(() => qbson.get(bad, 'a.b.s', { raw: true }), (err) => err.message === decodeError.message && err.offset === at);
        assert.throws(() => [...qbson.lazy(bad, { raw: true }).get('a').get('b').entries()], (err) => err.message === decodeError.message);
    });
});
