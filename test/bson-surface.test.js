'use strict';

// bson@7's public surface on qbson: every name bson exports, the BSON namespace,
// BSONType, bsonType, the error subclasses, ByteUtils and NumberUtils (compared
// with bson's on seeded random input), setInternalBufferSize, and every class's
// statics and prototype members (bar those bson's own bson.d.ts keeps internal).

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 2000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261123;

// Members bson has at run time that its bson.d.ts marks "Excluded from this release type".
const INTERNAL = new Set([
    'static Binary.BSON_BINARY_SUBTYPE_DEFAULT', 'static UUID.BSON_BINARY_SUBTYPE_DEFAULT',
    'static Decimal128._fromString', 'static Long._fromString', 'static Timestamp._fromString',
    'static ObjectId.validateHexString', 'static ObjectId.getInc', 'static ObjectId.is', 'static ObjectId.index',
    'static ObjectId.PROCESS_UNIQUE', 'static ObjectId.resetState',
    'ObjectId.setFromBytes', 'ObjectId.setFromHex', 'ObjectId.isCached',
]);

// own and inherited names, up to Object / Function
function memberNames(obj, stop) {
    const names = new Set();
    for (let o = obj; o != null && o !== stop; o = Object.getPrototypeOf(o)) {
        for (const k of Reflect.ownKeys(o)) names.add(typeof k === 'symbol' ? k.toString() : k);
    }
    return names;
}

function sameOutcome(ours, theirs, label) {
    const run = (fn) => {
        try {
            return { value: fn() };
        } catch (err) {
            return { threw: true };
        }
    };
    const a = run(ours);
    const b = run(theirs);
    assert.deepStrictEqual(a, b, label);
}

describe('bson@7 public surface', function () {
    it('every name bson exports, qbson exports', function () {
        const missing = Object.keys(bson).filter((name) => !(name in qbson));
        assert.deepStrictEqual(missing, []);
    });

    it('BSON holds exactly the names of bson\'s BSON namespace, each the same value as qbson\'s export', function () {
        assert.deepStrictEqual(Object.keys(qbson.BSON).sort(), Object.keys(bson.BSON).sort());
        for (const name of Object.keys(qbson.BSON)) assert.strictEqual(qbson.BSON[name], qbson[name], name);
        assert.ok(Object.isFrozen(qbson.BSON));
        assert.strictEqual(Object.getPrototypeOf(qbson.BSON), null);
        const bytes = qbson.BSON.serialize({ a: 1 });
        assert.deepStrictEqual(qbson.BSON.deserialize(bytes), { a: 1 });
    });

    it('BSONType and bsonType are bson\'s', function () {
        assert.deepStrictEqual(qbson.BSONType, bson.BSONType);
        assert.ok(Object.isFrozen(qbson.BSONType));
        assert.strictEqual(qbson.bsonType, bson.bsonType);
        assert.strictEqual(new qbson.Long(1)[qbson.bsonType], 'Long');
    });

    it('every public static and prototype member of bson\'s classes exists on qbson\'s', function () {
        const missing = [];
        for (const name of Object.keys(bson)) {
            const theirs = bson[name];
            if (typeof theirs !== 'function' || !/^[A-Z]/.test(name) || theirs.prototype === undefined) continue;
            const ours = qbson[name];
            const statics = memberNames(ours, Function.prototype);
            for (const m of memberNames(theirs, Function.prototype)) if (!statics.has(m)) missing.push(`static ${name}.${m}`);
            const members = memberNames(ours.prototype, Object.prototype);
            for (const m of memberNames(theirs.prototype, Object.prototype)) if (!members.has(m)) missing.push(`${name}.${m}`);
        }
        assert.deepStrictEqual(missing.filter((m) => !INTERNAL.has(m)), []);
    });

    it('error subclasses: names, messages, offset, and both libraries recognise them', function () {
        const v = new qbson.BSONVersionError();
        assert.strictEqual(v.message, new bson.BSONVersionError().message);
        const r = new qbson.BSONRuntimeError('odd');
        const o = new qbson.BSONOffsetError('bad', 12, { cause: v });
        assert.strictEqual(o.message, new bson.BSONOffsetError('bad', 12).message);
        assert.strictEqual(o.offset, 12);
        assert.strictEqual(o.cause, v);
        for (const [err, name, code] of [[v, 'BSONVersionError', 'ERR_BSON_VERSION'], [r, 'BSONRuntimeError', 'ERR_BSON_RUNTIME'], [o, 'BSONOffsetError', 'ERR_BSON_CORRUPT']]) {
            assert.strictEqual(err.name, name);
            assert.strictEqual(err.code, code);
            assert.ok(err instanceof qbson.BSONError && err instanceof Error);
            assert.ok(qbson.BSONError.isBSONError(err) && bson.BSONError.isBSONError(err));
        }
    });

    it('setInternalBufferSize accepts any argument, as bson does, and changes nothing', function () {
        for (const size of [0, 1024, 64 * 1024 * 1024, -1, 'x', undefined]) assert.strictEqual(qbson.setInternalBufferSize(size), undefined);
        const big = { s: 'x'.repeat(1 << 20) };
        qbson.setInternalBufferSize(16);
        assert.deepStrictEqual(qbson.deserialize(qbson.serialize(big)), big);
    });

    it('ByteUtils and NumberUtils have bson\'s members', function () {
        assert.deepStrictEqual(Object.keys(qbson.ByteUtils).sort(), Object.keys(bson.ByteUtils).sort());
        assert.deepStrictEqual(Object.keys(qbson.NumberUtils).sort(), Object.keys(bson.NumberUtils).sort());
        assert.strictEqual(qbson.NumberUtils.isBigEndian, bson.NumberUtils.isBigEndian);
    });

    const bytes = fc.uint8Array({ maxLength: 64 });
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
    const params = { numRuns: RUNS, seed: SEED };

    it('NumberUtils getters agree with bson at every offset of random bytes', function () {
        const getters = ['getNonnegativeInt32LE', 'getInt32LE', 'getUint32LE', 'getUint32BE', 'getBigInt64LE', 'getFloat64LE'];
        fc.assert(fc.property(fc.uint8Array({ minLength: 8, maxLength: 24 }), (b) => {
            for (const g of getters) {
                for (let i = 0; i + 8 <= b.length; i++) {
                    sameOutcome(() => qbson.NumberUtils[g](b, i), () => bson.NumberUtils[g](b, i), `${g} at ${i}`);
                }
            }
        }), params);
    });

    it('NumberUtils setters write bson\'s bytes and return bson\'s counts', function () {
        const setters = [
            ['setInt32BE', fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 })],
            ['setInt32LE', fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 })],
            ['setBigInt64LE', fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n })],
            ['setFloat64LE', fc.double()],
        ];
        for (const [name, values] of setters) {
            fc.assert(fc.property(values, fc.integer({ min: 0, max: 4 }), (value, offset) => {
                const a = new Uint8Array(12);
                const b = new Uint8Array(12);
                assert.strictEqual(qbson.NumberUtils[name](a, offset, value), bson.NumberUtils[name](b, offset, value));
                assert.deepStrictEqual(a, b, name);
            }), params);
        }
    });

    it('ByteUtils conversions agree with bson', function () {
        const U = qbson.ByteUtils;
        const B = bson.ByteUtils;
        fc.assert(fc.property(bytes, text, (b, s) => {
            const view = new Uint8Array(b);
            for (const f of ['toBase64', 'toISO88591', 'toHex']) assert.strictEqual(U[f](view), B[f](view), f);
            for (const f of ['fromBase64', 'fromUTF8', 'fromISO88591']) assert.deepStrictEqual(U[f](s), B[f](s), f);
            assert.deepStrictEqual(U.fromHex(B.toHex(view)), B.fromHex(B.toHex(view)));
            assert.strictEqual(U.utf8ByteLength(s), B.utf8ByteLength(s));
            assert.deepStrictEqual(U.fromNumberArray([...view]), B.fromNumberArray([...view]));
            assert.strictEqual(U.isUint8Array(view), true);
            assert.strictEqual(U.isUint8Array([...view]), B.isUint8Array([...view]));
            assert.strictEqual(U.equals(view, Buffer.from(b)), true);
            assert.strictEqual(U.compare(view, new Uint8Array(4)), B.compare(view, new Uint8Array(4)));
            for (const fatal of [false, true]) {
                for (let start = 0; start <= view.length; start += 7) {
                    sameOutcome(() => U.toUTF8(view, start, view.length, fatal), () => B.toUTF8(view, start, view.length, fatal), `toUTF8 fatal ${fatal}`);
                }
            }
            const utf8 = Buffer.from(s, 'utf8');
            const a = new Uint8Array(utf8.length + 3);
            const c = new Uint8Array(utf8.length + 3);
            assert.strictEqual(U.encodeUTF8Into(a, s, 3), B.encodeUTF8Into(c, s, 3));
            assert.deepStrictEqual(a, c);
        }), params);
    });

    it('ByteUtils: invalid UTF-8 under fatal is a BSONError carrying bson\'s wording', function () {
        const bad = new Uint8Array([0x61, 0xc3, 0x28]);
        assert.throws(() => qbson.ByteUtils.toUTF8(bad, 0, 3, true), (err) => err instanceof qbson.BSONError && /^Invalid UTF-8 string in BSON document/.test(err.message));
        assert.strictEqual(qbson.ByteUtils.toUTF8(bad, 0, 3, false), bson.ByteUtils.toUTF8(bad, 0, 3, false));
    });

    it('ByteUtils: buffers, copies and random bytes', function () {
        const U = qbson.ByteUtils;
        const ab = new Uint8Array([1, 2, 3, 4]).buffer;
        assert.ok(Buffer.isBuffer(U.toLocalBufferType(ab)) && Buffer.isBuffer(U.toLocalBufferType(new Uint16Array(2))));
        assert.throws(() => U.toLocalBufferType('text'), qbson.BSONError);
        const target = U.allocate(6);
        assert.strictEqual(U.copy(new Uint8Array([7, 8, 9]), target, 2, 1), 2);
        assert.deepStrictEqual([...target], [0, 0, 8, 9, 0, 0]);
        assert.strictEqual(U.allocateUnsafe(5).length, 5);
        assert.deepStrictEqual([...U.concat([new Uint8Array([1]), new Uint8Array([2, 3])])], [1, 2, 3]);
        assert.strictEqual(U.randomBytes(16).length, 16);
        assert.deepStrictEqual([...U.swap32(new Uint8Array([1, 2, 3, 4]))], [4, 3, 2, 1]);
    });

    it('every class\'s Extended JSON hooks give what bson\'s give', function () {
        const make = (L) => [
            new L.ObjectId('64b7f0c2a1b2c3d4e5f60718'), new L.Int32(5), new L.Double(1), new L.Double(-0), new L.Double(1.5),
            new L.Double(Infinity), new L.Decimal128('1.5'), new L.Binary(Buffer.from('ab'), 2), new L.Binary(Buffer.alloc(16, 7), 4),
            new L.UUID('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'), new L.BSONSymbol('s'), new L.MinKey(), new L.MaxKey(),
            new L.BSONRegExp('a', 'mi'), new L.Code('f'), new L.Code('f', { a: 1 }), L.Long.fromString('-12'),
            new L.DBRef('c', new L.ObjectId('64b7f0c2a1b2c3d4e5f60718'), 'd', { x: 1 }), new L.Timestamp({ t: 1, i: 2 }),
        ];
        const ours = make(qbson);
        const theirs = make(bson);
        const OPTIONS = [undefined, { relaxed: true }, { relaxed: false }, { legacy: true }, { legacy: true, relaxed: false }];
        for (let i = 0; i < ours.length; i++) {
            const cls = ours[i]._bsontype;
            for (const options of OPTIONS) {
                const label = `${cls} ${JSON.stringify(options)}`;
                const ext = ours[i].toExtendedJSON(options);
                assert.deepStrictEqual(normalize(ext), normalize(theirs[i].toExtendedJSON(options)), label);
                // and back through the class's own static, as bson's EJSON does
                if (typeof ext !== 'object') continue;
                const back = qbson[cls === 'Binary' && ext.$uuid ? 'UUID' : cls].fromExtendedJSON(ext, options);
                const theirsBack = bson[cls === 'Binary' && ext.$uuid ? 'UUID' : cls].fromExtendedJSON(theirs[i].toExtendedJSON(options), options);
                assert.deepStrictEqual(normalize(back), normalize(theirsBack), `${label} back`);
            }
        }
        assert.deepStrictEqual(normalize(qbson.BSONRegExp.fromExtendedJSON({ $regex: 'x', $options: 'mix' })), normalize(bson.BSONRegExp.fromExtendedJSON({ $regex: 'x', $options: 'mix' })));
        assert.throws(() => qbson.BSONRegExp.fromExtendedJSON({ other: 1 }), qbson.BSONError);
    });

    it('Long and Timestamp Extended JSON hooks agree with bson', function () {
        const longs = ['0', '-1', '9007199254740993', '-9223372036854775808', '9223372036854775807'];
        for (const s of longs) {
            for (const options of [undefined, { relaxed: false }, { relaxed: true }, { useBigInt64: true }]) {
                const ours = qbson.Long.fromExtendedJSON({ $numberLong: s }, options);
                const theirs = bson.Long.fromExtendedJSON({ $numberLong: s }, options);
                assert.strictEqual(typeof ours, typeof theirs);
                assert.strictEqual(String(ours), String(theirs), `${s} ${JSON.stringify(options)}`);
            }
            for (const options of [undefined, { relaxed: true }]) {
                assert.deepStrictEqual(qbson.Long.fromString(s).toExtendedJSON(options), bson.Long.fromString(s).toExtendedJSON(options));
            }
        }
        assert.throws(() => qbson.Long.fromExtendedJSON({ $numberLong: '1.5' }), qbson.BSONError);
        const ts = { $timestamp: { t: 4294967295, i: 7 } };
        assert.deepStrictEqual(qbson.Timestamp.fromExtendedJSON(ts).toExtendedJSON(), bson.Timestamp.fromExtendedJSON(ts).toExtendedJSON());
    });
});
