'use strict';

const assert = require('assert');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { Int32 } = require('../lib/types/int32');
const { Double } = require('../lib/types/double');
const { BSONError } = require('../lib/errors');
const { assertSameOutcome } = require('./support/same-outcome');

const numericText = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'0123456789+-.eE xXabn'.split('')), maxLength: 14 }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.constantFrom('', '-0', '+0', '00', '007', '-007', '2147483647', '2147483648', '-2147483648', '-2147483649',
        '1e3', '0x10', '0b1', '0o7', ' 1', '1 ', 'NaN', 'Infinity', '-Infinity', '+Infinity', '1.', '.5', '1e400',
        '9007199254740993', '--1', '+-1', '1_000')
);

const constructorInputs = [0, -0, 1.9, -1.9, 2 ** 31, 2 ** 32 + 5, -(2 ** 31) - 1, NaN, Infinity, '12', '0x10', ' 7 ', '',
    'abc', null, undefined, true, new Number(42), [5], {}];

// Both throw (ours a BSONError with bson's message), or both wrap the same value.
function assertSameValue(fnOurs, fnTheirs, label) {
    assertSameOutcome(fnOurs, fnTheirs, label, { sameMessage: true, compare: (a, b) => assert.ok(Object.is(a.value, b.value), label) });
}

describe('Int32', function () {
    it('is a bson-compatible value', function () {
        const v = new Int32(5);
        assert.strictEqual(v._bsontype, 'Int32');
        assert.strictEqual(typeof Object.getOwnPropertyDescriptor(Int32.prototype, '_bsontype').get, 'function');
        assert.strictEqual(v[Symbol.for('@@mdb.bson.version')], 7);
        assert.strictEqual(v[Symbol.for('@@mdb.bson.type')], 'Int32');
        assert.deepStrictEqual(Object.keys(v), ['value']);
    });

    for (const input of constructorInputs) {
        it(`new Int32(${util.inspect(input)}) matches bson`, function () {
            assert.ok(Object.is(new Int32(input).value, new bson.Int32(input).value));
        });
    }

    it('fromString agrees with bson on generated text', function () {
        fc.assert(fc.property(numericText, (s) => {
            assertSameValue(() => Int32.fromString(s), () => bson.Int32.fromString(s), JSON.stringify(s));
        }), { seed: 42, numRuns: 2000 });
    });

    it('fromString accepts leading zeros and rejects -0 like bson', function () {
        assert.strictEqual(Int32.fromString('+007').value, 7);
        assert.strictEqual(Int32.fromString('-0010').value, -10);
        assert.throws(() => Int32.fromString('-0'), BSONError);
        assert.throws(() => Int32.fromString('2147483648'), BSONError);
    });

    it('valueOf, toString, toJSON match bson', function () {
        fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 36 }), (n, radix) => {
            const ours = new Int32(n);
            const theirs = new bson.Int32(n);
            assert.strictEqual(ours.valueOf(), theirs.valueOf());
            assert.strictEqual(ours + 1, n + 1);
            assert.strictEqual(ours.toString(radix), theirs.toString(radix));
            assert.strictEqual(ours.toString(), theirs.toString());
            assert.strictEqual(JSON.stringify({ a: ours }), JSON.stringify({ a: theirs }));
        }), { seed: 42, numRuns: 500 });
    });

    it('inspects like bson', function () {
        for (const n of [0, -5, 2147483647]) {
            assert.strictEqual(util.inspect(new Int32(n)), util.inspect(new bson.Int32(n)));
            assert.strictEqual(util.inspect([new Int32(n)], { colors: true }), util.inspect([new bson.Int32(n)], { colors: true }));
            assert.strictEqual(new Int32(n).inspect(), new bson.Int32(n).inspect());
        }
        assert.strictEqual(util.inspect(new Int32(3)), 'new Int32(3)');
    });

    it('serializes through bson as an int32', function () {
        assert.deepStrictEqual(bson.serialize({ a: new Int32(-7) }), bson.serialize({ a: new bson.Int32(-7) }));
    });
});

describe('Double', function () {
    it('is a bson-compatible value', function () {
        const v = new Double(5);
        assert.strictEqual(v._bsontype, 'Double');
        assert.strictEqual(typeof Object.getOwnPropertyDescriptor(Double.prototype, '_bsontype').get, 'function');
        assert.strictEqual(v[Symbol.for('@@mdb.bson.version')], 7);
        assert.strictEqual(v[Symbol.for('@@mdb.bson.type')], 'Double');
        assert.deepStrictEqual(Object.keys(v), ['value']);
    });

    for (const input of constructorInputs) {
        it(`new Double(${util.inspect(input)}) matches bson`, function () {
            assert.ok(Object.is(new Double(input).value, new bson.Double(input).value));
        });
    }

    it('fromString agrees with bson on generated text', function () {
        fc.assert(fc.property(numericText, (s) => {
            assertSameValue(() => Double.fromString(s), () => bson.Double.fromString(s), JSON.stringify(s));
        }), { seed: 42, numRuns: 2000 });
    });

    it('fromString takes the special names and rejects whitespace and hex', function () {
        assert.ok(Number.isNaN(Double.fromString('NaN').value));
        assert.strictEqual(Double.fromString('-Infinity').value, -Infinity);
        assert.ok(Object.is(Double.fromString('-0').value, -0));
        assert.strictEqual(Double.fromString('1.5e3').value, 1500);
        assert.throws(() => Double.fromString(' 1'), BSONError);
        assert.throws(() => Double.fromString('0x10'), BSONError);
        assert.throws(() => Double.fromString(''), BSONError);
        assert.throws(() => Double.fromString('1e400'), BSONError);
    });

    it('valueOf, toString, toJSON match bson', function () {
        fc.assert(fc.property(fc.double(), (n) => {
            const ours = new Double(n);
            const theirs = new bson.Double(n);
            assert.ok(Object.is(ours.valueOf(), theirs.valueOf()));
            assert.strictEqual(ours.toString(), theirs.toString());
            assert.strictEqual(JSON.stringify({ a: ours }), JSON.stringify({ a: theirs }));
        }), { seed: 42, numRuns: 500 });
        assert.strictEqual(new Double(255).toString(16), 'ff');
    });

    it('inspects like bson', function () {
        for (const n of [0, -0, 1.5, 5, NaN, -Infinity, 1e300]) {
            assert.strictEqual(util.inspect(new Double(n)), util.inspect(new bson.Double(n)));
            assert.strictEqual(util.inspect([new Double(n)], { colors: true }), util.inspect([new bson.Double(n)], { colors: true }));
            assert.strictEqual(new Double(n).inspect(), new bson.Double(n).inspect());
        }
        assert.strictEqual(util.inspect(new Double(-0)), 'new Double(-0)');
    });

    it('serializes through bson as a double', function () {
        assert.deepStrictEqual(bson.serialize({ a: new Double(5) }), bson.serialize({ a: new bson.Double(5) }));
        assert.deepStrictEqual(bson.serialize({ a: new Double(-0) }), bson.serialize({ a: new bson.Double(-0) }));
    });
});
