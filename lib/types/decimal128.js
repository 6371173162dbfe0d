'use strict';

// IEEE 754-2008 decimal128 in the binary integer (BID) encoding BSON stores,
// little-endian. Text conversions follow the BSON Decimal128 spec
// (source/bson-decimal128/decimal128.md): values are rejected rather than
// rounded by fromString, and fromStringWithRounding rounds half-to-even.
//
// Layout of the most significant 32-bit word (bytes 12..15):
//   bit 31     sign
//   bits 30-29 != 11: 14-bit biased exponent in bits 30-17, coefficient bits 112-96 in bits 16-0
//   bits 30-29 == 11: infinity (11110...), NaN (11111...), or a coefficient of
//                     2^113 and up, which exceeds 34 digits and so reads as zero

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { alloc, allocUnsafe } = require('../platform');

const EXPONENT_MIN = -6176;
const EXPONENT_MAX = 6111;
const EXPONENT_BIAS = 6176;
const MAX_DIGITS = 34;
const MAX_COEFFICIENT = 10n ** 34n - 1n;
const TEN_TO_34 = 10n ** 34n;
const TEN_TO_33 = 10n ** 33n;
const TWO_PWR_32 = 4294967296;

const FINITE_PATTERN = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?)(\d+))?$/;
const INFINITY_PATTERN = /^([+-]?)(?:inf|infinity)$/i;
const NAN_PATTERN = /^[+-]?nan$/i;

// Beyond this many exponent digits every non-zero value overflows or
// underflows and every zero clamps, so the exact figure no longer matters.
const EXPONENT_SATURATION = 1e10;

// The Uint8Array tag as TypedArrays report it, which a Buffer or a Uint8Array
// from another realm also carries and a look-alike object cannot fake.
const typedArrayTag = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

function isUint8Array(value) {
    return value instanceof Uint8Array || typedArrayTag.call(value) === 'Uint8Array';
}

class Decimal128 extends BSONValue {
    // bytes: 16 bytes as BSON stores them (kept, not copied), or text as for fromString
    constructor(bytes) {
        super();
        if (typeof bytes === 'string') {
            this.bytes = Decimal128.fromString(bytes).bytes;
        } else if (isUint8Array(bytes)) {
            if (bytes.byteLength !== 16) throw new BSONError('Decimal128 must take a Buffer of 16 bytes');
            this.bytes = bytes;
        } else {
            throw new BSONError('Decimal128 must take a Buffer or string');
        }
    }

    get _bsontype() {
        return 'Decimal128';
    }

    // Exact conversion: text needing more than 34 digits, or an exponent out of
    // range that clamping cannot absorb, is a BSONError.
    static fromString(representation) {
        return new Decimal128(parse(representation, false));
    }

    // As fromString, but rounds half-to-even to 34 digits (or to the smallest
    // exponent) instead of failing; overflow is still an error.
    static fromStringWithRounding(representation) {
        return new Decimal128(parse(representation, true));
    }

    toString() {
        const b = this.bytes;
        const top = b[12] | (b[13] << 8) | (b[14] << 16) | (b[15] << 24);
        const sign = top < 0 ? '-' : '';
        let exponent;
        let coefficient;
        if (((top >>> 29) & 3) === 3) {
            const combination = (top >>> 26) & 0x1f;
            if (combination === 0x1f) return 'NaN';
            if (combination === 0x1e) return sign + 'Infinity';
            exponent = ((top >>> 15) & 0x3fff) - EXPONENT_BIAS;
            coefficient = '0';
        } else {
            exponent = ((top >>> 17) & 0x3fff) - EXPONENT_BIAS;
            coefficient = coefficientText(b, top & 0x1ffff);
        }
        return sign + formatFinite(coefficient, exponent);
    }

    toJSON() {
        return { $numberDecimal: this.toString() };
    }

    // bson's Extended JSON hooks
    toExtendedJSON() {
        return { $numberDecimal: this.toString() };
    }

    static fromExtendedJSON(doc) {
        return Decimal128.fromString(doc.$numberDecimal);
    }

    inspect(depth, options, inspect) {
        const text = this.toString();
        return `new Decimal128(${inspect ? inspect(text, options) : JSON.stringify(text)})`;
    }
}

function readUint32(b, at) {
    return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

// The 113-bit coefficient in decimal; one above 10^34 - 1 is not canonical and reads as zero.
function coefficientText(b, top17) {
    const w0 = readUint32(b, 0);
    const w1 = readUint32(b, 4);
    if (top17 === 0 && readUint32(b, 8) === 0 && w1 < 0x200000) {
        return String(w1 * TWO_PWR_32 + w0);
    }
    const value = (BigInt(top17) << 96n) | (BigInt(readUint32(b, 8)) << 64n) | (BigInt(w1) << 32n) | BigInt(w0);
    return value > MAX_COEFFICIENT ? '0' : value.toString();
}

// Plain notation when the exponent is <= 0 and the adjusted exponent >= -6, else scientific.
function formatFinite(digits, exponent) {
    const adjusted = exponent + digits.length - 1;
    if (exponent <= 0 && adjusted >= -6) {
        if (exponent === 0) return digits;
        const point = digits.length + exponent;
        if (point > 0) return digits.slice(0, point) + '.' + digits.slice(point);
        return '0.' + '0'.repeat(-point) + digits;
    }
    const mantissa = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    return mantissa + 'E' + (adjusted >= 0 ? '+' : '') + adjusted;
}

function invalid(representation, reason) {
    const shown = representation.length > 100 ? representation.slice(0, 100) + '...' : representation;
    return new BSONError(`"${shown}" is not a valid Decimal128 string${reason ? ' - ' + reason : ''}`);
}

function parse(representation, allowRounding) {
    if (typeof representation !== 'string') {
        throw new BSONError(`Decimal128 can only be parsed from a string, not ${typeof representation}`);
    }
    const match = FINITE_PATTERN.exec(representation);
    if (match === null) {
        const infinity = INFINITY_PATTERN.exec(representation);
        if (infinity !== null) return specialBytes(infinity[1] === '-' ? 0xf8 : 0x78);
        // NaN carries no sign here, as in bson
        if (NAN_PATTERN.test(representation)) return specialBytes(0x7c);
        throw invalid(representation, '');
    }

    const negative = match[1] === '-';
    const fraction = match[3] !== undefined ? match[3] : match[4] !== undefined ? match[4] : '';
    const digits = (match[2] !== undefined ? match[2] : '') + fraction;
    let exponent = exponentValue(match[5], match[6]) - fraction.length;

    let first = 0;
    while (first < digits.length && digits.charCodeAt(first) === 48) first++;
    if (first === digits.length) {
        // zero: only the exponent can be out of range, and clamping it loses nothing
        return encode(negative, '0', Math.min(Math.max(exponent, EXPONENT_MIN), EXPONENT_MAX));
    }
    let last = digits.length - 1;
    while (digits.charCodeAt(last) === 48) last--;
    // the value is significand * 10^(exponent + trailingZeros); the preferred
    // coefficient keeps the trailing zeros, which may be dropped to fit
    const significand = digits.slice(first, last + 1);
    let trailingZeros = digits.length - 1 - last;
    const length = significand.length + trailingZeros;

    let coefficient;
    const drop = Math.max(length - MAX_DIGITS, EXPONENT_MIN - exponent, 0);
    if (drop <= trailingZeros) {
        trailingZeros -= drop;
        exponent += drop;
        coefficient = significand;
    } else if (!allowRounding) {
        const underflow = exponent < EXPONENT_MIN && drop >= length;
        throw invalid(representation, underflow ? 'exponent underflow' : 'inexact rounding');
    } else {
        // one rounding for both limits at once, so there is no double rounding
        let rounded = roundHalfEven(significand, drop - trailingZeros);
        trailingZeros = 0;
        exponent += drop;
        if (rounded === TEN_TO_34) {
            rounded = TEN_TO_33;
            exponent += 1;
        }
        coefficient = rounded.toString();
    }

    if (exponent > EXPONENT_MAX) {
        // clamp: trade exponent for zeros on the coefficient while they fit
        const pad = exponent - EXPONENT_MAX;
        if (coefficient.length + trailingZeros + pad > MAX_DIGITS) throw invalid(representation, 'overflow');
        trailingZeros += pad;
        exponent = EXPONENT_MAX;
    }
    return encode(negative, coefficient + '0'.repeat(trailingZeros), exponent);
}

// The exponent digits as a number, saturated far beyond any representable range.
function exponentValue(sign, text) {
    if (text === undefined) return 0;
    let start = 0;
    while (start < text.length - 1 && text.charCodeAt(start) === 48) start++;
    const magnitude = text.length - start > 10 ? EXPONENT_SATURATION : parseInt(text.slice(start), 10);
    return sign === '-' ? -magnitude : magnitude;
}

// significand (no leading or trailing zeros) with its last `count` digits
// removed, rounded half-to-even on what was removed.
function roundHalfEven(significand, count) {
    const keep = significand.length - count;
    // rounding above the leading digit: the value is below half a unit
    if (keep < 0) return 0n;
    let kept = keep === 0 ? 0n : BigInt(significand.slice(0, keep));
    const roundDigit = significand.charCodeAt(keep) - 48;
    // the significand ends in a non-zero digit, so anything after the round digit is non-zero
    const sticky = count > 1;
    if (roundDigit > 5 || (roundDigit === 5 && (sticky || (kept & 1n) === 1n))) kept += 1n;
    return kept;
}

function specialBytes(topByte) {
    const bytes = alloc(16);
    bytes[15] = topByte;
    return bytes;
}

// digits: the coefficient in decimal, at most 34 digits, so below 2^113: its
// top 17 bits share the last word with the biased exponent (bits 17-30) and
// the sign (bit 31). Up to 15 digits the arithmetic stays in doubles.
function encode(negative, digits, exponent) {
    const bytes = allocUnsafe(16);
    let top = ((exponent + EXPONENT_BIAS) << 17) | (negative ? 0x80000000 : 0);
    if (digits.length <= 15) {
        const value = Number(digits);
        writeUint32(bytes, 0, value % TWO_PWR_32);
        writeUint32(bytes, 4, Math.floor(value / TWO_PWR_32));
        writeUint32(bytes, 8, 0);
    } else {
        const value = BigInt(digits);
        writeUint32(bytes, 0, Number(value & 0xffffffffn));
        writeUint32(bytes, 4, Number((value >> 32n) & 0xffffffffn));
        writeUint32(bytes, 8, Number((value >> 64n) & 0xffffffffn));
        top |= Number(value >> 96n);
    }
    writeUint32(bytes, 12, top);
    return bytes;
}

function writeUint32(bytes, at, value) {
    bytes[at] = value & 0xff;
    bytes[at + 1] = (value >>> 8) & 0xff;
    bytes[at + 2] = (value >>> 16) & 0xff;
    bytes[at + 3] = (value >>> 24) & 0xff;
}

module.exports = { Decimal128 };
