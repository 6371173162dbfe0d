'use strict';

const assert = require('assert');
const bson = require('bson');
const fc = require('fast-check');
const qbson = require('..');

// the property test's runs and seed, as the other property tests take them
const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 500;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261130;

function hex(buf) {
    return Buffer.from(buf).toString('hex');
}

function assertSameAsBson(doc, opts) {
    assert.strictEqual(hex(qbson.encode(doc, opts)), hex(bson.serialize(doc, opts)));
    assert.strictEqual(qbson.calculateObjectSize(doc, opts), qbson.encode(doc, opts).length);
}

function assertEncodeError(doc, pattern, opts) {
    assert.throws(
        () => qbson.encode(doc, opts),
        (err) => err instanceof qbson.BSONError && err.name === 'BSONError' && pattern.test(err.message)
    );
}

// a value of another major version of bson (or none) is refused as bson refuses it
function assertVersionError(doc, pattern) {
    assert.throws(
        () => qbson.encode(doc),
        (err) => err instanceof qbson.BSONVersionError && err.name === 'BSONVersionError' && /^Unsupported BSON version, bson types must be from bson 7\.x\.x: /.test(err.message) && pattern.test(err.message)
    );
}

describe('encode', function () {
    describe('values as bson@7 writes them', function () {
        it('numbers: int32 in range, double otherwise, -0 as double', function () {
            assertSameAsBson({ a: 0, b: -0, c: 2147483647, d: -2147483648, e: 2147483648, f: 1.5, g: NaN, h: -Infinity });
        });
        it('bigint as int64, wrapped to 64 bits', function () {
            assertSameAsBson({ a: 1n, b: -(2n ** 63n), c: 2n ** 63n - 1n });
        });
        it('strings with multi-byte characters, astral characters and lone surrogates', function () {
            assertSameAsBson({ a: 'héllo', b: '日本語', c: '😀', d: '\ud800', e: 'x\udc00y', f: 'é'.repeat(100), g: '\ud83d'.repeat(70) });
        });
        it('keys with multi-byte characters and long keys', function () {
            assertSameAsBson({ é: 1, ['k'.repeat(200)]: 2, ['ü'.repeat(70)]: 3 });
        });
        it('dates, including an invalid one', function () {
            assertSameAsBson({ a: new Date(0), b: new Date(-1), c: new Date(8.64e15), d: new Date(NaN) });
        });
        it('RegExp flags as bson stores them (global as s, unknown flags dropped)', function () {
            assertSameAsBson({ a: /x/gimsuy, b: /y/, c: /é/i });
        });
        it('Buffer and Uint8Array as binary subtype 0', function () {
            assertSameAsBson({ a: Buffer.from('abc'), b: new Uint8Array([1, 2, 3]), c: Buffer.alloc(0), d: Buffer.alloc(100, 7) });
        });
        it('undefined: skipped by default, null with ignoreUndefined false, always null in arrays', function () {
            assertSameAsBson({ a: undefined, b: [undefined, 1] });
            assertSameAsBson({ a: undefined, b: [undefined] }, { ignoreUndefined: false });
        });
        it('functions: skipped, or Code with serializeFunctions', function () {
            const doc = { f: function add(a, b) { return a + b; }, x: 1 };
            assertSameAsBson(doc);
            assertSameAsBson(doc, { serializeFunctions: true });
        });
        it('symbols are skipped', function () {
            assertSameAsBson({ a: Symbol('x'), b: 1 });
        });
        it('array index keys of every width, 1 to 7 digits', function () {
            for (const n of [1, 10, 11, 100, 101, 1000, 1001, 10000, 10001, 100000, 100001]) assertSameAsBson({ a: new Array(n).fill(1) });
            const big = qbson.decode(qbson.encode({ a: new Array(1000001).fill(0) }));
            assert.strictEqual(big.a.length, 1000001);
        });
        it('Map keeps its insertion order', function () {
            assertSameAsBson({ m: new Map([['z', 1], ['a', { b: 2 }]]) });
            assertSameAsBson(new Map([['z', 1], ['a', 2]]));
        });
        it('toBSON is honoured at the root and on values', function () {
            assertSameAsBson({ a: { toBSON: () => ({ x: 1 }) }, b: { toBSON: () => 5 } });
            assertSameAsBson({ toBSON: () => ({ y: 'root' }) });
        });
        it('toBSON on instances of every BSON type, of qbson and of bson', function () {
            const { assertSameOutcome } = require('./support/same-outcome');
            function instances(lib) {
                return [
                    new lib.ObjectId('0123456789abcdef01234567'), lib.Long.fromNumber(5), new lib.Timestamp({ t: 1, i: 2 }),
                    new lib.Double(1.5), new lib.Int32(7), lib.Decimal128.fromString('1.5'), new lib.Binary(Buffer.from('ab')),
                    new lib.Code('f()'), new lib.Code('g()', { s: 1 }), new lib.BSONSymbol('sym'), new lib.BSONRegExp('a+', 'i'),
                    new lib.DBRef('coll', 1), new lib.MinKey(), new lib.MaxKey(),
                ];
            }
            const results = [() => 'replaced', () => ({ plain: true }), () => null, () => new bson.Int32(3)];
            for (const lib of [qbson, bson]) {
                for (const [i, value] of instances(lib).entries()) {
                    const label = `${lib === qbson ? 'qbson' : 'bson'} ${value._bsontype}`;
                    assertSameAsBson({ plain: value });
                    for (const result of results) {
                        const doc = { a: 1, v: Object.assign(instances(lib)[i], { toBSON: result }) };
                        assertSameOutcome(() => hex(qbson.encode(doc)), () => hex(bson.serialize(doc)), label);
                    }
                }
            }
        });
        it('a toBSON on a primitive prototype is called as bson calls it: values, array elements, Map values, and by calculateObjectSize', function () {
            const prototypes = [Number.prototype, String.prototype, Boolean.prototype, BigInt.prototype];
            for (const proto of prototypes) proto.toBSON = function () { return `hello ${typeof this.valueOf()}`; };
            try {
                const docs = [{ a: 0 }, { a: NaN, b: '', c: false, d: 0n }, { a: [0, 'x', true] }, new Map([['a', 100]]), { a: { toBSON: () => 5 } }, { a: null, b: undefined }];
                for (const doc of docs) assertSameAsBson(doc);
                assert.strictEqual(qbson.calculateObjectSize({ a: [0] }), 33);
                assert.strictEqual(qbson.decode(qbson.encode(new Map([['a', 100]]))).a, 'hello number');
            } finally {
                for (const proto of prototypes) delete proto.toBSON;
            }
            assert.strictEqual(qbson.decode(qbson.encode({ a: 1 })).a, 1);
        });
        it('calculateObjectSize refuses a typed value of another major version, or with no version mark, as bson does', function () {
            const old = Object.defineProperty(new bson.Long(1, 0), Symbol.for('@@mdb.bson.version'), { value: 6 });
            for (const value of [old, { _bsontype: 'ObjectId', id: 'x' }]) {
                assert.throws(() => bson.calculateObjectSize({ a: { b: value } }), bson.BSONVersionError);
                assert.throws(
                    () => qbson.calculateObjectSize({ a: { b: value } }),
                    (err) => err instanceof qbson.BSONVersionError && err.path === 'a.b' && /^Unsupported BSON version/.test(err.message)
                );
            }
        });
        it('what a toBSON returns is written as it is: its own toBSON is not called', function () {
            let calls = 0;
            const inner = Object.assign(new bson.Int32(9), { toBSON: () => (calls++, 'inner') });
            const doc = { v: { toBSON: () => inner } };
            assertSameAsBson(doc);
            assert.strictEqual(calls, 0);
            // a plain object's toBSON is called again as a document, by bson too
            const plainInner = { toBSON: () => (calls++, { x: 2 }), x: 1 };
            assertSameAsBson({ v: { toBSON: () => plainInner } });
        });
        it('a typed value of another major version, or an unknown tag, is refused unless its toBSON replaces it', function () {
            const old = Object.defineProperty(new bson.Long(1, 0), Symbol.for('@@mdb.bson.version'), { value: 6 });
            assertVersionError({ a: old }, /not a BSON 7\.x type instance at key path 'a'/);
            assertSameAsBson({ a: Object.assign(old, { toBSON: () => 'fine' }) });
            const unknown = { _bsontype: 'Mystery', [Symbol.for('@@mdb.bson.version')]: 7 };
            assertEncodeError({ a: [unknown] }, /Unrecognized or invalid _bsontype: Mystery at key path 'a\.0'/);
            assertSameAsBson({ a: Object.assign(unknown, { toBSON: () => 12 }) });
            assertVersionError({ a: { toBSON: () => old } }, /not a BSON 7\.x type instance/);
        });
        it('null and undefined roots are the empty document', function () {
            assert.strictEqual(hex(qbson.encode(null)), '0500000000');
            assert.strictEqual(hex(qbson.encode(undefined)), '0500000000');
        });
        it('large documents, beyond bson\'s internal buffer, are written exactly', function () {
            const doc = { s: 'x'.repeat(20 * 1024 * 1024) };
            const buf = qbson.encode(doc);
            assert.strictEqual(buf.length, 20 * 1024 * 1024 + 13);
            assert.strictEqual(qbson.decode(buf).s.length, doc.s.length);
        });
        it('an ArrayBuffer is binary subtype 0 (bson writes an empty document)', function () {
            const ab = new Uint8Array([9, 8, 7]).buffer;
            const doc = qbson.decode(qbson.encode({ a: ab }));
            assert.deepStrictEqual([...doc.a.buffer], [9, 8, 7]);
            assert.strictEqual(qbson.calculateObjectSize({ a: ab }), qbson.encode({ a: ab }).length);
        });
        it('qbson and bson type instances give the same bytes', function () {
            const oid = '0123456789abcdef01234567';
            const ours = { o: new qbson.ObjectId(oid), l: qbson.Long.fromNumber(-7), i: new qbson.Int32(3), d: new qbson.Double(1) };
            const theirs = { o: new bson.ObjectId(oid), l: bson.Long.fromNumber(-7), i: new bson.Int32(3), d: new bson.Double(1) };
            assert.strictEqual(hex(qbson.encode(ours)), hex(bson.serialize(theirs)));
            assert.strictEqual(hex(bson.serialize(ours)), hex(bson.serialize(theirs)));
        });
    });

    describe("another library's ObjectId", function () {
        it("bson's, alone and in an array, gives bson's bytes", function () {
            const ids = Array.from({ length: 20 }, () => new bson.ObjectId());
            const doc = { one: ids[0], many: ids, nested: { id: ids[1] } };
            assert.strictEqual(hex(qbson.encode(doc)), hex(bson.serialize(doc)));
        });
        it('one whose serializeInto does not write 12 bytes is written from its id', function () {
            const id = Buffer.from('0123456789abcdef01234567', 'hex');
            const odd = { _bsontype: 'ObjectId', [Symbol.for('@@mdb.bson.version')]: 7, id, serializeInto: () => 0 };
            const bytes = qbson.encode({ o: odd });
            assert.strictEqual(qbson.decode(bytes).o.toHexString(), '0123456789abcdef01234567');
        });
    });

    describe('array keys', function () {
        it('the decimal index at every digit count, as bson writes it', function () {
            for (const length of [1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 9999, 10000, 10001, 100001]) {
                assertSameAsBson({ a: Array.from({ length }, (_, i) => (i % 3 === 0 ? i + 0.5 : i % 3 === 1 ? i : 'x')) });
            }
        });
        it('arrays that start with numbers: every key width and range boundary, int32, double, -0, NaN, infinities', function () {
            const values = [0, -0, 1.5, -7, 2147483647, -2147483648, 2147483648, NaN, Infinity, -Infinity, 1e308, 5e-324];
            for (const length of [15, 16, 17, 1023, 1024, 1025, 9999, 10000, 10001, 19999, 20000, 20001, 99999, 100000, 100001, 1000001]) {
                assertSameAsBson({ a: Array.from({ length }, (_, i) => values[i % values.length]), b: length });
            }
        });
        it('short arrays of numbers (fewer than 16), alone, in arrays and under keys: every length, int32, double, -0, NaN, and cut by another value', function () {
            const values = [0, -0, 1.5, -7, 2147483647, -2147483648, 2147483648, NaN, Infinity, -Infinity, 1e308, 5e-324];
            for (let length = 0; length <= 17; length++) {
                const numbers = Array.from({ length }, (_, i) => values[(i + length) % values.length]);
                const positions = Array.from({ length: 12 }, (_, i) => numbers.map((n) => n + i));
                assertSameAsBson({ a: numbers, b: positions, c: [numbers, 'x', numbers], d: [[numbers]] });
                for (let cut = 0; cut < length; cut++) {
                    const mixed = numbers.slice();
                    mixed[cut] = cut % 2 ? 'text' : [cut];
                    assertSameAsBson({ a: mixed, b: [mixed, mixed], c: [numbers, mixed] });
                }
            }
        });
        it('a run of numbers cut by another value, at each place a range of keys ends', function () {
            for (const cut of [0, 1, 15, 16, 999, 1000, 1023, 1024, 1025, 9999, 10000, 10001, 29999]) {
                const a = Array.from({ length: 30000 }, (_, i) => (i % 2 ? i : i * 0.25));
                a[cut] = cut % 2 ? 'text' : [cut, cut + 0.5];
                assertSameAsBson({ a, after: 'end' });
            }
        });
    });

    describe('arrays that are not plain', function () {
        // the bytes of {a: value, ...}, or the class of the error thrown (qbson's messages say more)
        function outcome(encode, value) {
            try {
                return hex(encode({ a: value, b: [value, [value]] }));
            } catch (err) {
                return err.constructor.name;
            }
        }
        it('an array given the prototype of a Date, RegExp, typed array, ArrayBuffer, Map or none, or subclassed, is written or refused as bson does', function () {
            class Numbers extends Array {}
            const protos = [Date.prototype, RegExp.prototype, Uint8Array.prototype, ArrayBuffer.prototype, SharedArrayBuffer.prototype, Map.prototype, Object.prototype, null, Numbers.prototype];
            for (const proto of protos) {
                const make = () => Object.setPrototypeOf([1, 2.5, 'x'], proto);
                assert.strictEqual(outcome(qbson.encode, make()), outcome(bson.serialize, make()), String(proto && proto.constructor.name));
            }
            assert.strictEqual(outcome(qbson.encode, Numbers.from([1, 2])), outcome(bson.serialize, Numbers.from([1, 2])));
        });
        it('an object given ArrayBuffer\'s prototype is a document, as in bson, not binary data: only a real ArrayBuffer is', function () {
            for (const proto of [ArrayBuffer.prototype, SharedArrayBuffer.prototype]) {
                const make = () => Object.setPrototypeOf({ x: 1, length: 2, 0: 7 }, proto);
                assert.strictEqual(outcome(qbson.encode, make()), outcome(bson.serialize, make()), proto.constructor.name);
                assert.strictEqual(qbson.calculateObjectSize({ a: make() }), qbson.encode({ a: make() }).length);
            }
            assert.deepStrictEqual(qbson.decode(qbson.encode({ a: new Uint8Array([1, 2]).buffer })).a.buffer, Buffer.from([1, 2]));
        });
        it('an array with its own constructor, toBSON or _bsontype is written as bson writes it', function () {
            const withConstructor = Object.assign([1, 2], { constructor: Date });
            const withToBSON = Object.assign([1, 2], { toBSON: () => ({ replaced: true }) });
            const withTag = Object.assign([1, 2], { _bsontype: 'Nothing' });
            for (const value of [withConstructor, withToBSON, withTag]) {
                assert.strictEqual(outcome(qbson.encode, value), outcome(bson.serialize, value));
            }
        });
    });

    describe('which keys of an object are written', function () {
        // objects of 1, 2, 19 and 20 keys (the field-walking strategies change at 2 and 20)
        function withKeys(n, proto) {
            const obj = Object.create(proto === undefined ? Object.prototype : proto);
            for (let i = 0; i < n; i++) obj['k' + i] = i;
            return obj;
        }
        const COUNTS = [1, 2, 5, 19, 20, 40];

        it('own enumerable string keys only, as bson: not inherited, non-enumerable or symbol keys', function () {
            for (const n of COUNTS) {
                const obj = withKeys(n, { inherited: 1, k0: 'shadowed' });
                Object.defineProperty(obj, 'hidden', { value: 2, enumerable: false });
                obj[Symbol('s')] = 3;
                assertSameAsBson({ obj });
                assert.ok(!qbson.encode(obj).includes(Buffer.from('inherited')));
            }
        });
        it('keys added to Object.prototype are not written', function () {
            Object.prototype.polluted = 'x';
            try {
                for (const n of COUNTS) assertSameAsBson({ obj: withKeys(n) });
                assert.ok(!qbson.encode(withKeys(5)).includes(Buffer.from('polluted')));
            } finally {
                delete Object.prototype.polluted;
            }
        });
        it('integer-like keys first in ascending order, then the rest in insertion order', function () {
            for (const n of COUNTS) {
                const obj = withKeys(n);
                obj['10'] = 'ten';
                obj['2'] = 'two';
                assertSameAsBson({ obj });
                assert.deepStrictEqual(Object.keys(qbson.decode(qbson.encode(obj))), Object.keys(obj));
            }
        });
        it('null-prototype objects, class instances, and objects with deleted keys', function () {
            class Point {
                constructor() {
                    this.x = 1;
                    this.y = 2;
                }
                get norm() {
                    return 3;
                }
            }
            Point.prototype.enumerableOnPrototype = 4;
            for (const n of COUNTS) {
                const bare = withKeys(n, null);
                const deleted = withKeys(n + 1);
                delete deleted.k0;
                assertSameAsBson({ bare, deleted, point: new Point() });
            }
        });
        it('getters are read once each, in key order', function () {
            for (const n of COUNTS) {
                const reads = [];
                const obj = {};
                for (let i = 0; i < n; i++) {
                    Object.defineProperty(obj, 'g' + i, { enumerable: true, get: () => (reads.push(i), i) });
                }
                qbson.encode(obj);
                assert.deepStrictEqual(reads, Array.from({ length: n }, (_, i) => i));
            }
        });
    });

    describe('refusals, each a BSONError naming where', function () {
        it('a key containing NUL', function () {
            assertEncodeError({ a: { 'b\u0000c': 1 } }, /null bytes.*'a\.b\u0000c'/);
            assertEncodeError({ ['é\u0000']: 1 }, /null bytes/);
            assertEncodeError({ ['x'.repeat(100) + '\u0000']: 1 }, /null bytes/);
        });
        it('a RegExp or BSONRegExp pattern containing NUL', function () {
            assertEncodeError({ r: new RegExp('a\u0000') }, /null bytes.*'r'/);
            assert.throws(() => new qbson.BSONRegExp('a\u0000b', 'i'), qbson.BSONError);
        });
        it('checkKeys: $-prefixed and dotted keys, as bson', function () {
            assertEncodeError({ a: { $set: 1 } }, /must not start with '\$'.*'a\.\$set'/, { checkKeys: true });
            assertEncodeError({ 'a.b': 1 }, /must not contain '\.'/, { checkKeys: true });
            assertSameAsBson({ $ref: 'c', $id: 1, $db: 'x' }, { checkKeys: true });
            assertSameAsBson({ $set: 1, 'a.b': 2 });
        });
        it('a cycle, with its path', function () {
            const doc = { a: { b: [] } };
            doc.a.b.push(doc.a);
            assertEncodeError(doc, /cyclic.*'a\.b\.0'/);
            assert.throws(() => qbson.calculateObjectSize(doc), qbson.BSONError);
        });
        it('a cycle through an array whose first elements are numbers, with its path', function () {
            const pair = [1.5, 2];
            pair.push(pair);
            assertEncodeError({ g: pair }, /cyclic.*'g\.2'.*'g'/);
            const ring = [[0.5, 1], [2, 3]];
            ring[1].push(ring);
            assertEncodeError({ r: ring }, /cyclic.*'r\.1\.2'.*'r'/);
        });
        it('the same object twice (not a cycle) is fine', function () {
            const shared = { x: 1 };
            assertSameAsBson({ a: shared, b: shared, c: [shared, shared] });
        });
        it('nesting deeper than maxDepth', function () {
            let doc = {};
            for (let i = 0; i < 20; i++) doc = { d: doc };
            assertEncodeError(doc, /maxDepth 10/, { maxDepth: 10 });
            assert.ok(qbson.encode(doc, { maxDepth: 20 }).length > 0);
        });
        it('nesting deeper than maxDepth through arrays of numbers, at the same depth as other containers', function () {
            for (const inner of [[1, 2.5], [], [1, 'x'], { x: 1 }]) {
                let doc = { leaf: inner };
                for (let i = 0; i < 10; i++) doc = { d: doc };
                // the root, 10 levels of d, then the innermost container is one too many
                assertEncodeError(doc, /maxDepth 10 at key path 'd\.d\.d\.d\.d\.d\.d\.d\.d\.d\.leaf'/, { maxDepth: 10 });
                assert.deepStrictEqual(qbson.encode(doc, { maxDepth: 11 }), Buffer.from(bson.serialize(doc)));
            }
        });
        it('nesting deeper than maxDepth through arrays of numbers in an array', function () {
            for (const inner of [[1, 2.5], [], [1, 'x']]) {
                let doc = { leaf: [inner] };
                for (let i = 0; i < 9; i++) doc = { d: doc };
                // the root, 9 levels of d, leaf's array, then the one inside it is one too many
                assertEncodeError(doc, /maxDepth 10 at key path 'd\.d\.d\.d\.d\.d\.d\.d\.d\.leaf\.0'/, { maxDepth: 10 });
                assert.deepStrictEqual(qbson.encode(doc, { maxDepth: 11 }), Buffer.from(bson.serialize(doc)));
            }
        });
        it('nesting deeper than maxDepth through an empty array while a primitive prototype has a toBSON', function () {
            let doc = { leaf: [] };
            for (let i = 0; i < 10; i++) doc = { d: doc };
            Number.prototype.toBSON = function () {
                return Number(this);
            };
            try {
                assertEncodeError(doc, /maxDepth 10 at key path 'd\.d\.d\.d\.d\.d\.d\.d\.d\.d\.leaf'/, { maxDepth: 10 });
                assert.ok(qbson.encode(doc, { maxDepth: 11 }).length > 0);
            } finally {
                delete Number.prototype.toBSON;
            }
        });
        it('a document nested 100,000 levels is a clean error', function () {
            let doc = {};
            for (let i = 0; i < 100000; i++) doc = { d: doc };
            assertEncodeError(doc, /maxDepth/);
        });
        it('a plain object posing as a BSON type', function () {
            assertVersionError({ a: JSON.parse('{"_bsontype":"ObjectId","id":"x"}') }, /_bsontype 'ObjectId'.*'a'/);
            assertVersionError({ a: { _bsontype: 'Long', low: 1, high: 0 } }, /not a BSON 7\.x type/);
        });
        it('roots that are not documents', function () {
            assertEncodeError([1, 2], /array/);
            assertEncodeError('str', /object/);
            assertEncodeError(new Date(), /Date/);
            assertEncodeError(new qbson.ObjectId(), /ObjectId/);
        });
        it('maxDocumentSize', function () {
            assertEncodeError({ s: 'x'.repeat(1000) }, /maxDocumentSize 100/, { maxDocumentSize: 100 });
            assert.strictEqual(qbson.encode({ s: 'x' }, { maxDocumentSize: 100 }).length, 14);
        });
        it('does not mutate its input', function () {
            const doc = { a: [1, { b: 'c' }], d: new Map([['e', 1]]) };
            const before = JSON.stringify([doc, [...doc.d]]);
            qbson.encode(doc);
            assert.strictEqual(JSON.stringify([doc, [...doc.d]]), before);
        });
    });

    describe('encodeInto', function () {
        it('writes at the offset and returns the offset after the document', function () {
            const buf = Buffer.alloc(40, 0xee);
            const end = qbson.encodeInto({ a: 1 }, buf, 3);
            assert.strictEqual(end, 3 + 12);
            assert.strictEqual(buf.subarray(3, end).toString('hex'), hex(bson.serialize({ a: 1 })));
            assert.strictEqual(buf[2], 0xee);
            assert.strictEqual(buf[end], 0xee);
        });
        it('refuses a document that does not fit, changing nothing', function () {
            const buf = Buffer.alloc(16, 0xee);
            assert.throws(
                () => qbson.encodeInto({ s: 'too long for the space' }, buf, 2),
                (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_BUFFER_TOO_SMALL'
            );
            assert.ok(buf.every((b) => b === 0xee));
        });
        it('accepts a Uint8Array', function () {
            const buf = new Uint8Array(12);
            assert.strictEqual(qbson.encodeInto({ a: 1 }, buf), 12);
            assert.strictEqual(hex(buf), hex(bson.serialize({ a: 1 })));
        });
        it('serializeWithBufferAndIndex returns the last index written, as bson', function () {
            const ours = Buffer.alloc(30);
            const theirs = Buffer.alloc(30);
            assert.strictEqual(
                qbson.serializeWithBufferAndIndex({ a: 'b' }, ours, { index: 4 }),
                bson.serializeWithBufferAndIndex({ a: 'b' }, theirs, { index: 4 })
            );
            assert.strictEqual(hex(ours), hex(theirs));
        });
        it('a toBSON that encodes re-enters safely', function () {
            const inner = { toBSON: () => ({ bytes: qbson.encode({ x: 1 }) }) };
            assertSameAsBson({ a: inner });
        });
        it('an encode re-entered from a toBSON leaves the outer encode its place in the key sequence', function () {
            // keys long enough for the key table, the outer ones on both sides of the inner encode;
            // the first round records the outer sequence, the later ones follow it
            const inner = { toBSON: () => ({ bytes: qbson.encode({ innerOne: 1, innerTwo: 'two', innerThree: [3] }) }) };
            const doc = { outerOne: 1, outerTwo: 'two', nested: inner, outerThree: 3.5, outerFour: { outerFive: true } };
            for (let round = 0; round < 3; round++) assertSameAsBson(doc);
        });
        it('documents whose keys leave out, add, repeat and reorder the last ones write bson\'s bytes (the key table\'s places in the sequence of keys)', function () {
            // keys of the table's lengths (4 to 63 bytes) and around them, alike in length and
            // first bytes; each document takes some in an order of its own, so the key at a place,
            // and the key after a key, are sometimes the last document's and sometimes not
            const keys = ['abc', 'abcd', 'abce', 'bbcd', 'name', 'nAme', 'name2', 'k0001', 'k0002', 'k0010', 'é123', '日本語x',
                'x'.repeat(63), 'x'.repeat(62) + 'y', 'x'.repeat(64), 'u5fc8f42', 'u5fc8f43', 'u62d6bdf'];
            const fieldArb = fc.tuple(fc.constantFrom(...keys), fc.oneof(fc.integer(), fc.string({ maxLength: 4 })));
            const docArb = fc.array(fieldArb, { maxLength: 12 }).map((fields) => Object.fromEntries(fields));
            fc.assert(fc.property(fc.array(docArb, { minLength: 1, maxLength: 6 }), fc.nat(3), (docs, nested) => {
                for (let round = 0; round < 2; round++) {
                    for (const doc of docs) assertSameAsBson(nested === 0 ? doc : { outer: doc, list: [doc, doc] });
                }
            }), { numRuns: RUNS, seed: SEED });
        });
    });

    describe('outputs', function () {
        // sizes around the least room a document starts with (16 KiB) and the first slab (64 KiB)
        const SIZES = [0, 1, 7, 100, 1000, 6000, 16 * 1024 - 20, 16 * 1024 - 19, 16 * 1024, 40000, 70000, 200000];
        function docOfSize(n, seed) {
            return { seed, s: 'x'.repeat(n) };
        }

        it('each output keeps its bytes while later documents are encoded', function () {
            const kept = [];
            for (let i = 0; i < 400; i++) {
                const doc = docOfSize(SIZES[(i * 7) % SIZES.length], i);
                kept.push([doc, qbson.encode(doc)]);
            }
            for (const [doc, out] of kept) assert.strictEqual(hex(out), hex(bson.serialize(doc)));
        });
        it('a document that outgrows the space left keeps the outputs before it intact', function () {
            const small = [];
            for (let i = 0; i < 5; i++) small.push(qbson.encode(docOfSize(3000, i)));
            const big = qbson.encode(docOfSize(300000, 'big'));
            const after = qbson.encode(docOfSize(3000, 'after'));
            for (let i = 0; i < 5; i++) assert.strictEqual(hex(small[i]), hex(bson.serialize(docOfSize(3000, i))));
            assert.strictEqual(hex(big), hex(bson.serialize(docOfSize(300000, 'big'))));
            assert.strictEqual(hex(after), hex(bson.serialize(docOfSize(3000, 'after'))));
        });
        it('a failed encode leaves earlier outputs intact', function () {
            const before = qbson.encode(docOfSize(5000, 'before'));
            const bad = { a: 'y'.repeat(5000), b: { 'c\u0000': 1 } };
            assert.throws(() => qbson.encode(bad), qbson.BSONError);
            assert.strictEqual(hex(before), hex(bson.serialize(docOfSize(5000, 'before'))));
        });
        it('maxDocumentSize counts from the start of the document, wherever it is placed', function () {
            for (let i = 0; i < 20; i++) {
                qbson.encode(docOfSize(3000, i));
                const doc = docOfSize(100, i);
                const size = bson.serialize(doc).length;
                assert.strictEqual(qbson.encode(doc, { maxDocumentSize: size }).length, size);
                assert.throws(
                    () => qbson.encode(doc, { maxDocumentSize: size - 1 }),
                    (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_LARGE'
                );
            }
            assert.throws(
                () => qbson.encode(docOfSize(100000, 0), { maxDocumentSize: 50000 }),
                (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_LARGE'
            );
        });
        it('the encoder keeps no reference to a document once it is encoded', function (done) {
            require('v8').setFlagsFromString('--expose-gc');
            const gc = require('vm').runInNewContext('gc');
            let ref = null;
            (function () {
                const doc = { a: { b: { c: [1, { d: 'e' }] } } };
                ref = new WeakRef(doc.a.b.c[1]);
                qbson.encode(doc);
            })();
            // a WeakRef target stays alive to the end of the job that made it
            setImmediate(function () {
                gc();
                try {
                    assert.strictEqual(ref.deref(), undefined);
                    done();
                } catch (err) {
                    done(err);
                }
            });
        });
        it('large outputs keep their bytes while documents of every size follow them', function () {
            // each slab is sized from the output before: large, then small, then large again
            const sizes = [300000, 300000, 300000, 300000, 300000, 100, 20000, 1000000, 900000, 50, 2000000, 1500000, 300000];
            const kept = sizes.map((n, i) => [docOfSize(n, i), qbson.encode(docOfSize(n, i))]);
            for (const [doc, out] of kept) assert.strictEqual(hex(out), hex(bson.serialize(doc)));
        });
        it('an output holds at most 4 MiB of memory, and one larger than that only its own bytes', function () {
            for (const n of [3000000, 5000000, 100]) {
                const out = qbson.encode(docOfSize(n, n));
                assert.ok(out.buffer.byteLength <= Math.max(4 * 1024 * 1024, out.length));
                if (out.length > 4 * 1024 * 1024) assert.strictEqual(out.buffer.byteLength, out.length);
            }
        });
        it('an output whose memory is transferred away leaves later encodes correct', function () {
            // transferring detaches the slab the output is a view of
            for (const n of [100, 300000]) {
                const out = qbson.encode(docOfSize(n, 'sent'));
                structuredClone(out.buffer, { transfer: [out.buffer] });
                for (const m of [100, 300000, 50]) assert.strictEqual(hex(qbson.encode(docOfSize(m, n))), hex(bson.serialize(docOfSize(m, n))));
            }
        });
        it('outputs are Buffers of exactly the document', function () {
            for (const n of SIZES) {
                const out = qbson.encode(docOfSize(n, n));
                assert.ok(Buffer.isBuffer(out));
                assert.strictEqual(Object.getPrototypeOf(out), Buffer.prototype);
                assert.strictEqual(out.length, out.readInt32LE(0));
            }
        });
    });
});
