'use strict';

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const path = require('path');
const { spawnSync } = require('child_process');
const { normalize } = require('./support/normalize');

function assertDecodeError(bytes, pattern, opts) {
    assert.throws(
        () => qbson.decode(bytes, opts),
        (err) => err instanceof qbson.BSONError && /offset \d+/.test(err.message) && pattern.test(err.message)
    );
}

function sameAsBson(doc, opts) {
    const bytes = Buffer.from(bson.serialize(doc));
    assert.deepStrictEqual(normalize(qbson.decode(bytes, opts)), normalize(bson.deserialize(bytes, opts)));
}

describe('decode', function () {
    describe('values as bson@7 returns them', function () {
        it('int64: a number when within 2^53, else a Long; bigint with useBigInt64', function () {
            const doc = { a: 5n, b: 2n ** 53n, c: 2n ** 53n + 1n, d: -(2n ** 53n), e: -(2n ** 53n) - 1n, f: -(2n ** 63n) };
            sameAsBson(doc);
            sameAsBson(doc, { promoteLongs: false });
            sameAsBson(doc, { useBigInt64: true });
        });
        it('promoteValues false keeps Int32, Double, Long and BSONSymbol', function () {
            sameAsBson({ a: 1, b: 1.5, c: 3n, s: new bson.BSONSymbol('x') }, { promoteValues: false });
            const doc = qbson.decode(qbson.encode({ a: 1, b: 1.5 }), { promoteValues: false });
            assert.ok(doc.a instanceof qbson.Int32);
            assert.ok(doc.b instanceof qbson.Double);
        });
        it('binary: Binary, UUID for subtype 4, Buffer with promoteBuffers', function () {
            const doc = { a: Buffer.from('xyz'), u: new bson.UUID(), o: new bson.Binary(Buffer.from('ab'), 2) };
            sameAsBson(doc);
            sameAsBson(doc, { promoteBuffers: true });
            const ours = qbson.decode(qbson.encode(doc));
            assert.ok(ours.u instanceof qbson.UUID);
            assert.ok(ours.a instanceof qbson.Binary);
        });
        it('regular expressions: RegExp with mapped flags, BSONRegExp with bsonRegExp', function () {
            const doc = { a: new bson.BSONRegExp('a+', 'imsx') };
            sameAsBson(doc);
            sameAsBson(doc, { bsonRegExp: true });
        });
        it('DBRef-shaped documents become DBRef (but not inside a code scope)', function () {
            sameAsBson({ r: { $ref: 'c', $id: 1, $db: 'd', extra: 2 }, n: { $ref: 'c', $id: 1, $other: 1 } });
            sameAsBson({ c: new bson.Code('f', { $ref: 'c', $id: 1 }) });
        });
        it('deprecated types: bson\'s mapping by default, the originals with preserveDeprecated', function () {
            const bytes = Buffer.from('1a0000000c610002000000620056e1fc72e0c917e9c471416100', 'hex');
            assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)));
            const kept = qbson.decode(bytes, { preserveDeprecated: true });
            assert.ok(kept.a instanceof qbson.DBPointer);
            assert.strictEqual(qbson.encode(kept).toString('hex'), bytes.toString('hex'));
            const undef = Buffer.from('0800000006610000', 'hex');
            assert.ok('a' in qbson.decode(undef) && qbson.decode(undef).a === undefined);
            assert.strictEqual(qbson.encode(qbson.decode(undef, { preserveDeprecated: true })).toString('hex'), '0800000006610000');
        });
        it('keys named __proto__ become own properties; Object.prototype is untouched', function () {
            const bytes = qbson.encode(JSON.parse('{"__proto__": {"x": 1}}'));
            const doc = qbson.decode(bytes);
            assert.ok(Object.prototype.hasOwnProperty.call(doc, '__proto__'));
            assert.strictEqual(Object.getPrototypeOf(doc), Object.prototype);
            assert.strictEqual(doc.__proto__.x, 1);
            assert.strictEqual({}.x, undefined);
        });
        it('documents of more than 16 fields: same keys in the same order as bson, __proto__ own, plain prototype', function () {
            // past 16 fields the decoder moves to a WideObject (lib/wide-object.js)
            for (const count of [16, 17, 40, 300]) {
                const pairs = Array.from({ length: count }, (_, i) => `"k${i}": ${i % 3 ? i : `"s${i}"`}`);
                pairs[count > 20 ? 20 : 2] = '"__proto__": {"x": 1}';
                pairs.push('"7": "an index-like key"');
                const bytes = Buffer.from(bson.serialize(JSON.parse(`{${pairs.join(',')}}`)));
                const ours = qbson.decode(bytes);
                const theirs = bson.deserialize(bytes);
                assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
                assert.deepStrictEqual(normalize(ours), normalize(theirs));
                assert.strictEqual(Object.getPrototypeOf(ours), Object.prototype);
                assert.strictEqual(ours.constructor, Object);
                assert.ok(Object.prototype.hasOwnProperty.call(ours, '__proto__'));
                assert.strictEqual({}.x, undefined);
            }
        });
        it('a repeated key keeps its first place and its last value, before and after 16 fields', function () {
            const elements = [];
            const int32 = (n) => {
                const b = Buffer.alloc(4);
                b.writeInt32LE(n);
                return b;
            };
            for (let i = 0; i < 30; i++) elements.push(Buffer.concat([Buffer.from([0x10]), Buffer.from(i === 25 ? 'k3' : `k${i}`), Buffer.from([0]), int32(i)]));
            const body = Buffer.concat(elements);
            const bytes = Buffer.concat([int32(body.length + 5), body, Buffer.from([0])]);
            const ours = qbson.decode(bytes);
            assert.deepStrictEqual(Object.keys(ours), Object.keys(bson.deserialize(bytes)));
            assert.strictEqual(Object.keys(ours)[3], 'k3');
            assert.strictEqual(ours.k3, 25);
        });
        it('enumerable properties added to Object.prototype do not become fields', function () {
            const doc = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
            const bytes = qbson.encode(doc);
            Object.prototype.inherited = 'from the prototype'; // eslint-disable-line no-extend-native
            try {
                const decoded = qbson.decode(bytes);
                assert.strictEqual(Object.prototype.hasOwnProperty.call(decoded, 'inherited'), false);
                assert.deepStrictEqual(Object.keys(decoded), Object.keys(doc));
            } finally {
                delete Object.prototype.inherited;
            }
        });
        it('accepts a Uint8Array and an index with allowObjectSmallerThanBufferSize', function () {
            const bytes = Buffer.concat([Buffer.from([9, 9]), qbson.encode({ a: 1 }), Buffer.from([7])]);
            assert.deepStrictEqual(qbson.decode(bytes, { index: 2, allowObjectSmallerThanBufferSize: true }), { a: 1 });
            assert.deepStrictEqual(qbson.decode(new Uint8Array(qbson.encode({ b: 'c' }))), { b: 'c' });
        });
        it('decodeAll and deserializeStream read documents back to back', function () {
            const bytes = Buffer.concat([qbson.encode({ a: 1 }), qbson.encode({ b: 2 }), qbson.encode({})]);
            assert.deepStrictEqual(qbson.decodeAll(bytes), [{ a: 1 }, { b: 2 }, {}]);
            const ours = [];
            const theirs = [];
            assert.strictEqual(qbson.deserializeStream(bytes, 0, 3, ours, 0), bson.deserializeStream(bytes, 0, 3, theirs, 0));
            assert.deepStrictEqual(normalize(ours), normalize(theirs));
        });
        it('keys that share a key-cache slot still decode to themselves', function () {
            // same length, first, middle and last byte: a hit must be checked byte for byte
            const keys = ['aXcYe', 'aYcXe', 'aZcZe', 'a0c1e'];
            for (let round = 0; round < 3; round++) {
                for (const k of keys) assert.deepStrictEqual(Object.keys(qbson.decode(qbson.encode({ [k]: 1 }))), [k]);
            }
            const doc = qbson.decode(qbson.encode({ aXcYe: 1, aYcXe: 2, aZcZe: 3 }));
            assert.deepStrictEqual(doc, { aXcYe: 1, aYcXe: 2, aZcZe: 3 });
        });
        it('documents of 40,000 keys, which outgrow the key cache and share its slots, decode as bson does', function () {
            const wide = {};
            for (let i = 0; i < 40000; i++) wide['k' + ((i * 7919) % 100003).toString(36).padStart(5, '0')] = i;
            const narrow = { aXcYe: 1, k00001: 2 };
            for (let round = 0; round < 3; round++) {
                sameAsBson(wide);
                sameAsBson(narrow);
            }
        });
        it('decode called from inside decode (by a setter on Object.prototype) decodes both', function () {
            const inner = qbson.encode({ x: 1 });
            const seen = [];
            Object.defineProperty(Object.prototype, 'hook', { set() { seen.push(qbson.decode(inner)); }, configurable: true });
            try {
                const doc = qbson.decode(qbson.encode({ a: 'before', hook: 1, b: 'after' }));
                assert.deepStrictEqual(seen, [{ x: 1 }]);
                assert.deepStrictEqual({ a: doc.a, b: doc.b }, { a: 'before', b: 'after' });
            } finally {
                delete Object.prototype.hook;
            }
            assert.deepStrictEqual(qbson.decode(inner), { x: 1 });
        });
        it('a document of 3,000 keys long and short, ASCII or not, decodes as bson does', function () {
            const wide = {};
            for (let i = 0; i < 3000; i++) {
                const kind = i % 5;
                const key = kind === 0 ? 'k' + i : kind === 1 ? 'ключ_' + i : kind === 2 ? 'a_very_long_key_name_over_24_bytes_' + i : kind === 3 ? String.fromCharCode(0x41 + (i % 26)) : '鍵' + i;
                wide[key] = i % 2 ? 'v' + i : i;
            }
            for (let round = 0; round < 3; round++) sameAsBson(wide);
        });
        it('a decoded Binary does not share memory with the input', function () {
            const bytes = qbson.encode({ b: Buffer.from('abc') });
            const doc = qbson.decode(bytes);
            bytes.fill(0);
            assert.strictEqual(Buffer.from(doc.b.buffer).toString(), 'abc');
        });
        it('binary values under 4 KiB are copies, from 4 KiB on views of the input as bson gives them, in every form', function () {
            const shares = (out, input) => out.buffer === input.buffer;
            for (const size of [4095, 4096, 70000]) {
                const payload = Buffer.alloc(size, 7);
                // at an odd offset inside a larger buffer, as the driver's replies are
                const framed = Buffer.concat([Buffer.alloc(3), qbson.encode({ b: payload, old: new bson.Binary(payload, 2) }), Buffer.alloc(5)]);
                const input = framed.subarray(3, framed.length - 5);
                const view = size >= 4096;
                const doc = qbson.decode(input);
                assert.deepStrictEqual(normalize(doc), normalize(bson.deserialize(input)));
                assert.strictEqual(shares(doc.b.buffer, input), view, `Binary of ${size} bytes`);
                assert.strictEqual(shares(doc.old.buffer, input), view, `subtype 2 Binary of ${size} bytes`);
                assert.ok(Buffer.isBuffer(doc.b.buffer));
                assert.ok(qbson.encode(doc).equals(input), 'encodes back to the same bytes');
                const promoted = qbson.decode(input, { promoteBuffers: true });
                assert.ok(Buffer.isBuffer(promoted.b) && promoted.b.equals(payload));
                assert.strictEqual(shares(promoted.b, input), view, `promoteBuffers, ${size} bytes`);
                for (const as of ['buffer', 'uint8array']) {
                    const mapped = qbson.decode(input, { values: { binary: as } });
                    assert.ok(Buffer.from(mapped.b).equals(payload));
                    assert.strictEqual(shares(mapped.b, input), view, `binary: '${as}', ${size} bytes`);
                    if (as === 'uint8array') assert.strictEqual(Object.getPrototypeOf(mapped.b), Uint8Array.prototype);
                }
                // a change to the input shows in a view and not in a copy
                input[input.indexOf(payload) + 1] = 9;
                assert.strictEqual(doc.b.buffer[1], view ? 9 : 7);
            }
        });
    });

    describe('arrays of numbers', function () {
        it('doubles, int32s and both, at every depth, as bson gives them', function () {
            sameAsBson({ d: [1.5, -0, NaN, Infinity, 2 ** 60], i: [1, -1, 2 ** 31 - 1, -(2 ** 31)], both: [1, 2.5, 3], pairs: [[1.5, 2.5], [3, 4.25]] });
            sameAsBson({ empty: [], one: [7], long: Array.from({ length: 1500 }, (_, i) => (i % 3 ? i : i + 0.5)) });
        });
        it('an array that starts with numbers and goes on otherwise', function () {
            sameAsBson({ a: [1, 2.5, 'x', null, [3]], b: [1, [2, [3, [4, [5]]]]], c: [1.5, 3n, new bson.Int32(2)] });
        });
        it('arrays around the 4,096 numbers gathered before the copy, and one going on otherwise past them', function () {
            for (const length of [4095, 4096, 4097, 9000]) sameAsBson({ a: Array.from({ length }, (_, i) => (i % 2 ? i : i + 0.25)) });
            const past = Array.from({ length: 5000 }, (_, i) => i + 0.5);
            past.push('x', [1, 2]);
            sameAsBson({ past });
        });
        it('each array its own: nothing left over from a longer one, and changing one changes no other', function () {
            const long = qbson.decode(qbson.encode({ a: Array.from({ length: 3000 }, (_, i) => i + 0.5) }));
            const first = qbson.decode(qbson.encode({ a: [1.5, 2.5], b: [3, 4] }));
            const second = qbson.decode(qbson.encode({ a: [1.5, 2.5] }));
            assert.strictEqual(long.a.length, 3000);
            assert.deepStrictEqual(first, { a: [1.5, 2.5], b: [3, 4] });
            first.a[0] = 99;
            first.a.push(100);
            assert.deepStrictEqual(second.a, [1.5, 2.5]);
            assert.deepStrictEqual(first.b, [3, 4]);
            assert.strictEqual(long.a[0], 0.5);
        });
        it('doubles and int32s read exactly in documents around the 2,048 bytes where a DataView is used, at any byte offset', function () {
            const values = [1.5, -0, NaN, Infinity, -Infinity, 5e-324, -Number.MAX_VALUE, 2 ** 53 + 2, 0.1];
            const ints = [0, -1, 2 ** 31 - 1, -(2 ** 31), 12345];
            for (const size of [2000, 2047, 2048, 2049, 9000]) {
                const doc = { d: 0.25, pad: '', nested: { arr: values, ints, pairs: [[1.25, -2.5], [3, 4.5]], x: -7.75 }, last: values };
                const base = bson.serialize(doc).length;
                doc.pad = 'p'.repeat(size - base);
                const bytes = bson.serialize(doc);
                assert.strictEqual(bytes.length, size);
                for (const offset of [0, 1, 3, 7]) {
                    const memory = new ArrayBuffer(size + 16);
                    const view = new Uint8Array(memory, offset, size);
                    view.set(bytes);
                    const expected = normalize(bson.deserialize(bytes));
                    assert.deepStrictEqual(normalize(qbson.decode(view)), expected, `size ${size} offset ${offset}`);
                    assert.deepStrictEqual(normalize(qbson.decode(Buffer.from(memory, offset, size))), expected);
                    assert.deepStrictEqual(normalize(qbson.decodeAll(Buffer.from(memory, offset, size))), [expected]);
                    assert.ok(Object.is(qbson.decode(view).nested.arr[1], -0));
                }
            }
        });
        it('with promoteValues false the numbers stay Double and Int32', function () {
            const doc = qbson.decode(qbson.encode({ a: [1, 2.5] }), { promoteValues: false });
            assert.ok(doc.a[0] instanceof qbson.Int32 && doc.a[1] instanceof qbson.Double);
        });
        it('a number array cut short or overlong is refused with the offset', function () {
            const bytes = qbson.encode({ a: [1.5, 2] });
            // the array's length one byte short: its int32 runs into the terminator
            const short = Buffer.from(bytes);
            short.writeInt32LE(short.readInt32LE(7) - 1, 7);
            assertDecodeError(short, /int32 needs 4 bytes but only 3 remain/);
            // a double's type byte made an int32's: the bytes after it do not end the array
            const retyped = Buffer.from(bytes);
            retyped[11] = 0x10;
            assertDecodeError(retyped, /unknown BSON type 0x00/);
            assert.throws(() => bson.deserialize(retyped));
        });
    });

    describe('bad input, each a BSONError with the byte offset', function () {
        it('too short for a length', function () {
            assertDecodeError(Buffer.from([1, 0]), /length/);
        });
        it('declared length larger than the buffer', function () {
            assertDecodeError(Buffer.from('0a00000000', 'hex'), /runs past/);
        });
        it('declared length smaller than the buffer', function () {
            assertDecodeError(Buffer.from('050000000000', 'hex'), /does not match/);
        });
        it('missing terminator', function () {
            assertDecodeError(Buffer.from('0500000001', 'hex'), /not terminated/);
        });
        it('unknown type byte', function () {
            assertDecodeError(Buffer.from('080000002061000000', 'hex').subarray(0, 8), /unknown BSON type 0x20/);
        });
        it('string length past its document', function () {
            const bytes = qbson.encode({ a: 'ab' });
            bytes.writeInt32LE(9, 7);
            assertDecodeError(bytes, /string length 9 runs past/);
        });
        it('invalid UTF-8, unless validation is off', function () {
            const bytes = Buffer.from('0f0000000261000300000061ff0000', 'hex');
            bytes.writeInt32LE(bytes.length, 0);
            assertDecodeError(bytes, /invalid UTF-8/);
            assert.strictEqual(qbson.decode(bytes, { validation: { utf8: false } }).a, bson.deserialize(bytes, { validation: { utf8: false } }).a);
        });
        it('a stored regex that JavaScript cannot compile points at bsonRegExp', function () {
            const bytes = qbson.encode({ r: new qbson.BSONRegExp('(', '') });
            assertDecodeError(bytes, /bsonRegExp: true/);
            assert.strictEqual(qbson.decode(bytes, { bsonRegExp: true }).r.pattern, '(');
        });
        it('an int64 cut off at the end of the buffer with useBigInt64', function () {
            const bytes = Buffer.from('0f00000012610001000000000000', 'hex');
            assertDecodeError(bytes, /int64|runs past/, { useBigInt64: true });
        });
        it('nesting deeper than maxDepth', function () {
            let doc = {};
            for (let i = 0; i < 50; i++) doc = { d: doc };
            const bytes = qbson.encode(doc);
            assertDecodeError(bytes, /maxDepth 10/, { maxDepth: 10 });
            assert.ok(qbson.decode(bytes));
        });
        it('truncations of a valid document all fail cleanly', function () {
            const bytes = qbson.encode({ a: 1, b: 'two', c: [3, { d: 4.5 }], e: new qbson.ObjectId() });
            for (let n = 0; n < bytes.length; n++) {
                assert.throws(() => qbson.decode(bytes.subarray(0, n)), qbson.BSONError, `prefix of ${n} bytes`);
            }
        });
        it('conflicting options are refused as bson refuses them', function () {
            assert.throws(() => qbson.decode(qbson.encode({}), { useBigInt64: true, promoteLongs: false }), qbson.BSONError);
        });
    });

    describe('documents of many fields stay fast objects', function () {
        // why: lib/wide-object.js. %HasFastProperties needs --allow-natives-syntax, hence a child process
        const name = 'decoded documents of 16 to 250 fields are not dictionaries, from decode or a schema codec';
        const script = path.join(__dirname, 'fixtures', 'fast-properties.js');
        // --gc-global: every collection is a full one, which once made the room of lib/wide-object.js shrink
        const res = spawnSync(process.execPath, ['--allow-natives-syntax', '--gc-global', script], { encoding: 'utf8' });
        // the premise: this V8 turns an object grown by keyed stores into a dictionary
        if (res.status === 0 && !/^premise false$/m.test(res.stdout)) {
            it.skip(`${name} (skipped: this V8 keeps 91 keyed stores on {} fast, so there is nothing to check)`);
        } else {
            it(name, function () {
                assert.strictEqual(res.status, 0, res.stderr);
                const lines = res.stdout.trim().split('\n').slice(1);
                assert.deepStrictEqual(lines, ['16 16 true', '17 17 true', '91 91 true', '145 145 true', '250 250 true',
                    'codec 16 16 true', 'codec 59 59 true', 'codec 249 249 true']);
            });
        }
    });

    describe('speed does not depend on what was decoded before', function () {
        // why a long array could slow later decodes down: ELEMENTS_PER_RUN in lib/decoder.js
        const name = 'after a long array, documents of up to 16 fields never enter OSR code';
        const script = path.join(__dirname, 'fixtures', 'osr-history.js');
        const res = spawnSync(process.execPath, ['--trace-osr', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
        const [before, after] = res.stdout.split('--- small documents ---\n');
        // the premise: the long array got decodeDocument compiled on the stack
        if (res.status === 0 && !/OSR - .*function: decodeDocument\b/.test(before)) {
            it.skip(`${name} (skipped: this V8 did not compile decodeDocument on the stack, or traces OSR differently)`);
        } else {
            it(name, function () {
                assert.strictEqual(res.status, 0, res.stderr);
                assert.ok(/decoded \d+ fields/.test(after), res.stdout.slice(-500));
                const entries = after.split('\n').filter((line) => /OSR - entry.*function: decodeDocument\b/.test(line));
                assert.strictEqual(entries.length, 0, `${entries.length} entries, the first: ${entries[0]}`);
            });
        }
    });

    describe('arrays do not go through Array[Symbol.species]', function () {
        it('a program that redefines it is not called for arrays of anything but numbers', function () {
            // counted in a process of its own: redefining it slows every slice() in the process down
            const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
                const bytes = qbson.encode({ a: ['x', [true, null], [{ b: [1, 'y'] }]], n: [1.5, 2] });
                let calls = 0;
                const species = Object.getOwnPropertyDescriptor(Array, Symbol.species);
                Object.defineProperty(Array, Symbol.species, { configurable: true, get() { calls++; return species.get.call(this); } });
                const doc = qbson.decode(bytes);
                const generic = calls;
                qbson.decode(qbson.encode({ n: [1.5, 2] }));
                console.log(JSON.stringify({ generic, numbers: calls - generic, doc, proto: Object.getPrototypeOf(doc.a[1]) === Array.prototype }));`;
            const res = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
            assert.strictEqual(res.status, 0, res.stderr);
            const out = JSON.parse(res.stdout);
            assert.strictEqual(out.generic, 1, 'only the number array [1.5, 2] may consult it');
            assert.strictEqual(out.numbers, 1);
            assert.deepStrictEqual(out.doc, { a: ['x', [true, null], [{ b: [1, 'y'] }]], n: [1.5, 2] });
            assert.ok(out.proto);
        });
    });

    describe('decoded arrays are never pretenured', function () {
        // why: objectKeys in lib/decoder.js. V8 prints its decisions with --trace-pretenuring-statistics
        const name = 'decoding 50,000 pairs 100 times makes V8 pretenure no allocation site, pairs of numbers or not';
        const script = path.join(__dirname, 'fixtures', 'pretenure.js');
        const decisions = (mode) => {
            const res = spawnSync(process.execPath, ['--trace-pretenuring-statistics', script, mode], { encoding: 'utf8', maxBuffer: 64 << 20 });
            assert.strictEqual(res.status, 0, res.stderr);
            return res.stdout.split('\n').filter((line) => line.includes('=> tenure'));
        };
        // the premise: the same pairs from array literals are pretenured here (V8's
        // decision follows the heap's growth, and a run now and then makes none: up to 3 tries)
        let control = [];
        for (let attempt = 0; attempt < 3 && control.length === 0; attempt++) control = decisions('control');
        if (control.length === 0) {
            it.skip(`${name} (skipped: this V8 did not pretenure the literal pairs of the control, so there is nothing to tell)`);
        } else {
            it(name, function () {
                for (const mode of ['numbers', 'mixed']) {
                    const tenured = decisions(mode);
                    assert.strictEqual(tenured.length, 0, `${mode}: ${tenured.join('\n')}`);
                }
            });
        }
    });
});
