'use strict';

const assert = require('assert');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { Long } = require('../lib/types/long');
const { BSONError } = require('../lib/errors');
const { assertSameOutcome } = require('./support/same-outcome');

const RUNS = { seed: 42, numRuns: 2000 };

function bitsOf(long) {
    return { low: long.low, high: long.high, unsigned: long.unsigned };
}

function assertSame(ours, theirs, label) {
    assert.ok(ours instanceof Long, `${label}: not a qbson Long`);
    assert.deepStrictEqual(bitsOf(ours), bitsOf(theirs), label);
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const anyBigInt = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n });
const radixArb = fc.integer({ min: 2, max: 36 });
const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const pair = fc.tuple(int32, int32, fc.boolean());

// Both throw (ours a BSONError), or both give the same Long.
function assertSameLong(fnOurs, fnTheirs, label) {
    assertSameOutcome(fnOurs, fnTheirs, label, { compare: assertSame });
}

describe('Long', function () {
    describe('shape', function () {
        it('has low, high and unsigned as own properties in bson order', function () {
            const ours = new Long(5, 6, true);
            const theirs = new bson.Long(5, 6, true);
            assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
            assert.strictEqual(JSON.stringify(ours), JSON.stringify(theirs));
        });

        it('defines _bsontype as a prototype getter', function () {
            const desc = Object.getOwnPropertyDescriptor(Long.prototype, '_bsontype');
            assert.strictEqual(typeof desc.get, 'function');
            assert.strictEqual(new Long(1)._bsontype, 'Long');
            assert.ok(!Object.prototype.hasOwnProperty.call(new Long(1), '_bsontype'));
        });

        it('carries the bson version and type markers', function () {
            const long = new Long(1);
            assert.strictEqual(long[Symbol.for('@@mdb.bson.version')], 7);
            assert.strictEqual(long[Symbol.for('@@mdb.bson.type')], 'Long');
            assert.strictEqual(long.__isLong__, true);
        });

        it('is recognised by bson and recognises bson Longs', function () {
            assert.ok(bson.Long.isLong(new Long(1)));
            assert.ok(Long.isLong(new bson.Long(1)));
            assert.ok(!Long.isLong({ low: 1, high: 0 }));
            assert.ok(!Long.isLong(null));
            assert.ok(!Long.isLong(5));
        });

        it('serializes through bson like a bson Long', function () {
            for (const args of [[5, 0], [-1, -1], [0, -0x80000000], [123, 456, true]]) {
                const ours = bson.serialize({ a: new Long(...args) });
                const theirs = bson.serialize({ a: new bson.Long(...args) });
                assert.deepStrictEqual(ours, theirs, args.join());
            }
        });
    });

    describe('constructor', function () {
        const cases = [
            [],
            [5],
            [-5],
            [5, 6],
            [5, 6, true],
            [-1, -1, true],
            [4294967296, 0],
            [1.9, -2.5],
            [null],
            [undefined, 3],
            [5, '3'],
            [5, true],
            [5, false],
            ['123'],
            ['-123', true],
            ['18446744073709551615', true],
            ['NaN', true],
            ['Infinity'],
            [12345678901234567890n],
            [-5n, true],
            [2n ** 64n + 7n],
        ];
        for (const args of cases) {
            it(`new Long(${args.map(String).join(', ')})`, function () {
                assertSame(new Long(...args), new bson.Long(...args), 'constructor');
            });
        }

        it('throws BSONError for an empty string like bson', function () {
            assert.throws(() => new bson.Long(''), bson.BSONError);
            assert.throws(() => new Long(''), BSONError);
        });
    });

    describe('constants', function () {
        for (const name of ['ZERO', 'ONE', 'NEG_ONE', 'MAX_VALUE', 'MIN_VALUE', 'MAX_UNSIGNED_VALUE', 'UZERO', 'UONE', 'TWO_PWR_24']) {
            it(name, function () {
                assertSame(Long[name], bson.Long[name], name);
            });
        }
    });

    describe('fromInt and fromBits', function () {
        it('fromInt matches bson', function () {
            fc.assert(fc.property(fc.oneof(int32, fc.double()), fc.boolean(), (v, u) => {
                assertSame(Long.fromInt(v, u), bson.Long.fromInt(v, u), `fromInt(${v}, ${u})`);
            }), RUNS);
        });

        it('fromBits keeps the int32 halves', function () {
            fc.assert(fc.property(pair, ([lo, hi, u]) => {
                assertSame(Long.fromBits(lo, hi, u), bson.Long.fromBits(lo, hi, u), 'fromBits');
            }), RUNS);
            assertSame(Long.fromBits(0xffffffff, 0x80000000), bson.Long.fromBits(0xffffffff, 0x80000000), 'uint32 halves');
        });
    });

    describe('fromNumber', function () {
        const specials = [0, -0, 1.5, -1.5, NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63),
            2 ** 63 - 1024, 2 ** 64, 2 ** 64 - 2048, -(2 ** 63) - 2048, Number.MAX_VALUE, Number.MIN_VALUE, -1];
        for (const v of specials) {
            for (const u of [false, true]) {
                it(`fromNumber(${Object.is(v, -0) ? '-0' : v}, ${u})`, function () {
                    assertSame(Long.fromNumber(v, u), bson.Long.fromNumber(v, u), 'fromNumber');
                });
            }
        }

        it('matches bson on generated doubles', function () {
            const doubles = fc.oneof(
                fc.double(),
                fc.double({ min: -(2 ** 65), max: 2 ** 65 }),
                fc.integer().map((n) => n * 4096),
                fc.maxSafeInteger()
            );
            fc.assert(fc.property(doubles, fc.boolean(), (v, u) => {
                assertSame(Long.fromNumber(v, u), bson.Long.fromNumber(v, u), `fromNumber(${v}, ${u})`);
            }), RUNS);
        });
    });

    describe('fromBigInt and toBigInt', function () {
        it('fromBigInt keeps the low 64 bits like bson', function () {
            fc.assert(fc.property(anyBigInt, fc.boolean(), (v, u) => {
                assertSame(Long.fromBigInt(v, u), bson.Long.fromBigInt(v, u), `fromBigInt(${v}, ${u})`);
            }), RUNS);
        });

        it('round-trips signed and unsigned values through toBigInt', function () {
            fc.assert(fc.property(int64, (v) => {
                assert.strictEqual(Long.fromBigInt(v).toBigInt(), v);
            }), RUNS);
            fc.assert(fc.property(uint64, (v) => {
                assert.strictEqual(Long.fromBigInt(v, true).toBigInt(), v);
            }), RUNS);
        });

        it('toBigInt agrees with bson', function () {
            fc.assert(fc.property(pair, ([lo, hi, u]) => {
                assert.strictEqual(new Long(lo, hi, u).toBigInt(), new bson.Long(lo, hi, u).toBigInt());
            }), RUNS);
        });
    });

    describe('toNumber', function () {
        it('rounds like bson', function () {
            fc.assert(fc.property(pair, ([lo, hi, u]) => {
                assert.strictEqual(new Long(lo, hi, u).toNumber(), new bson.Long(lo, hi, u).toNumber());
            }), RUNS);
        });

        it('is exact for safe integers', function () {
            fc.assert(fc.property(fc.maxSafeInteger(), (n) => {
                assert.strictEqual(Long.fromNumber(n).toNumber(), n);
            }), RUNS);
        });
    });

    describe('fromString and toString', function () {
        it('agrees with bson on canonical text in every radix', function () {
            fc.assert(fc.property(fc.oneof(int64, uint64), radixArb, fc.boolean(), (v, radix, u) => {
                const text = v.toString(radix);
                const ours = Long.fromString(text, u, radix);
                assertSame(ours, bson.Long.fromString(text, u, radix), `fromString(${text}, ${u}, ${radix})`);
                assert.strictEqual(ours.toString(radix), bson.Long.fromString(text, u, radix).toString(radix));
            }), RUNS);
        });

        it('toString agrees with bson for every radix', function () {
            fc.assert(fc.property(pair, radixArb, ([lo, hi, u], radix) => {
                assert.strictEqual(new Long(lo, hi, u).toString(radix), new bson.Long(lo, hi, u).toString(radix));
            }), RUNS);
        });

        it('round-trips in range values', function () {
            fc.assert(fc.property(int64, radixArb, (v, radix) => {
                assert.strictEqual(Long.fromString(v.toString(radix), radix).toString(radix), v.toString(radix));
            }), RUNS);
            fc.assert(fc.property(uint64, radixArb, (v, radix) => {
                assert.strictEqual(Long.fromString(v.toString(radix), true, radix).toString(radix), v.toString(radix));
            }), RUNS);
        });

        it('wraps out-of-range text exactly as bson does', function () {
            const wide = fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n });
            fc.assert(fc.property(wide, radixArb, fc.boolean(), (v, radix, u) => {
                const text = v.toString(radix);
                assertSameLong(() => Long.fromString(text, u, radix), () => bson.Long.fromString(text, u, radix), text);
            }), RUNS);
        });

        it('treats malformed text exactly as bson does', function () {
            const alphabet = fc.constantFrom(...'0123456789abcdefxyzXYZ-+ .'.split(''));
            const text = fc.oneof(
                fc.string({ unit: alphabet, maxLength: 30 }),
                fc.constantFrom('NaN', 'Infinity', '+Infinity', '-Infinity', '', '-', '--5', '0x1f', '1e5', ' 5', '5 ')
            );
            const radix = fc.oneof(radixArb, fc.constantFrom(undefined, 0, 1, 37));
            fc.assert(fc.property(text, fc.boolean(), radix, (s, u, r) => {
                assertSameLong(() => Long.fromString(s, u, r), () => bson.Long.fromString(s, u, r),
                    `fromString(${JSON.stringify(s)}, ${u}, ${r})`);
            }), RUNS);
        });

        it('accepts a radix as the second argument (signed)', function () {
            assertSame(Long.fromString('ff', 16), bson.Long.fromString('ff', 16), 'ff/16');
            assertSame(Long.fromString('-zz', 36), bson.Long.fromString('-zz', 36), '-zz/36');
        });

        it('rejects a radix outside 2..36 with BSONError', function () {
            assert.throws(() => Long.fromString('1', false, 37), BSONError);
            assert.throws(() => Long.fromString('1', false, 1), BSONError);
            assert.throws(() => new Long(5).toString(37), BSONError);
            assert.throws(() => new Long(5).toString(1), BSONError);
        });

        it('rejects an interior hyphen with BSONError', function () {
            assert.throws(() => Long.fromString('5-3'), BSONError);
        });

        it('prints the extremes', function () {
            assert.strictEqual(Long.MIN_VALUE.toString(), '-9223372036854775808');
            assert.strictEqual(Long.MAX_VALUE.toString(16), '7fffffffffffffff');
            assert.strictEqual(Long.MAX_UNSIGNED_VALUE.toString(), '18446744073709551615');
            assert.strictEqual(Long.MIN_VALUE.toString(2), '-1' + '0'.repeat(63));
        });
    });

    describe('fromStringStrict', function () {
        const inputs = [['123'], ['-123'], ['+00123'], ['9223372036854775808'], ['18446744073709551615', true],
            ['18446744073709551616', true], [' 1'], ['1a'], ['ff', 16], ['-0'], ['0'], ['-80000000', 16]];
        for (const args of inputs) {
            it(`fromStringStrict(${args.map((a) => JSON.stringify(a)).join(', ')})`, function () {
                assertSameLong(() => Long.fromStringStrict(...args), () => bson.Long.fromStringStrict(...args), 'strict');
            });
        }
    });

    describe('fromValue', function () {
        it('converts numbers, strings and long-like objects like bson', function () {
            for (const [v, u] of [[5, undefined], [-5, true], ['77', undefined], ['-1', true],
                [{ low: 1, high: 2 }, undefined], [{ low: 1, high: 2, unsigned: true }, undefined],
                [{ low: 1, high: 2, unsigned: true }, false]]) {
                assertSame(Long.fromValue(v, u), bson.Long.fromValue(v, u), JSON.stringify(v));
            }
        });
    });

    describe('fromBytes and toBytes', function () {
        it('round-trip both byte orders like bson', function () {
            fc.assert(fc.property(pair, fc.boolean(), ([lo, hi, u], le) => {
                const bytes = new bson.Long(lo, hi, u).toBytes(le);
                assert.deepStrictEqual(new Long(lo, hi, u).toBytes(le), bytes);
                assertSame(Long.fromBytes(bytes, u, le), bson.Long.fromBytes(bytes, u, le), 'fromBytes');
            }), { seed: 42, numRuns: 500 });
        });
    });

    describe('comparison', function () {
        const edge = fc.constantFrom(
            [0, 0], [1, 0], [-1, -1], [0, -0x80000000], [-1, 0x7fffffff], [10, -0x80000000], [5, 0]
        );
        const operand = fc.tuple(fc.oneof(pair.map(([lo, hi]) => [lo, hi]), edge), fc.boolean());

        it('equals, compare and the ordering aliases agree with bson', function () {
            fc.assert(fc.property(operand, operand, ([[al, ah], au], [bl, bh], bu) => {
                const [qa, qb] = [new Long(al, ah, au), new Long(bl, bh, bu)];
                const [ba, bb] = [new bson.Long(al, ah, au), new bson.Long(bl, bh, bu)];
                for (const m of ['equals', 'compare', 'lessThan', 'lte', 'gt', 'gte', 'ne']) {
                    assert.strictEqual(qa[m](qb), ba[m](bb), m);
                }
            }), RUNS);
        });

        it('compares against numbers and strings', function () {
            assert.strictEqual(new Long(5).compare(5), 0);
            assert.strictEqual(new Long(5).compare('6'), -1);
            assert.ok(new Long(5).equals(5));
            assert.ok(Long.MAX_UNSIGNED_VALUE.gt(Long.MAX_VALUE));
        });

        it('keeps bson\'s mixed-signedness answer', function () {
            const small = Long.fromNumber(5);
            const big = Long.fromString('9223372036854775818', true);
            const bsmall = bson.Long.fromNumber(5);
            const bbig = bson.Long.fromString('9223372036854775818', true);
            assert.strictEqual(small.compare(big), bsmall.compare(bbig));
            assert.strictEqual(big.compare(small), bbig.compare(bsmall));
        });

        it('isZero, isNegative, isPositive, isOdd, isEven agree with bson', function () {
            fc.assert(fc.property(operand, ([[lo, hi], u]) => {
                const q = new Long(lo, hi, u);
                const b = new bson.Long(lo, hi, u);
                for (const m of ['isZero', 'isNegative', 'isPositive', 'isOdd', 'isEven', 'toInt', 'getNumBitsAbs']) {
                    assert.strictEqual(q[m](), b[m](), m);
                }
            }), { seed: 42, numRuns: 500 });
        });
    });

    describe('arithmetic', function () {
        const operand = fc.tuple(fc.oneof(int32, fc.constantFrom(0, 1, -1)), fc.oneof(int32, fc.constantFrom(0, -1, -0x80000000)), fc.boolean());

        it('add, subtract, multiply, divide, modulo agree with bson', function () {
            fc.assert(fc.property(operand, operand, ([al, ah, au], [bl, bh, bu]) => {
                const [qa, qb] = [new Long(al, ah, au), new Long(bl, bh, bu)];
                const [ba, bb] = [new bson.Long(al, ah, au), new bson.Long(bl, bh, bu)];
                for (const m of ['add', 'subtract', 'multiply', 'and', 'or', 'xor']) {
                    assertSame(qa[m](qb), ba[m](bb), m);
                }
                if (!bb.isZero()) {
                    assertSame(qa.divide(qb), ba.divide(bb), 'divide');
                    assertSame(qa.modulo(qb), ba.modulo(bb), 'modulo');
                }
            }), RUNS);
        });

        it('divides the signed edge cases like bson', function () {
            for (const [a, b] of [[Long.MIN_VALUE, Long.NEG_ONE], [Long.fromBits(5, -0x80000000), Long.NEG_ONE],
                [Long.MIN_VALUE, Long.ONE], [Long.MIN_VALUE, Long.MIN_VALUE], [Long.ZERO, Long.fromInt(7)]]) {
                const ba = bson.Long.fromBits(a.low, a.high, a.unsigned);
                const bb = bson.Long.fromBits(b.low, b.high, b.unsigned);
                assertSame(a.divide(b), ba.divide(bb), `${a} / ${b}`);
            }
            assert.throws(() => Long.ONE.divide(Long.ZERO), BSONError);
        });

        it('negate, not and shifts agree with bson', function () {
            fc.assert(fc.property(operand, fc.integer({ min: -70, max: 70 }), ([lo, hi, u], n) => {
                const q = new Long(lo, hi, u);
                const b = new bson.Long(lo, hi, u);
                assertSame(q.negate(), b.negate(), 'negate');
                assertSame(q.not(), b.not(), 'not');
                assertSame(q.shiftLeft(n), b.shiftLeft(n), 'shiftLeft');
                assertSame(q.shiftRight(n), b.shiftRight(n), 'shiftRight');
                assertSame(q.shiftRightUnsigned(n), b.shiftRightUnsigned(n), 'shiftRightUnsigned');
                assertSame(q.toSigned(), b.toSigned(), 'toSigned');
                assertSame(q.toUnsigned(), b.toUnsigned(), 'toUnsigned');
            }), RUNS);
        });

        it('accepts numbers and strings as operands', function () {
            assert.strictEqual(new Long(5).add(3).toString(), '8');
            assert.strictEqual(new Long(5).multiply('-3').toString(), '-15');
            assert.strictEqual(Long.MAX_VALUE.add(1).toString(), Long.MIN_VALUE.toString());
        });
    });

    describe('inspect', function () {
        const values = [[5], [-5], [0, 0, true], [-1, -1, true], [0, -0x80000000]];
        for (const args of values) {
            it(`prints new Long(${args.join(', ')}) like bson`, function () {
                const ours = new Long(...args);
                const theirs = new bson.Long(...args);
                assert.strictEqual(util.inspect(ours), util.inspect(theirs));
                assert.strictEqual(util.inspect({ x: [ours] }), util.inspect({ x: [theirs] }));
                assert.strictEqual(util.inspect(ours, { colors: true }), util.inspect(theirs, { colors: true }));
                assert.strictEqual(ours.inspect(), theirs.inspect());
            });
        }

        it('uses the forms bson uses', function () {
            assert.strictEqual(util.inspect(new Long('5')), "new Long('5')");
            assert.strictEqual(new Long('5').inspect(), 'new Long("5")');
            assert.strictEqual(util.inspect(Long.fromString('7', true)), "new Long('7', true)");
        });
    });

    describe('JSON', function () {
        it('stringifies like a bson Long (no toJSON)', function () {
            assert.strictEqual(Long.prototype.toJSON, bson.Long.prototype.toJSON);
            assert.strictEqual(JSON.stringify({ a: new Long(-1, 7, true) }), JSON.stringify({ a: new bson.Long(-1, 7, true) }));
        });
    });
});
