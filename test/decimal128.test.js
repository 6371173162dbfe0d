'use strict';

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { Decimal128 } = require('../lib/types/decimal128');
const { BSONError } = require('../lib/errors');

const CORPUS_DIR = path.join(__dirname, 'data', 'bson-corpus');
const RUNS = { seed: 42, numRuns: 2000 };

const EXPONENT_MIN = -6176;
const EXPONENT_MAX = 6111;
const MAX_COEFFICIENT = 10n ** 34n - 1n;

// ---- an independent model of the spec, used as the oracle below ----

// The spec grammar for finite numbers, with the value as coefficient * 10^exponent.
function specValue(text) {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
    if (!m || (m[2] + (m[3] || '')) === '') return null;
    const fraction = m[3] || '';
    return {
        negative: m[1] === '-',
        coefficient: BigInt(m[2] + fraction),
        exponent: Number(m[4] || 0) - fraction.length,
        length: (m[2] + fraction).replace(/^0+/, '').length,
    };
}

function digitCount(n) {
    return n === 0n ? 1 : n.toString().length;
}

// What an exact conversion must produce: { negative, coefficient, exponent }, or null if it must fail.
function specExact(text) {
    const v = specValue(text);
    if (v === null) return null;
    let { coefficient, exponent } = v;
    if (coefficient === 0n) {
        return { negative: v.negative, coefficient, exponent: Math.min(Math.max(exponent, EXPONENT_MIN), EXPONENT_MAX) };
    }
    while (digitCount(coefficient) > 34 || exponent < EXPONENT_MIN) {
        if (coefficient % 10n !== 0n) return null;
        coefficient /= 10n;
        exponent += 1;
    }
    while (exponent > EXPONENT_MAX && coefficient <= MAX_COEFFICIENT) {
        coefficient *= 10n;
        exponent -= 1;
    }
    if (coefficient > MAX_COEFFICIENT) return null;
    return { negative: v.negative, coefficient, exponent };
}

// What fromStringWithRounding must produce: one half-to-even rounding, then clamping.
function specRounded(text) {
    const v = specValue(text);
    if (v === null) return null;
    let { coefficient, exponent } = v;
    if (coefficient === 0n) return specExact(text);
    const drop = Math.max(digitCount(coefficient) - 34, EXPONENT_MIN - exponent, 0);
    if (drop > digitCount(coefficient) + 1) {
        // far below half a unit of the smallest exponent
        coefficient = 0n;
        exponent = EXPONENT_MIN;
    } else if (drop > 0) {
        const unit = 10n ** BigInt(drop);
        let q = coefficient / unit;
        const twice = 2n * (coefficient % unit);
        if (twice > unit || (twice === unit && q % 2n === 1n)) q += 1n;
        coefficient = q;
        exponent += drop;
        if (coefficient > MAX_COEFFICIENT) {
            coefficient /= 10n;
            exponent += 1;
        }
    }
    while (exponent > EXPONENT_MAX && coefficient * 10n <= MAX_COEFFICIENT) {
        coefficient *= 10n;
        exponent -= 1;
    }
    if (exponent > EXPONENT_MAX) return null;
    return { negative: v.negative, coefficient, exponent };
}

function specBytes({ negative, coefficient, exponent }) {
    const high = (negative ? 1n << 63n : 0n) | (BigInt(exponent + 6176) << 49n) | (coefficient >> 64n);
    const low = coefficient & ((1n << 64n) - 1n);
    const bytes = Buffer.alloc(16);
    bytes.writeBigUInt64LE(low, 0);
    bytes.writeBigUInt64LE(high, 8);
    return bytes;
}

// The spec's to-string rules, straight from the 128-bit integer.
function specString(bytes) {
    const whole = (Buffer.from(bytes).readBigUInt64LE(8) << 64n) | Buffer.from(bytes).readBigUInt64LE(0);
    const sign = whole >> 127n ? '-' : '';
    const g = (whole >> 122n) & 0x1fn;
    if (g === 0x1fn) return 'NaN';
    if (g === 0x1en) return sign + 'Infinity';
    let exponent;
    let coefficient;
    if (((whole >> 125n) & 3n) === 3n) {
        exponent = Number((whole >> 111n) & 0x3fffn) - 6176;
        coefficient = 0n;
    } else {
        exponent = Number((whole >> 113n) & 0x3fffn) - 6176;
        coefficient = whole & ((1n << 113n) - 1n);
        if (coefficient > MAX_COEFFICIENT) coefficient = 0n;
    }
    const digits = coefficient.toString();
    const adjusted = exponent + digits.length - 1;
    if (exponent <= 0 && adjusted >= -6) {
        if (exponent === 0) return sign + digits;
        const padded = digits.padStart(-exponent + 1, '0');
        return sign + padded.slice(0, padded.length + exponent) + '.' + padded.slice(padded.length + exponent);
    }
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return sign + mantissa + 'E' + (adjusted >= 0 ? '+' : '-') + Math.abs(adjusted);
}

function isNonCanonical(bytes) {
    const b = Buffer.from(bytes);
    const whole = (b.readBigUInt64LE(8) << 64n) | b.readBigUInt64LE(0);
    if (((whole >> 125n) & 3n) === 3n) return ((whole >> 122n) & 0x1en) !== 0x1en;
    return (whole & ((1n << 113n) - 1n)) > MAX_COEFFICIENT;
}

function outcome(fn) {
    try {
        return { bytes: Buffer.from(fn().bytes) };
    } catch (err) {
        return { error: err };
    }
}

function hex(result) {
    return result.error ? `throws ${result.error.message}` : result.bytes.toString('hex');
}

// Ours has already been checked against the spec model; where bson answers
// differently it must be bson that departs from the spec (never for the
// special names, which the model leaves to these two to agree on).
function assertOnlyBsonDeparts(text, ours, theirs, expected, special) {
    if (ours.error && theirs.error) return;
    if (!ours.error && !theirs.error && ours.bytes.equals(theirs.bytes)) return;
    const label = `${JSON.stringify(text)}: ours ${hex(ours)}, bson ${hex(theirs)}`;
    assert.ok(!special, label);
    const specAnswer = expected === null ? 'throws' : specBytes(expected).toString('hex');
    assert.notStrictEqual(theirs.error ? 'throws' : theirs.bytes.toString('hex'), specAnswer, label);
}

// ---- generators ----

const digit = fc.oneof(fc.constant('0'), fc.constantFrom(...'0123456789'));
const digitRun = (max) => fc.string({ unit: digit, maxLength: max, size: 'max' });
// 2 to 35 digits, first and last non-zero
const significandText = fc.tuple(fc.constantFrom(...'123456789'), digitRun(33), fc.constantFrom(...'123456789'))
    .map(([first, middle, last]) => first + middle + last);
const exponentArb = fc.oneof(
    fc.integer({ min: -40, max: 40 }),
    fc.integer({ min: -6260, max: -6100 }),
    fc.integer({ min: 6050, max: 6160 }),
    fc.integer({ min: -40000, max: 40000 }),
    fc.constantFrom(-1e12, 1e12)
);
const exponentText = fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+'), fc.constantFrom('', '0', '000'), exponentArb)
    .map(([e, plus, zeros, n]) => e + (n < 0 ? '-' : plus) + zeros + String(Math.abs(n)));
const decimalText = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom('', '', '+', '-'), digitRun(40), fc.option(digitRun(40)), fc.option(exponentText))
        .map(([sign, int, frac, exp]) => sign + int + (frac === null ? '' : '.' + frac) + (exp || '')) },
    // up to 34 significant digits among zeros on both sides, the point anywhere
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('', '-'), fc.nat(3), significandText, fc.nat(12), fc.nat(60), fc.option(exponentText))
        .map(([sign, lead, significand, zeros, pointAt, exp]) => {
            const body = '0'.repeat(lead) + significand + '0'.repeat(zeros);
            const withPoint = pointAt > body.length ? body : body.slice(0, pointAt) + '.' + body.slice(pointAt);
            return sign + withPoint + (exp || '');
        }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', '+', '-'), fc.constantFrom('inf', 'Inf', 'INFINITY', 'infinity', 'nan', 'NaN', 'NAN', 'snan', 'infinit', 'nan1'))
        .map(([sign, word]) => sign + word) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789.eE+-in ax'.split('')), maxLength: 12 }) }
);

// 16 bytes with every exponent region and both coefficient encodings well represented.
const decimalBytes = fc.oneof(
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
    fc.tuple(fc.uint8Array({ minLength: 16, maxLength: 16 }), fc.integer({ min: -60, max: 20 }), fc.boolean(), fc.boolean())
        .map(([b, exponent, negative, elevenForm]) => {
            const out = Buffer.from(b);
            const biased = exponent + 6176;
            let top = elevenForm ? (0x60000000 | (biased << 15) | (out[13] & 0x40 ? 0x4000 : 0) | (out.readUInt16LE(12) & 0x3fff))
                : ((biased << 17) | (out.readUInt32LE(12) & (out[14] & 1 ? 0x1ffff : 0x3ff)));
            if (negative) top |= 0x80000000;
            out.writeUInt32LE(top >>> 0, 12);
            return out;
        })
);

// ---- tests ----

describe('Decimal128', function () {
    describe('spec corpus', function () {
        const files = fs.readdirSync(CORPUS_DIR).filter((f) => /^decimal128-\d+\.json$/.test(f)).sort();
        it('has the decimal128 corpus files', function () {
            assert.strictEqual(files.length, 7);
        });

        for (const file of files) {
            const suite = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'));
            describe(file, function () {
                for (const c of suite.valid || []) {
                    it(c.description, function () {
                        const doc = Buffer.from(c.canonical_bson, 'hex');
                        assert.strictEqual(doc.length, 24);
                        assert.strictEqual(doc[4], 0x13);
                        assert.strictEqual(doc.toString('latin1', 5, 7), 'd\0');
                        const bytes = doc.subarray(7, 23);
                        const text = JSON.parse(c.canonical_extjson).d.$numberDecimal;

                        assert.strictEqual(new Decimal128(bytes).toString(), text);
                        if (!c.lossy) {
                            assert.deepStrictEqual(Decimal128.fromString(text).bytes, bytes);
                            assert.deepStrictEqual(new Decimal128(text).bytes, bytes);
                        }
                        if (c.degenerate_extjson && !c.lossy) {
                            const degenerate = JSON.parse(c.degenerate_extjson).d.$numberDecimal;
                            assert.deepStrictEqual(Decimal128.fromString(degenerate).bytes, bytes);
                        }
                    });
                }
                for (const c of suite.parseErrors || []) {
                    it(`parse error: ${c.description}`, function () {
                        assert.throws(() => Decimal128.fromString(c.string), (err) => err instanceof BSONError && err.name === 'BSONError');
                    });
                }
            });
        }
    });

    describe('toString', function () {
        it('follows the spec and agrees with bson on generated bytes', function () {
            fc.assert(fc.property(decimalBytes, (b) => {
                const ours = new Decimal128(Buffer.from(b)).toString();
                assert.strictEqual(ours, specString(b));
                const theirs = new bson.Decimal128(Buffer.from(b)).toString();
                if (ours !== theirs) {
                    // bson prints a non-canonical (over 34 digit) coefficient in plain notation instead of as zero
                    assert.ok(isNonCanonical(b) && theirs !== specString(b), `${Buffer.from(b).toString('hex')}: ${ours} vs bson ${theirs}`);
                }
            }), RUNS);
        });

        it('reads a non-canonical coefficient as zero, where bson prints its digits', function () {
            // coefficient 2^113 - 1 (35 digits) with exponent -5
            const bytes = Buffer.from('ffffffffffffffffffffffffffff3730', 'hex');
            assert.strictEqual(new Decimal128(bytes).toString(), '0.00000');
            assert.strictEqual(new bson.Decimal128(bytes).toString(), '103845937170696552570609926584.40191');
        });

        it('prints the corner forms', function () {
            const cases = [['0', '0'], ['-0', '-0'], ['0.000001', '0.000001'], ['0.0000001', '1E-7'], ['1E+3', '1E+3'],
                ['100', '100'], ['-1.00E-8', '-1.00E-8'], ['1234567890123456789012345678901234', '1234567890123456789012345678901234'],
                ['0E-6176', '0E-6176'], ['9.999999999999999999999999999999999E+6144', '9.999999999999999999999999999999999E+6144']];
            for (const [input, text] of cases) assert.strictEqual(Decimal128.fromString(input).toString(), text, input);
        });

        it('prints coefficients around 2^53 and 2^64 exactly', function () {
            for (const c of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 64n + 1n, MAX_COEFFICIENT]) {
                const bytes = specBytes({ negative: false, coefficient: c, exponent: 0 });
                assert.strictEqual(new Decimal128(bytes).toString(), c.toString());
            }
        });

        it('reads a Uint8Array view at an offset', function () {
            const backing = new Uint8Array(40);
            backing.set(Decimal128.fromString('-12.5').bytes, 10);
            assert.strictEqual(new Decimal128(backing.subarray(10, 26)).toString(), '-12.5');
        });
    });

    describe('fromString', function () {
        it('follows the spec and agrees with bson on generated text', function () {
            fc.assert(fc.property(decimalText, (text) => {
                const ours = outcome(() => Decimal128.fromString(text));
                const expected = specExact(text);
                const special = /^[+-]?(inf|infinity|nan)$/i.test(text);
                if (expected !== null) {
                    assert.ok(!ours.error, `${text}: ${hex(ours)}`);
                    assert.deepStrictEqual(ours.bytes, specBytes(expected), text);
                } else if (!special) {
                    assert.ok(ours.error instanceof BSONError, `${text} should throw: ${hex(ours)}`);
                }

                assertOnlyBsonDeparts(text, ours, outcome(() => bson.Decimal128.fromString(text)), expected, special);
            }), RUNS);
        });

        it('round-trips every canonical value through toString', function () {
            const value = fc.record({
                negative: fc.boolean(),
                coefficient: fc.oneof(fc.bigInt({ min: 0n, max: MAX_COEFFICIENT }), fc.bigInt({ min: 0n, max: 10n ** 6n }),
                    fc.bigInt({ min: 2n ** 52n, max: 2n ** 66n })),
                exponent: fc.oneof(fc.integer({ min: EXPONENT_MIN, max: EXPONENT_MAX }), fc.integer({ min: -40, max: 10 })),
            });
            fc.assert(fc.property(value, (v) => {
                const bytes = specBytes(v);
                const text = new Decimal128(bytes).toString();
                assert.strictEqual(text, new bson.Decimal128(bytes).toString());
                assert.deepStrictEqual(Decimal128.fromString(text).bytes, bytes, text);
            }), RUNS);
        });

        it('accepts the spec forms', function () {
            const cases = [['017.', '17'], ['.5', '0.5'], ['+0.003', '0.003'], ['4E+9', '4E+9'], ['0.73e-7', '7.3E-8'],
                ['Inf', 'Infinity'], ['-infinity', '-Infinity'], ['NaN', 'NaN'], ['-nan', 'NaN'], ['12.70', '12.70'],
                ['1e+0006', '1E+6'], ['0e-0', '0']];
            for (const [input, text] of cases) assert.strictEqual(Decimal128.fromString(input).toString(), text, input);
        });

        it('rejects a sign alone, which bson reads as zero', function () {
            assert.throws(() => Decimal128.fromString('+'), BSONError);
            assert.throws(() => Decimal128.fromString('-'), BSONError);
            assert.strictEqual(bson.Decimal128.fromString('-').toString(), '-0');
        });

        it('accepts exact values that bson rejects for leading zeros or a point', function () {
            const text = '0.' + '1'.repeat(34) + '0';
            assert.strictEqual(Decimal128.fromString(text).toString(), '0.' + '1'.repeat(34));
            assert.strictEqual(Decimal128.fromString('00' + '1'.repeat(34) + '0').toString(), '1.' + '1'.repeat(33) + 'E+34');
            assert.throws(() => bson.Decimal128.fromString(text), bson.BSONError);
        });

        it('rejects an inexact value that bson silently truncates', function () {
            const text = '0500000000.000000000000000000000000009';
            assert.throws(() => Decimal128.fromString(text), /inexact/);
            assert.strictEqual(bson.Decimal128.fromString(text).toString(), '500000000.0000000000000000000000000');
        });

        it('rejects a far-too-small exponent, which bson turns into the smallest one', function () {
            assert.throws(() => Decimal128.fromString('1e-20000'), BSONError);
            assert.strictEqual(bson.Decimal128.fromString('1e-20000').toString(), '1E-6176');
            assert.strictEqual(Decimal128.fromString('0e-99999999999999999999').toString(), '0E-6176');
        });

        it('clamps and reports overflow and underflow', function () {
            assert.strictEqual(Decimal128.fromString('1E+6144').toString(), '1.000000000000000000000000000000000E+6144');
            assert.strictEqual(Decimal128.fromString('10E-6177').toString(), '1E-6176');
            assert.throws(() => Decimal128.fromString('1E+6145'), /overflow/);
            assert.throws(() => Decimal128.fromString('1E-6177'), /underflow/);
            assert.throws(() => Decimal128.fromString('1' + '1'.repeat(34)), /inexact/);
        });

        it('names the input in its errors and rejects non-strings with BSONError', function () {
            assert.throws(() => Decimal128.fromString('12x'), (err) => err instanceof BSONError && err.message.includes('"12x"'));
            assert.throws(() => Decimal128.fromString(12), BSONError);
        });

        it('handles very long input in linear time', function () {
            const text = '0.' + '0'.repeat(100000) + '1' + 'e100010';
            assert.strictEqual(Decimal128.fromString(text).toString(), '1E+9');
            // the preferred exponent keeps as many of the zeros as fit in 34 digits
            assert.strictEqual(Decimal128.fromString('1' + '0'.repeat(100000) + 'e-100000').toString(), '1.' + '0'.repeat(33));
        });
    });

    describe('fromStringWithRounding', function () {
        it('rounds half to even once, as the spec says, and agrees with bson inside the exponent range', function () {
            fc.assert(fc.property(decimalText, (text) => {
                const ours = outcome(() => Decimal128.fromStringWithRounding(text));
                const expected = specRounded(text);
                const special = /^[+-]?(inf|infinity|nan)$/i.test(text);
                if (expected !== null) {
                    assert.ok(!ours.error, `${text}: ${hex(ours)}`);
                    assert.deepStrictEqual(ours.bytes, specBytes(expected), text);
                } else if (!special) {
                    assert.ok(ours.error instanceof BSONError, `${text} should throw: ${hex(ours)}`);
                }

                assertOnlyBsonDeparts(text, ours, outcome(() => bson.Decimal128.fromStringWithRounding(text)), expected, special);
            }), RUNS);
        });

        it('rounds on the right digit when the point follows it, where bson does not', function () {
            const text = '9' + '0'.repeat(33) + '5.5';
            assert.strictEqual(Decimal128.fromStringWithRounding(text).toString(), '9.000000000000000000000000000000001E+34');
            assert.strictEqual(bson.Decimal128.fromStringWithRounding(text).toString(), '9.000000000000000000000000000000000E+34');
        });

        it('rounds the corpus inexact cases', function () {
            assert.strictEqual(Decimal128.fromStringWithRounding('1.11111111111111111111111111111234550').toString(),
                '1.111111111111111111111111111112346');
            assert.strictEqual(Decimal128.fromStringWithRounding('-1.11111111111111111111111111111234549').toString(),
                '-1.111111111111111111111111111112345');
            assert.strictEqual(Decimal128.fromStringWithRounding('1111111111111111111111111111111110.5').toString(),
                '1111111111111111111111111111111110');
            assert.strictEqual(Decimal128.fromStringWithRounding('9'.repeat(35)).toString(), '1.000000000000000000000000000000000E+35');
        });

        it('rounds below the smallest exponent toward the nearest, where bson keeps the digit', function () {
            assert.strictEqual(Decimal128.fromStringWithRounding('1E-6177').toString(), '0E-6176');
            assert.strictEqual(Decimal128.fromStringWithRounding('5E-6177').toString(), '0E-6176');
            assert.strictEqual(Decimal128.fromStringWithRounding('6E-6177').toString(), '1E-6176');
            assert.strictEqual(Decimal128.fromStringWithRounding('15E-6177').toString(), '2E-6176');
            assert.strictEqual(Decimal128.fromStringWithRounding('-123E-6180').toString(), '-0E-6176');
            assert.strictEqual(bson.Decimal128.fromStringWithRounding('5E-6177').toString(), '5E-6176');
        });

        it('reports overflow after rounding, where bson answers Infinity', function () {
            assert.throws(() => Decimal128.fromStringWithRounding('9'.repeat(35) + 'E6110'), /overflow/);
            assert.strictEqual(bson.Decimal128.fromStringWithRounding('9'.repeat(35) + 'E6110').toString(), 'Infinity');
        });
    });

    describe('constructor', function () {
        it('keeps the given bytes without copying', function () {
            const bytes = Buffer.alloc(16);
            assert.strictEqual(new Decimal128(bytes).bytes, bytes);
            const plain = new Uint8Array(16);
            assert.strictEqual(new Decimal128(plain).bytes, plain);
            assert.deepStrictEqual(Object.keys(new Decimal128(bytes)), ['bytes']);
        });

        it('parses a string', function () {
            assert.deepStrictEqual(new Decimal128('1.5').bytes, Buffer.from(new bson.Decimal128('1.5').bytes));
            assert.throws(() => new Decimal128('x'), BSONError);
        });

        it('rejects what bson rejects, with BSONError', function () {
            for (const bad of [new Uint8Array(15), Buffer.alloc(17), new Uint8ClampedArray(16), [1, 2], null, undefined, 5, {}]) {
                assert.throws(() => new bson.Decimal128(bad), bson.BSONError);
                assert.throws(() => new Decimal128(bad), BSONError, util.inspect(bad));
            }
        });

        it('fresh bytes for every special value', function () {
            const a = Decimal128.fromString('NaN');
            const b = Decimal128.fromString('NaN');
            assert.notStrictEqual(a.bytes, b.bytes);
            assert.ok(Buffer.isBuffer(a.bytes));
        });
    });

    describe('bson compatibility', function () {
        it('is a bson-compatible value', function () {
            const v = new Decimal128('1');
            assert.strictEqual(v._bsontype, 'Decimal128');
            assert.strictEqual(typeof Object.getOwnPropertyDescriptor(Decimal128.prototype, '_bsontype').get, 'function');
            assert.strictEqual(v[Symbol.for('@@mdb.bson.version')], 7);
            assert.strictEqual(v[Symbol.for('@@mdb.bson.type')], 'Decimal128');
        });

        it('serializes through bson and reads bson output', function () {
            const ours = bson.serialize({ d: Decimal128.fromString('-1234.5678E-20') });
            const theirs = bson.serialize({ d: bson.Decimal128.fromString('-1234.5678E-20') });
            assert.deepStrictEqual(ours, theirs);
            const back = bson.deserialize(theirs).d;
            assert.strictEqual(new Decimal128(back.bytes).toString(), back.toString());
        });

        it('toJSON and inspect match bson', function () {
            for (const text of ['1.5', '-0', 'NaN', '-Infinity', '1E+10', '0.000001234']) {
                const ours = Decimal128.fromString(text);
                const theirs = bson.Decimal128.fromString(text);
                assert.deepStrictEqual(ours.toJSON(), theirs.toJSON());
                assert.strictEqual(JSON.stringify({ d: ours }), JSON.stringify({ d: theirs }));
                assert.strictEqual(util.inspect(ours), util.inspect(theirs));
                assert.strictEqual(util.inspect([ours], { colors: true }), util.inspect([theirs], { colors: true }));
                assert.strictEqual(ours.inspect(), theirs.inspect());
            }
            assert.strictEqual(util.inspect(new Decimal128('1.5')), "new Decimal128('1.5')");
            assert.strictEqual(new Decimal128('1.5').inspect(), 'new Decimal128("1.5")');
        });
    });
});
