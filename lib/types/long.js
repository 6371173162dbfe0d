'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { option } = require('../options');

const TWO_PWR_32 = 4294967296;
const TWO_PWR_63 = 9223372036854775808;
const TWO_PWR_64 = 18446744073709551616;
const MASK_32 = 0xffffffffn;
const INT64_MAX = 0x7fffffffffffffffn;
const INT64_MIN = -0x8000000000000000n;
// bson's $numberLong grammar: no leading zeros, no '-0', at most 20 characters
const NUMBER_LONG_RE = /^(\+?0|[+-]?[1-9][0-9]*)$/;
const NUMBER_LONG_MAX_LENGTH = 20;

// A 64-bit two's-complement integer held as two signed 32-bit halves, the
// representation bson uses, so `low`, `high` and `unsigned` are own properties
// in the same order bson gives them (JSON.stringify shows high, low, unsigned).
class Long extends BSONValue {
    constructor(lowOrValue = 0, highOrUnsigned, unsigned) {
        super();
        const isUnsigned = typeof highOrUnsigned === 'boolean' ? highOrUnsigned : Boolean(unsigned);
        if (typeof lowOrValue === 'string' || typeof lowOrValue === 'bigint') {
            const parsed = typeof lowOrValue === 'string'
                ? Long.fromString(lowOrValue, isUnsigned)
                : Long.fromBigInt(lowOrValue, isUnsigned);
            this.high = parsed.high;
            this.low = parsed.low;
            // fromString('NaN', true) yields the signed zero in bson, so take the flag from the result
            this.unsigned = parsed.unsigned;
        } else {
            this.high = (typeof highOrUnsigned === 'number' ? highOrUnsigned : 0) | 0;
            this.low = lowOrValue | 0;
            this.unsigned = isUnsigned;
        }
    }

    get _bsontype() {
        return 'Long';
    }

    get __isLong__() {
        return true;
    }

    // The decoder's constructor: no parsing, only int32 truncation.
    static fromBits(lowBits, highBits, unsigned) {
        return new Long(lowBits, highBits, unsigned);
    }

    static fromInt(value, unsigned) {
        if (unsigned) {
            value >>>= 0;
            return new Long(value, (value | 0) < 0 ? -1 : 0, true);
        }
        value |= 0;
        return new Long(value, value < 0 ? -1 : 0, false);
    }

    // Truncates toward zero and saturates at the type's bounds; NaN is zero.
    static fromNumber(value, unsigned) {
        if (Number.isNaN(value)) return unsigned ? Long.UZERO : Long.ZERO;
        if (unsigned) {
            if (value < 0) return Long.UZERO;
            if (value >= TWO_PWR_64) return Long.MAX_UNSIGNED_VALUE;
        } else {
            if (value <= -TWO_PWR_63) return Long.MIN_VALUE;
            if (value + 1 >= TWO_PWR_63) return Long.MAX_VALUE;
        }
        const magnitude = value < 0 ? -value : value;
        const low = (magnitude % TWO_PWR_32) | 0;
        const high = (magnitude / TWO_PWR_32) | 0;
        if (value < 0) return negateBits(low, high, unsigned);
        return new Long(low, high, unsigned);
    }

    // Keeps the low 64 bits of the value.
    static fromBigInt(value, unsigned) {
        return new Long(Number(value & MASK_32), Number((value >> 32n) & MASK_32), unsigned);
    }

    static fromString(str, unsignedOrRadix, radix) {
        let unsigned = false;
        if (typeof unsignedOrRadix === 'number') {
            radix = unsignedOrRadix;
        } else {
            unsigned = !!unsignedOrRadix;
        }
        if (radix === undefined || radix === null) radix = 10;
        // bson answers signed zero for these when the radix has no digit for their letters
        if (str === 'NaN' && radix < 24) return Long.ZERO;
        if ((str === 'Infinity' || str === '+Infinity' || str === '-Infinity') && radix < 35) return Long.ZERO;
        return parseRadix(str, unsigned, radix);
    }

    // Like fromString, but only for text that is exactly a 64-bit value of the requested signedness.
    static fromStringStrict(str, unsignedOrRadix, radix) {
        let unsigned = false;
        if (typeof unsignedOrRadix === 'number') {
            radix = unsignedOrRadix;
        } else {
            unsigned = !!unsignedOrRadix;
        }
        if (radix === undefined || radix === null) radix = 10;
        if (str.trim() !== str) {
            throw new BSONError(`Input: '${str}' contains leading and/or trailing whitespace`);
        }
        const allowed = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
        for (let i = 0; i < str.length; i++) {
            const c = str[i].toLowerCase();
            if (c !== '-' && c !== '+' && allowed.indexOf(c) < 0) {
                throw new BSONError(`Input: '${str}' contains invalid characters for radix: ${radix}`);
            }
        }
        const cleaned = stripLeadingZerosAndPlus(str);
        const result = parseRadix(cleaned, unsigned, radix);
        if (result.toString(radix).toLowerCase() !== cleaned.toLowerCase()) {
            throw new BSONError(
                `Input: ${str} is not representable as ${unsigned ? 'an unsigned' : 'a signed'} 64-bit Long with radix: ${radix}`
            );
        }
        return result;
    }

    static fromBytes(bytes, unsigned, le) {
        return le ? Long.fromBytesLE(bytes, unsigned) : Long.fromBytesBE(bytes, unsigned);
    }

    static fromBytesLE(bytes, unsigned) {
        return new Long(
            bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (bytes[3] << 24),
            bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24),
            unsigned
        );
    }

    static fromBytesBE(bytes, unsigned) {
        return new Long(
            (bytes[4] << 24) | (bytes[5] << 16) | (bytes[6] << 8) | bytes[7],
            (bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3],
            unsigned
        );
    }

    // Recognises Longs (and Timestamps) from any copy of qbson or bson.
    static isLong(value) {
        return value != null && typeof value === 'object' && '__isLong__' in value && value.__isLong__ === true;
    }

    static fromValue(value, unsigned) {
        if (typeof value === 'number') return Long.fromNumber(value, unsigned);
        if (typeof value === 'string') return Long.fromString(value, unsigned);
        return new Long(value.low, value.high, typeof unsigned === 'boolean' ? unsigned : value.unsigned);
    }

    getHighBits() {
        return this.high;
    }

    getHighBitsUnsigned() {
        return this.high >>> 0;
    }

    getLowBits() {
        return this.low;
    }

    getLowBitsUnsigned() {
        return this.low >>> 0;
    }

    isZero() {
        return this.high === 0 && this.low === 0;
    }

    eqz() {
        return this.isZero();
    }

    isNegative() {
        return !this.unsigned && this.high < 0;
    }

    isPositive() {
        return this.unsigned || this.high >= 0;
    }

    isOdd() {
        return (this.low & 1) === 1;
    }

    isEven() {
        return (this.low & 1) === 0;
    }

    // Same bits are equal, except that a signed and an unsigned value with the
    // top bit set are different numbers.
    equals(other) {
        if (!Long.isLong(other)) other = Long.fromValue(other);
        if (this.unsigned !== other.unsigned && this.high >>> 31 === 1 && other.high >>> 31 === 1) return false;
        return this.high === other.high && this.low === other.low;
    }

    eq(other) {
        return this.equals(other);
    }

    notEquals(other) {
        return !this.equals(other);
    }

    neq(other) {
        return this.notEquals(other);
    }

    ne(other) {
        return this.notEquals(other);
    }

    // bson's ordering, including its mixed-signedness rule: when the receiver is
    // signed and neither side is negative, the sign of the wrapped 64-bit
    // difference decides.
    compare(other) {
        if (!Long.isLong(other)) other = Long.fromValue(other);
        if (this.equals(other)) return 0;
        const thisNegative = this.isNegative();
        const otherNegative = other.isNegative();
        if (thisNegative && !otherNegative) return -1;
        if (!thisNegative && otherNegative) return 1;
        if (!this.unsigned) {
            return BigInt.asIntN(64, bitsOf(this) - bitsOf(other)) < 0n ? -1 : 1;
        }
        const thisHigh = this.high >>> 0;
        const otherHigh = other.high >>> 0;
        if (otherHigh > thisHigh || (otherHigh === thisHigh && other.low >>> 0 > this.low >>> 0)) return -1;
        return 1;
    }

    comp(other) {
        return this.compare(other);
    }

    lessThan(other) {
        return this.compare(other) < 0;
    }

    lt(other) {
        return this.lessThan(other);
    }

    lessThanOrEqual(other) {
        return this.compare(other) <= 0;
    }

    lte(other) {
        return this.lessThanOrEqual(other);
    }

    le(other) {
        return this.lessThanOrEqual(other);
    }

    greaterThan(other) {
        return this.compare(other) > 0;
    }

    gt(other) {
        return this.greaterThan(other);
    }

    greaterThanOrEqual(other) {
        return this.compare(other) >= 0;
    }

    gte(other) {
        return this.greaterThanOrEqual(other);
    }

    ge(other) {
        return this.greaterThanOrEqual(other);
    }

    // Arithmetic wraps modulo 2^64 and keeps the receiver's signedness.
    add(addend) {
        return Long.fromBigInt(bitsOf(this) + bitsOf(toLong(addend)), this.unsigned);
    }

    subtract(subtrahend) {
        return Long.fromBigInt(bitsOf(this) - bitsOf(toLong(subtrahend)), this.unsigned);
    }

    sub(subtrahend) {
        return this.subtract(subtrahend);
    }

    multiply(multiplier) {
        // bson answers the signed zero when the receiver is zero, whatever its signedness
        if (this.isZero()) return Long.ZERO;
        return Long.fromBigInt(bitsOf(this) * bitsOf(toLong(multiplier)), this.unsigned);
    }

    mul(multiplier) {
        return this.multiply(multiplier);
    }

    // Truncating division, unsigned when the receiver is unsigned.
    divide(divisor) {
        divisor = toLong(divisor);
        if (divisor.isZero()) throw new BSONError('division by zero');
        // bson's guard against the one signed overflow looks only at the high word
        if (!this.unsigned && this.high === -0x80000000 && divisor.low === -1 && divisor.high === -1) return this;
        return Long.fromBigInt(valueOf64(this, this.unsigned) / valueOf64(divisor, this.unsigned), this.unsigned);
    }

    div(divisor) {
        return this.divide(divisor);
    }

    modulo(divisor) {
        divisor = toLong(divisor);
        if (divisor.isZero()) throw new BSONError('division by zero');
        return Long.fromBigInt(valueOf64(this, this.unsigned) % valueOf64(divisor, this.unsigned), this.unsigned);
    }

    mod(divisor) {
        return this.modulo(divisor);
    }

    rem(divisor) {
        return this.modulo(divisor);
    }

    negate() {
        return negateBits(this.low, this.high, this.unsigned);
    }

    neg() {
        return this.negate();
    }

    not() {
        return new Long(~this.low, ~this.high, this.unsigned);
    }

    and(other) {
        other = toLong(other);
        return new Long(this.low & other.low, this.high & other.high, this.unsigned);
    }

    or(other) {
        other = toLong(other);
        return new Long(this.low | other.low, this.high | other.high, this.unsigned);
    }

    xor(other) {
        other = toLong(other);
        return new Long(this.low ^ other.low, this.high ^ other.high, this.unsigned);
    }

    shiftLeft(numBits) {
        if (Long.isLong(numBits)) numBits = numBits.toInt();
        numBits &= 63;
        if (numBits === 0) return this;
        if (numBits < 32) {
            return new Long(this.low << numBits, (this.high << numBits) | (this.low >>> (32 - numBits)), this.unsigned);
        }
        return new Long(0, this.low << (numBits - 32), this.unsigned);
    }

    shl(numBits) {
        return this.shiftLeft(numBits);
    }

    shiftRight(numBits) {
        if (Long.isLong(numBits)) numBits = numBits.toInt();
        numBits &= 63;
        if (numBits === 0) return this;
        if (numBits < 32) {
            return new Long((this.low >>> numBits) | (this.high << (32 - numBits)), this.high >> numBits, this.unsigned);
        }
        return new Long(this.high >> (numBits - 32), this.high >= 0 ? 0 : -1, this.unsigned);
    }

    shr(numBits) {
        return this.shiftRight(numBits);
    }

    shiftRightUnsigned(numBits) {
        if (Long.isLong(numBits)) numBits = numBits.toInt();
        numBits &= 63;
        if (numBits === 0) return this;
        if (numBits < 32) {
            return new Long((this.low >>> numBits) | (this.high << (32 - numBits)), this.high >>> numBits, this.unsigned);
        }
        return new Long(this.high >>> (numBits - 32), 0, this.unsigned);
    }

    shru(numBits) {
        return this.shiftRightUnsigned(numBits);
    }

    shr_u(numBits) {
        return this.shiftRightUnsigned(numBits);
    }

    toSigned() {
        return this.unsigned ? new Long(this.low, this.high, false) : this;
    }

    toUnsigned() {
        return this.unsigned ? this : new Long(this.low, this.high, true);
    }

    toInt() {
        return this.unsigned ? this.low >>> 0 : this.low;
    }

    // The nearest double; the same expression as bson so the rounding agrees.
    toNumber() {
        if (this.unsigned) return (this.high >>> 0) * TWO_PWR_32 + (this.low >>> 0);
        return this.high * TWO_PWR_32 + (this.low >>> 0);
    }

    toBigInt() {
        return valueOf64(this, this.unsigned);
    }

    toString(radix) {
        radix = radix || 10;
        if (radix < 2 || radix > 36) throw new BSONError('radix');
        if (this.high === 0 && this.low >= 0) return this.low.toString(radix);
        return this.toBigInt().toString(radix);
    }

    toBytes(le) {
        return le ? this.toBytesLE() : this.toBytesBE();
    }

    toBytesLE() {
        const hi = this.high;
        const lo = this.low;
        return [lo & 0xff, (lo >>> 8) & 0xff, (lo >>> 16) & 0xff, lo >>> 24,
            hi & 0xff, (hi >>> 8) & 0xff, (hi >>> 16) & 0xff, hi >>> 24];
    }

    toBytesBE() {
        const hi = this.high;
        const lo = this.low;
        return [hi >>> 24, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff,
            lo >>> 24, (lo >>> 16) & 0xff, (lo >>> 8) & 0xff, lo & 0xff];
    }

    getNumBitsAbs() {
        if (this.isNegative()) return this.equals(Long.MIN_VALUE) ? 64 : this.negate().getNumBitsAbs();
        const word = this.high !== 0 ? this.high : this.low;
        const bits = 32 - Math.clz32(word);
        return this.high !== 0 ? bits + 32 : Math.max(bits, 1);
    }

    // bson's Extended JSON hooks
    toExtendedJSON(options) {
        return longExtendedJSON(this, Boolean(option(options, 'relaxed')));
    }

    // {$numberLong} as EJSON.parse reads it, but relaxed unless told otherwise (bson's default here)
    static fromExtendedJSON(doc, options) {
        const relaxed = option(options, 'relaxed');
        // loaded here, not with the class: a program that never calls this does not need it
        const { ReadContext } = require('../ejson-reading');
        const r = new ReadContext({ relaxed: relaxed == null ? true : Boolean(relaxed), useBigInt64: Boolean(option(options, 'useBigInt64')) });
        return longFromExtendedJSON(r, doc.$numberLong);
    }

    inspect(depth, options, inspect) {
        const show = inspect ? (v) => inspect(v, options) : (v) => JSON.stringify(v);
        const flag = this.unsigned ? `, ${show(this.unsigned)}` : '';
        return `new Long(${show(this.toString())}${flag})`;
    }
}

Long.MAX_UNSIGNED_VALUE = new Long(-1, -1, true);
Long.ZERO = new Long(0, 0, false);
Long.UZERO = new Long(0, 0, true);
Long.ONE = new Long(1, 0, false);
Long.UONE = new Long(1, 0, true);
Long.NEG_ONE = new Long(-1, -1, false);
Long.MAX_VALUE = new Long(-1, 0x7fffffff, false);
Long.MIN_VALUE = new Long(0, -0x80000000, false);
Long.TWO_PWR_24 = new Long(1 << 24, 0, false);

// A number when relaxed, else {$numberLong}. A flag, not options, as for Int32
// (lib/ejson.js's speed).
function longExtendedJSON(long, relaxed) {
    return relaxed ? long.toNumber() : { $numberLong: long.toString() };
}

// A $numberLong's text as a bigint with options.useBigInt64, a number when
// relaxed, else a Long.
function longFromExtendedJSON(r, text) {
    const big = int64FromExtendedJSON(r, text, '$numberLong');
    if (r.useBigInt64) return big;
    return r.relaxed ? Number(big) : Long.fromBigInt(big);
}

// A $numberLong's text (also a canonical $date's) as a BigInt in the int64 range;
// `r` is the reading context of lib/ejson-reading.js.
function int64FromExtendedJSON(r, text, what) {
    r.expectString(text, what);
    // bson's words first, as its Long.fromExtendedJSON words them
    if (text.length > NUMBER_LONG_MAX_LENGTH) {
        throw r.fail(`${what} string is too long: ${JSON.stringify(text)} is not a decimal 64-bit integer`);
    }
    if (!NUMBER_LONG_RE.test(text)) {
        throw r.fail(`${what} string ${JSON.stringify(text)} is in an invalid format: not a decimal 64-bit integer`);
    }
    const big = BigInt(text);
    if (big > INT64_MAX || big < INT64_MIN) throw r.fail(`${what} ${JSON.stringify(text)} is outside the 64-bit integer range`);
    return big;
}

// The 64 bits as a non-negative BigInt; enough for arithmetic modulo 2^64.
function bitsOf(long) {
    return (BigInt(long.high >>> 0) << 32n) | BigInt(long.low >>> 0);
}

// The 64 bits read as signed or unsigned, whatever the Long's own flag says.
function valueOf64(long, unsigned) {
    const high = unsigned ? long.high >>> 0 : long.high;
    return (BigInt(high) << 32n) + BigInt(long.low >>> 0);
}

function toLong(value) {
    return Long.isLong(value) ? value : Long.fromValue(value);
}

function negateBits(low, high, unsigned) {
    const negLow = (~low + 1) | 0;
    const negHigh = (~high + (negLow === 0 ? 1 : 0)) | 0;
    return new Long(negLow, negHigh, unsigned);
}

// bson's parser, reproduced for its results on every input rather than only on
// well-formed ones: an optional leading '-' (repeatable), then the text taken
// eight characters at a time through parseInt, whatever parseInt makes of a
// chunk (NaN counts as 0), accumulated modulo 2^64.
function parseRadix(str, unsigned, radix) {
    if (str.length === 0) throw new BSONError('empty string');
    if (radix < 2 || radix > 36) throw new BSONError('radix');
    const hyphen = str.indexOf('-');
    if (hyphen > 0) throw new BSONError('interior hyphen');
    if (hyphen === 0) return parseRadix(str.substring(1), unsigned, radix).negate();

    const chunkScale = integerOf(Math.pow(radix, 8));
    let result = 0n;
    for (let i = 0; i < str.length; i += 8) {
        const size = Math.min(8, str.length - i);
        const chunk = integerOf(parseInt(str.substring(i, i + size), radix));
        const scale = size < 8 ? integerOf(Math.pow(radix, size)) : chunkScale;
        result = BigInt.asUintN(64, result * scale + chunk);
    }
    return Long.fromBigInt(result, unsigned);
}

// What bson's Long.fromNumber keeps of a chunk or a power: the integer part, NaN as 0.
function integerOf(value) {
    return Number.isNaN(value) ? 0n : BigInt(Math.trunc(value));
}

function stripLeadingZerosAndPlus(str) {
    let start = 0;
    const negative = str[0] === '-';
    if (negative || str[0] === '+') start = 1;
    let end = start;
    while (end < str.length && str[end] === '0') end++;
    if (end === start) return str[0] === '+' ? str.slice(1) : str;
    return (negative ? '-' : '') + (end === str.length ? '0' : str.slice(end));
}

// {$numberLong: decimal text in the int64 range}
function readLongExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$numberLong']);
    return longFromExtendedJSON(r, obj.$numberLong);
}

module.exports = { Long, longExtendedJSON, int64FromExtendedJSON, readLongExtendedJSON };
