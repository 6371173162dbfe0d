'use strict';

const assert = require('assert');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { Timestamp } = require('../lib/types/timestamp');
const { Long } = require('../lib/types/long');
const { Int32 } = require('../lib/types/int32');
const { BSONError } = require('../lib/errors');
const { assertSameOutcome } = require('./support/same-outcome');

const uint32 = fc.integer({ min: 0, max: 0xffffffff });

function bitsOf(value) {
    return { low: value.low, high: value.high, unsigned: value.unsigned };
}

function assertSame(ours, theirs, label) {
    assert.ok(ours instanceof Timestamp, `${label}: not a qbson Timestamp`);
    assert.deepStrictEqual(bitsOf(ours), bitsOf(theirs), label);
    assert.strictEqual(ours.t, theirs.t, `${label}: t`);
    assert.strictEqual(ours.i, theirs.i, `${label}: i`);
}

// Both throw (ours a BSONError with bson's message), or both build the same value.
function assertSameTimestamp(fnOurs, fnTheirs, label) {
    assertSameOutcome(fnOurs, fnTheirs, label, { sameMessage: true, compare: assertSame });
}

describe('Timestamp', function () {
    describe('shape', function () {
        it('is a Long with _bsontype Timestamp', function () {
            const ts = new Timestamp({ t: 1, i: 2 });
            assert.ok(ts instanceof Long);
            assert.strictEqual(ts._bsontype, 'Timestamp');
            assert.strictEqual(typeof Object.getOwnPropertyDescriptor(Timestamp.prototype, '_bsontype').get, 'function');
            assert.strictEqual(ts[Symbol.for('@@mdb.bson.type')], 'Timestamp');
            assert.strictEqual(ts[Symbol.for('@@mdb.bson.version')], 7);
        });

        it('has own low, high and unsigned like bson', function () {
            const ours = new Timestamp({ t: 0x80000001, i: 0xfffffffe });
            const theirs = new bson.Timestamp({ t: 0x80000001, i: 0xfffffffe });
            assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
            assert.deepStrictEqual(bitsOf(ours), bitsOf(theirs));
            assert.strictEqual(ours.high, 0x80000001 | 0);
            assert.strictEqual(ours.low, 0xfffffffe | 0);
        });

        it('serializes through bson like a bson Timestamp', function () {
            const ours = bson.serialize({ ts: new Timestamp({ t: 1700000000, i: 42 }) });
            const theirs = bson.serialize({ ts: new bson.Timestamp({ t: 1700000000, i: 42 }) });
            assert.deepStrictEqual(ours, theirs);
        });

        it('MAX_VALUE is the unsigned 64-bit maximum', function () {
            assert.deepStrictEqual(bitsOf(Timestamp.MAX_VALUE), bitsOf(bson.Timestamp.MAX_VALUE));
        });
    });

    describe('constructor', function () {
        it('takes { t, i } over the whole uint32 range', function () {
            fc.assert(fc.property(uint32, uint32, (t, i) => {
                assertSame(new Timestamp({ t, i }), new bson.Timestamp({ t, i }), `{t: ${t}, i: ${i}}`);
            }), { seed: 42, numRuns: 1000 });
        });

        it('takes a Long, a bson Long, a Timestamp and a bigint', function () {
            const long = Long.fromString('1234567890123', true);
            assertSame(new Timestamp(long), new bson.Timestamp(bson.Long.fromString('1234567890123', true)), 'Long');
            assertSame(new Timestamp(new bson.Long(-1, -1)), new bson.Timestamp(new bson.Long(-1, -1)), 'bson Long');
            assertSame(new Timestamp(new Timestamp({ t: 3, i: 4 })), new bson.Timestamp({ t: 3, i: 4 }), 'Timestamp');
            assertSame(new Timestamp(2n ** 40n + 9n), new bson.Timestamp(2n ** 40n + 9n), 'bigint');
            assertSame(new Timestamp(-1n), new bson.Timestamp(-1n), 'negative bigint');
            assertSame(new Timestamp(), new bson.Timestamp(), 'no argument');
            assertSame(new Timestamp(null), new bson.Timestamp(null), 'null');
        });

        it('takes Int32 parts', function () {
            assertSame(new Timestamp({ t: new Int32(5), i: new Int32(6) }), new bson.Timestamp({ t: new bson.Int32(5), i: new bson.Int32(6) }), 'Int32');
        });

        const rejected = [
            { t: -1, i: 0 },
            { t: 0, i: -1 },
            { t: NaN, i: 0 },
            { t: 0, i: NaN },
            { t: 2 ** 32, i: 0 },
            { t: 0, i: 2 ** 32 },
            { t: '5', i: 0 },
            { t: 0, i: '5' },
            { t: -1, i: 'x' },
            { t: 2 ** 32, i: -1 },
            { t: 5 },
            { t: 0n, i: 0 },
            { t: { _bsontype: 'Long' }, i: 0 },
            { t: Infinity, i: 0 },
        ];
        for (const value of rejected) {
            it(`rejects ${util.inspect(value)} with bson's BSONError`, function () {
                assertSameTimestamp(() => new Timestamp(value), () => new bson.Timestamp(value), util.inspect(value));
            });
        }

        for (const value of [5, '5', true, [1, 2]]) {
            it(`rejects ${util.inspect(value)} like bson@7`, function () {
                assertSameTimestamp(() => new Timestamp(value), () => new bson.Timestamp(value), util.inspect(value));
            });
        }

        it('rejects the old (low, high) form like bson@7', function () {
            assertSameTimestamp(() => new Timestamp(1, 2), () => new bson.Timestamp(1, 2), '(1, 2)');
        });

        it('truncates fractional parts like bson', function () {
            assertSame(new Timestamp({ t: 1.9, i: 2.5 }), new bson.Timestamp({ t: 1.9, i: 2.5 }), 'fractions');
        });
    });

    describe('statics', function () {
        it('fromBits takes uint32 halves and refuses negative ones', function () {
            fc.assert(fc.property(uint32, uint32, (lo, hi) => {
                assertSame(Timestamp.fromBits(lo, hi), bson.Timestamp.fromBits(lo, hi), 'fromBits');
            }), { seed: 42, numRuns: 500 });
            assertSameTimestamp(() => Timestamp.fromBits(-1, 0), () => bson.Timestamp.fromBits(-1, 0), 'negative low');
        });

        it('fromInt, fromNumber and fromString agree with bson', function () {
            for (const v of [0, 5, -1, 2 ** 31]) {
                assertSame(Timestamp.fromInt(v), bson.Timestamp.fromInt(v), `fromInt(${v})`);
            }
            for (const v of [0, 5.5, -1, 2 ** 40 + 3, 2 ** 64, NaN]) {
                assertSame(Timestamp.fromNumber(v), bson.Timestamp.fromNumber(v), `fromNumber(${v})`);
            }
            for (const [s, r] of [['123456789012', undefined], ['ffffffffffffffff', 16], ['-1', 10]]) {
                assertSame(Timestamp.fromString(s, r), bson.Timestamp.fromString(s, r), `fromString(${s}, ${r})`);
            }
        });
    });

    describe('output', function () {
        it('t and i read the unsigned halves', function () {
            const ts = new Timestamp(new Long(-2, -3));
            assert.strictEqual(ts.t, 0xfffffffd);
            assert.strictEqual(ts.i, 0xfffffffe);
        });

        it('toJSON and toString match bson', function () {
            fc.assert(fc.property(uint32, uint32, (t, i) => {
                const ours = new Timestamp({ t, i });
                const theirs = new bson.Timestamp({ t, i });
                assert.deepStrictEqual(ours.toJSON(), theirs.toJSON());
                assert.strictEqual(JSON.stringify({ ts: ours }), JSON.stringify({ ts: theirs }));
                assert.strictEqual(ours.toString(), theirs.toString());
            }), { seed: 42, numRuns: 500 });
        });

        it('inspects like bson', function () {
            for (const [t, i] of [[0, 0], [5, 7], [0xffffffff, 0x80000000]]) {
                const ours = new Timestamp({ t, i });
                const theirs = new bson.Timestamp({ t, i });
                assert.strictEqual(util.inspect(ours), util.inspect(theirs));
                assert.strictEqual(util.inspect([ours], { colors: true }), util.inspect([theirs], { colors: true }));
                assert.strictEqual(ours.inspect(), theirs.inspect());
            }
            assert.strictEqual(util.inspect(new Timestamp({ t: 5, i: 7 })), 'new Timestamp({ t: 5, i: 7 })');
        });

        it('compares like bson', function () {
            const a = new Timestamp({ t: 1, i: 0xffffffff });
            const b = new Timestamp({ t: 2, i: 0 });
            assert.strictEqual(a.compare(b), -1);
            assert.strictEqual(b.compare(a), 1);
            assert.ok(a.equals(new Timestamp({ t: 1, i: 0xffffffff })));
            assert.strictEqual(new Timestamp({ t: 0x80000000, i: 0 }).compare(new Timestamp({ t: 1, i: 0 })), 1);
        });
    });
});
