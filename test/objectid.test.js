'use strict';

const assert = require('assert');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { ObjectId } = require('../lib/types/objectid');
const { BSONError } = require('../lib/errors');

const FC = { seed: 42, numRuns: 1000 };
const hexChar = fc.constantFrom(...'0123456789abcdefABCDEF');
const hex24 = fc.string({ unit: hexChar, minLength: 24, maxLength: 24 });
const bytes12 = fc.uint8Array({ minLength: 12, maxLength: 12 });

// Runs fn with both libraries; both must throw (ours a BSONError) or both return the same result.
function sameOutcome(fn, label) {
    let theirs;
    let ours;
    try {
        theirs = { value: fn(bson.ObjectId) };
    } catch (err) {
        theirs = { error: err };
    }
    try {
        ours = { value: fn(ObjectId) };
    } catch (err) {
        ours = { error: err };
    }
    if (theirs.error) {
        assert.ok(ours.error, `${label}: bson throws "${theirs.error.message}" but qbson does not`);
        assert.ok(ours.error instanceof BSONError, `${label}: qbson threw a ${ours.error.name}`);
        return ours.error;
    }
    assert.ok(!ours.error, `${label}: qbson throws "${ours.error && ours.error.message}" but bson does not`);
    assert.deepStrictEqual(ours.value, theirs.value, label);
    return null;
}

describe('ObjectId', function () {
    describe('constructor', function () {
        const hex = '5e9f1c2a3b4d5e6f708192a3';
        const inputs = [
            ['hex string', hex],
            ['upper-case hex string', hex.toUpperCase()],
            ['12-byte Buffer', Buffer.from(hex, 'hex')],
            ['12-byte Uint8Array', new Uint8Array(Buffer.from(hex, 'hex'))],
            ['12-byte Uint16Array view', new Uint16Array(6)],
            ['12-byte DataView', new DataView(new ArrayBuffer(12))],
            ['bson ObjectId', new bson.ObjectId(hex)],
            ['qbson ObjectId', new ObjectId(hex)],
            ['ObjectId-like with toHexString', { id: 'x', toHexString: () => hex }],
            ['ObjectId-like with a Buffer id', { id: Buffer.from(hex, 'hex') }],
            ['ObjectId-like with a hex string id', { id: hex }],
            ['ObjectId-like whose toHexString is bad', { id: 'x', toHexString: () => 'zz' }],
            ['ObjectId-like with a numeric id', { id: 5 }],
            ['ObjectId-like with a 12-char string id', { id: 'abcdefghijkl' }],
            ['object with only toHexString', { toHexString: () => hex }],
            ['23-char string', hex.slice(1)],
            ['25-char string', hex + '0'],
            ['24 chars with a non-hex digit', 'g' + hex.slice(1)],
            ['12-char string', 'abcdefghijkl'],
            ['empty string', ''],
            ['11-byte Buffer', Buffer.alloc(11)],
            ['13-byte Buffer', Buffer.alloc(13)],
            ['integer', 5],
            ['float', 1.5],
            ['boolean', true],
            ['plain object', {}],
            ['array of 12 numbers', new Array(12).fill(1)],
        ];
        for (const [label, input] of inputs) {
            it(`matches bson for: ${label}`, function () {
                const err = sameOutcome((C) => new C(input).toHexString(), label);
                if (err) {
                    // the messages are bson's own
                    let bsonMessage;
                    try {
                        new bson.ObjectId(input);
                    } catch (e) {
                        bsonMessage = e.message;
                    }
                    assert.strictEqual(err.message, bsonMessage);
                }
            });
        }

        it('with no argument generates time + process-unique + counter', function () {
            const before = Math.floor(Date.now() / 1000);
            const a = new ObjectId();
            const b = new ObjectId();
            const after = Math.floor(Date.now() / 1000);
            const ta = a.id.readUInt32BE(0);
            assert.ok(ta >= before && ta <= after);
            assert.deepStrictEqual(a.id.subarray(4, 9), b.id.subarray(4, 9));
            const ca = a.id.readUIntBE(9, 3);
            const cb = b.id.readUIntBE(9, 3);
            assert.strictEqual(cb, (ca + 1) % 0x1000000);
            assert.notStrictEqual(a.toHexString(), b.toHexString());
        });

        it('null and undefined generate', function () {
            assert.strictEqual(new ObjectId(null).toHexString().length, 24);
            assert.strictEqual(new ObjectId(undefined).toHexString().length, 24);
        });

        it('does not share memory with the input bytes', function () {
            const bytes = Buffer.from('000102030405060708090a0b', 'hex');
            const oid = new ObjectId(bytes);
            bytes[0] = 0xff;
            assert.strictEqual(oid.toHexString(), '000102030405060708090a0b');
        });

        it('has _bsontype, the version marker and the type tag', function () {
            const oid = new ObjectId();
            assert.strictEqual(oid._bsontype, 'ObjectId');
            assert.strictEqual(oid[Symbol.for('@@mdb.bson.version')], 7);
            assert.ok(!Object.keys(oid).includes('_bsontype'));
        });
    });

    describe('accessors', function () {
        it('id is a fresh 12-byte Buffer', function () {
            const oid = new ObjectId('000102030405060708090a0b');
            const id = oid.id;
            assert.ok(Buffer.isBuffer(id));
            assert.strictEqual(id.toString('hex'), '000102030405060708090a0b');
            id[0] = 0xff;
            assert.strictEqual(oid.toHexString(), '000102030405060708090a0b');
            assert.notStrictEqual(oid.id, oid.id);
        });

        it('id setter replaces the bytes and the cached hex', function () {
            const oid = new ObjectId('000102030405060708090a0b');
            assert.strictEqual(oid.toHexString(), '000102030405060708090a0b');
            oid.id = Buffer.from('ffffffffffffffffffffffff', 'hex');
            assert.strictEqual(oid.toHexString(), 'ffffffffffffffffffffffff');
            assert.throws(() => {
                oid.id = Buffer.alloc(3);
            }, BSONError);
        });

        it('toString, toJSON and base64', function () {
            const hex = '5e9f1c2a3b4d5e6f708192a3';
            const ours = new ObjectId(hex);
            const theirs = new bson.ObjectId(hex);
            for (const enc of [undefined, 'hex', 'base64', 'utf8']) {
                assert.strictEqual(ours.toString(enc), theirs.toString(enc));
            }
            assert.strictEqual(JSON.stringify({ a: ours }), JSON.stringify({ a: theirs }));
        });

        it('getTimestamp reads the first 4 bytes as unsigned seconds', function () {
            for (const hex of ['000000000000000000000000', 'ffffffff0000000000000000', '5e9f1c2a3b4d5e6f708192a3', '80000000ffffffffffffffff']) {
                assert.strictEqual(new ObjectId(hex).getTimestamp().getTime(), new bson.ObjectId(hex).getTimestamp().getTime());
            }
        });

        it('inspect text equals bson', function () {
            for (const hex of ['5e9f1c2a3b4d5e6f708192a3', 'FFFFFFFFFFFFFFFFFFFFFFFF']) {
                const ours = new ObjectId(hex);
                const theirs = new bson.ObjectId(hex);
                assert.strictEqual(util.inspect(ours), util.inspect(theirs));
                assert.strictEqual(util.inspect({ x: [ours] }), util.inspect({ x: [theirs] }));
                assert.strictEqual(util.inspect(ours, { colors: true }), util.inspect(theirs, { colors: true }));
                assert.strictEqual(ours.inspect(), theirs.inspect());
            }
        });
    });

    describe('equals', function () {
        const hex = '5e9f1c2a3b4d5e6f708192a3';
        const cases = [
            ['same hex string', hex],
            ['upper-case hex string', hex.toUpperCase()],
            ['other hex string', '000000000000000000000000'],
            ['non-hex string', 'hello'],
            ['qbson ObjectId', new ObjectId(hex)],
            ['bson ObjectId', new bson.ObjectId(hex)],
            ['other bson ObjectId', new bson.ObjectId()],
            ['ObjectId-like', { toHexString: () => hex.toUpperCase() }],
            ['ObjectId-like returning a non-string', { toHexString: () => 5 }],
            ['null', null],
            ['undefined', undefined],
            ['number', 5],
            ['Buffer of the bytes', Buffer.from(hex, 'hex')],
        ];
        for (const [label, other] of cases) {
            it(`matches bson for: ${label}`, function () {
                assert.strictEqual(new ObjectId(hex).equals(other), new bson.ObjectId(hex).equals(other), label);
            });
        }

        it('bson ObjectId.equals accepts a qbson ObjectId', function () {
            assert.strictEqual(new bson.ObjectId(hex).equals(new ObjectId(hex)), true);
            assert.strictEqual(new bson.ObjectId(hex).equals(new ObjectId()), false);
        });
    });

    describe('statics', function () {
        it('generate(time) puts the time first and matches bson for odd times', function () {
            for (const time of [0, 1, 1.7, -1, 2 ** 32 + 3, 0x12345678, NaN]) {
                const ours = ObjectId.generate(time);
                const theirs = bson.ObjectId.generate(time);
                assert.strictEqual(ours.length, 12);
                assert.deepStrictEqual(ours.subarray(0, 4), theirs.subarray(0, 4), `time ${time}`);
            }
            const now = Math.floor(Date.now() / 1000);
            assert.ok(Math.abs(ObjectId.generate().readUInt32BE(0) - now) <= 1);
        });

        it('generate shares the counter and process-unique bytes with new ObjectId()', function () {
            const a = ObjectId.generate(0);
            const b = new ObjectId().id;
            assert.deepStrictEqual(a.subarray(4, 9), b.subarray(4, 9));
            assert.strictEqual(b.readUIntBE(9, 3), (a.readUIntBE(9, 3) + 1) % 0x1000000);
        });

        it('createFromTime matches bson', function () {
            for (const time of [0, 1, 1.7, -1, 2 ** 32 + 3, 0x12345678, 1700000000]) {
                assert.strictEqual(ObjectId.createFromTime(time).toHexString(), bson.ObjectId.createFromTime(time).toHexString());
            }
        });

        it('createFromHexString and createFromBase64 match bson', function () {
            const inputs = ['5e9f1c2a3b4d5e6f708192a3', 'ABCDEFabcdef012345678901', 'zz9f1c2a3b4d5e6f708192a3', '5e9f1c2a3b4d5e6f708192a', '', null, 5];
            for (const s of inputs) sameOutcome((C) => C.createFromHexString(s).toHexString(), `hex ${s}`);
            const b64 = ['Xp8cKjtNXm9wgZKj', 'AAAAAAAAAAAAAAAA', '////////////////', 'Xp8cKjtNXm9wgZK=', '!!!!!!!!!!!!!!!!', 'Xp8cKjtNXm9wgZ', null];
            for (const s of b64) sameOutcome((C) => C.createFromBase64(s).toHexString(), `base64 ${s}`);
        });

        it('createFromHexString says what was wrong', function () {
            assert.throws(() => ObjectId.createFromHexString('abc'), { name: 'BSONError', message: 'hex string must be 24 characters' });
            assert.throws(() => ObjectId.createFromHexString('zz9f1c2a3b4d5e6f708192a3'), { name: 'BSONError', message: /hexadecimal/ });
        });

        it('isValid matches bson', function () {
            const inputs = [
                '5e9f1c2a3b4d5e6f708192a3', '5E9F1C2A3B4D5E6F708192A3', 'zz9f1c2a3b4d5e6f708192a3', 'abcdefghijkl', '', 5, 1.5, null, undefined,
                Buffer.alloc(12), Buffer.alloc(11), new ObjectId(), new bson.ObjectId(), { id: 5 }, { toHexString: () => 'a' }, {},
            ];
            for (const input of inputs) assert.strictEqual(ObjectId.isValid(input), bson.ObjectId.isValid(input), util.inspect(input));
        });

        it('cacheHexString keeps the input string lower-cased', function () {
            assert.strictEqual(ObjectId.cacheHexString, bson.ObjectId.cacheHexString);
            ObjectId.cacheHexString = true;
            try {
                const oid = new ObjectId('5E9F1C2A3B4D5E6F708192A3');
                assert.strictEqual(oid.toHexString(), '5e9f1c2a3b4d5e6f708192a3');
                const made = ObjectId.fromBytes(Buffer.alloc(12, 1), 0);
                assert.strictEqual(made.toHexString(), '01'.repeat(12));
                assert.strictEqual(made.toHexString(), '01'.repeat(12));
                made.id = Buffer.alloc(12, 2);
                assert.strictEqual(made.toHexString(), '02'.repeat(12));
                assert.deepStrictEqual(Object.keys(made), ['i0', 'i1', 'i2', 'i3']);
            } finally {
                ObjectId.cacheHexString = undefined;
            }
        });
    });

    describe('codec fast paths', function () {
        it('fromBytes copies 12 bytes at an offset', function () {
            const buf = Buffer.from('ff' + '000102030405060708090a0b' + 'ee', 'hex');
            const oid = ObjectId.fromBytes(buf, 1);
            assert.ok(oid instanceof ObjectId);
            assert.strictEqual(oid.toHexString(), '000102030405060708090a0b');
            buf[1] = 0x99;
            assert.strictEqual(oid.toHexString(), '000102030405060708090a0b');
            assert.deepStrictEqual(oid, new ObjectId('000102030405060708090a0b'));
        });

        it('writeTo copies 12 bytes at an offset and returns the end', function () {
            const buf = Buffer.alloc(14, 0xee);
            const end = new ObjectId('000102030405060708090a0b').writeTo(buf, 1);
            assert.strictEqual(end, 13);
            assert.strictEqual(buf.toString('hex'), 'ee000102030405060708090a0bee');
        });

        it('bson serializes a qbson ObjectId like its own', function () {
            const hex = '5e9f1c2a3b4d5e6f708192a3';
            assert.deepStrictEqual(bson.serialize({ _id: new ObjectId(hex) }), bson.serialize({ _id: new bson.ObjectId(hex) }));
            assert.strictEqual(new bson.ObjectId(new ObjectId(hex)).toHexString(), hex);
        });
    });

    describe('properties against bson', function () {
        it('hex round trip', function () {
            fc.assert(
                fc.property(hex24, (hex) => {
                    const ours = new ObjectId(hex);
                    const theirs = new bson.ObjectId(hex);
                    assert.strictEqual(ours.toHexString(), theirs.toHexString());
                    assert.strictEqual(ours.toHexString(), hex.toLowerCase());
                    assert.deepStrictEqual(ours.id, Buffer.from(theirs.id));
                    assert.strictEqual(ObjectId.createFromHexString(hex).toHexString(), hex.toLowerCase());
                }),
                FC
            );
        });

        it('bytes round trip through every path', function () {
            fc.assert(
                fc.property(bytes12, fc.nat(20), (bytes, offset) => {
                    const theirs = new bson.ObjectId(bytes);
                    const ours = new ObjectId(bytes);
                    assert.strictEqual(ours.toHexString(), theirs.toHexString());
                    assert.strictEqual(ours.toString('base64'), theirs.toString('base64'));
                    assert.strictEqual(ObjectId.createFromBase64(theirs.toString('base64')).toHexString(), theirs.toHexString());
                    assert.strictEqual(ours.getTimestamp().getTime(), theirs.getTimestamp().getTime());
                    assert.strictEqual(util.inspect(ours), util.inspect(theirs));
                    const buf = Buffer.alloc(offset + 12);
                    ours.writeTo(buf, offset);
                    assert.deepStrictEqual(buf.subarray(offset), Buffer.from(bytes));
                    assert.strictEqual(ObjectId.fromBytes(buf, offset).toHexString(), theirs.toHexString());
                }),
                FC
            );
        });

        it('equals agrees with bson across both libraries', function () {
            fc.assert(
                fc.property(bytes12, bytes12, fc.boolean(), (a, b, same) => {
                    const other = same ? a : b;
                    const expected = new bson.ObjectId(a).equals(new bson.ObjectId(other));
                    assert.strictEqual(new ObjectId(a).equals(new ObjectId(other)), expected);
                    assert.strictEqual(new ObjectId(a).equals(new bson.ObjectId(other)), expected);
                    assert.strictEqual(new bson.ObjectId(a).equals(new ObjectId(other)), expected);
                    assert.strictEqual(new ObjectId(a).equals(Buffer.from(other).toString('hex').toUpperCase()), expected);
                }),
                FC
            );
        });

        it('arbitrary strings are accepted or rejected like bson', function () {
            fc.assert(
                fc.property(fc.oneof(hex24, fc.string({ minLength: 22, maxLength: 26 }), fc.string({ unit: hexChar, minLength: 20, maxLength: 28 })), (s) => {
                    sameOutcome((C) => new C(s).toHexString(), JSON.stringify(s));
                    assert.strictEqual(ObjectId.isValid(s), bson.ObjectId.isValid(s));
                }),
                FC
            );
        });
    });
});
