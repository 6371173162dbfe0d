'use strict';

// Reading JSON text as UTF-8 bytes: its punctuation, its numbers (the double JSON.parse makes),
// its whitespace, its \u escapes written as UTF-8, its hexadecimal digits.

const { latin1Slice, HEX_VALUE } = require('./platform');
// 10^0 .. 10^22, every one exact as a double
const POWERS_OF_TEN = [];
for (let e = 0, p = 1; e <= 22; e++, p *= 10) POWERS_OF_TEN.push(p);

// the bytes of JSON's punctuation
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const NEWLINE = 0x0a;

// a mantissa of up to 16 digits, when below 2^53, is an exact double (each step
// of reading it stays below 2^53 too, but the last, which is checked)
const EXACT_DIGITS = 16;
const TWO_POW_53 = 9007199254740992;
const TWO_POW_31 = 2147483648;
const TWO_POW_32 = 4294967296;
const MAX_EXACT_EXPONENT = 22;

function isJsonSpace(b) {
    return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

function isDigit(c) {
    return c >= 0x30 && c <= 0x39;
}

// Reads the JSON number at i (src[i] is '-' or a digit, i > 0 or not) up to end.
// Returns the offset after it and sets into.value to the double JSON.parse gives;
// or, when the text is no JSON number, -(1 + the offset of the first wrong byte).
// Up to 16 significant digits below 2^53 and a power of ten within 10^±22, the value is one
// correctly rounded multiplication or division of exact doubles (Clinger's fast
// path); beyond, Number() reads the text.
function readNumber(src, i, end, into) {
    const start = i;
    if (src[i] === 0x2d) i++;
    if (i >= end || !isDigit(src[i])) return -(1 + i);
    let mantissa = 0;
    let significant = 0;
    let exponent = 0;
    if (src[i] === 0x30) {
        i++;
    } else {
        for (; i < end && isDigit(src[i]); i++) {
            mantissa = mantissa * 10 + (src[i] - 0x30);
            if (mantissa !== 0) significant++;
        }
    }
    if (i < end && src[i] === 0x2e) {
        i++;
        if (i >= end || !isDigit(src[i])) return -(1 + i);
        for (; i < end && isDigit(src[i]); i++) {
            mantissa = mantissa * 10 + (src[i] - 0x30);
            if (mantissa !== 0) significant++;
            exponent--;
        }
    }
    if (i < end && (src[i] === 0x65 || src[i] === 0x45)) {
        i++;
        let sign = 1;
        if (i < end && (src[i] === 0x2b || src[i] === 0x2d)) sign = src[i++] === 0x2d ? -1 : 1;
        if (i >= end || !isDigit(src[i])) return -(1 + i);
        let e = 0;
        // an exponent past a million means 0 or Infinity whatever follows
        for (; i < end && isDigit(src[i]); i++) if (e < 1e6) e = e * 10 + (src[i] - 0x30);
        exponent += sign * e;
    }
    let value;
    if (significant > EXACT_DIGITS || mantissa >= TWO_POW_53) significant = Infinity;
    if (mantissa === 0) value = 0;
    else if (significant <= EXACT_DIGITS && exponent >= 0 && exponent <= MAX_EXACT_EXPONENT) value = mantissa * POWERS_OF_TEN[exponent];
    else if (significant <= EXACT_DIGITS && exponent < 0 && exponent >= -MAX_EXACT_EXPONENT) value = mantissa / POWERS_OF_TEN[-exponent];
    else value = numberFromText(src, src[start] === 0x2d ? start + 1 : start, i);
    into.value = src[start] === 0x2d ? -value : value;
    return i;
}

// the number's text made in one call (Buffer's native latin1Slice on Node)
function numberFromText(src, start, end) {
    return Number(latin1Slice(src, start, end));
}

// The offset after the well-formed UTF-8 sequence that starts with a byte of 0x80
// or more at i, or -1 (an overlong form, a surrogate, past U+10FFFF, cut short).
function utf8SequenceEnd(src, i, end) {
    const b = src[i];
    let n;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) {
        n = 2;
        if (b === 0xe0) low = 0xa0;
        else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        n = 3;
        if (b === 0xf0) low = 0x90;
        else if (b === 0xf4) high = 0x8f;
    } else return -1;
    if (i + n >= end) return -1;
    const second = src[i + 1];
    if (second < low || second > high) return -1;
    for (let k = 2; k <= n; k++) if ((src[i + k] & 0xc0) !== 0x80) return -1;
    return i + n + 1;
}

// Reads an int64's decimal digits in src[start, end): '0', or '-'? then digits
// without a leading zero, within the int64 range (as $numberLong's grammar, but
// for its rare '+'). Sets into.high and into.low
// (its two's-complement words, low unsigned) and into.value (the nearest double),
// or returns false. Computed in two 32-bit words: every step is exact in a double.
function readInt64Digits(src, start, end, into) {
    const negative = src[start] === 0x2d;
    let i = negative ? start + 1 : start;
    if (i >= end || end - i > 19 || (src[i] === 0x30 && (end - i > 1 || negative))) return false;
    let high = 0;
    let low = 0;
    for (; i < end; i++) {
        const d = src[i] - 0x30;
        if (d < 0 || d > 9) return false;
        const x = low * 10 + d;
        const carry = Math.floor(x / TWO_POW_32);
        low = x - carry * TWO_POW_32;
        high = high * 10 + carry;
        if (high > TWO_POW_31) return false;
    }
    // at most 2^63 - 1, or 2^63 when negative
    if (high === TWO_POW_31 && (!negative || low !== 0)) return false;
    into.value = negative ? -(high * TWO_POW_32 + low) : high * TWO_POW_32 + low;
    if (negative && (high !== 0 || low !== 0)) {
        // two's complement: invert and add one
        low = TWO_POW_32 - low;
        high = TWO_POW_32 - 1 - high + (low === TWO_POW_32 ? 1 : 0);
        if (low === TWO_POW_32) low = 0;
    }
    into.high = high | 0;
    into.low = low | 0;
    return true;
}

// a base64 digit's value by its byte, -1 for other bytes below 128
const BASE64_VALUE = new Int8Array(128).fill(-1);
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let d = 0; d < 64; d++) BASE64_VALUE[BASE64_DIGITS.charCodeAt(d)] = d;
const EQUALS = 0x3d;

// The bytes that strict base64 in src[start, end) stands for (its length a multiple
// of 4, '=' only as its last one or two characters), or -1 for any other text.
function decodedBase64Length(src, start, end) {
    const n = end - start;
    if (n % 4 !== 0) return -1;
    let padding = 0;
    if (n > 0 && src[end - 1] === EQUALS) padding = src[end - 2] === EQUALS ? 2 : 1;
    for (let k = start; k < end - padding; k++) if (src[k] >= 128 || BASE64_VALUE[src[k]] < 0) return -1;
    return (n / 4) * 3 - padding;
}

// Writes the bytes of base64 that decodedBase64Length accepted at pos of out.
function decodeBase64(src, start, end, out, pos) {
    let k = start;
    for (; k + 4 <= end && src[k + 3] !== EQUALS; k += 4) {
        const v = (BASE64_VALUE[src[k]] << 18) | (BASE64_VALUE[src[k + 1]] << 12) | (BASE64_VALUE[src[k + 2]] << 6) | BASE64_VALUE[src[k + 3]];
        out[pos++] = v >> 16;
        out[pos++] = v >> 8;
        out[pos++] = v;
    }
    if (k < end) {
        // the last group, with one or two '='
        const v = (BASE64_VALUE[src[k]] << 18) | (BASE64_VALUE[src[k + 1]] << 12) | (src[k + 2] === EQUALS ? 0 : BASE64_VALUE[src[k + 2]] << 6);
        out[pos++] = v >> 16;
        if (src[k + 2] !== EQUALS) out[pos++] = v >> 8;
    }
    return pos;
}

// Writes a code point from a \u escape as UTF-8 (a lone surrogate as U+FFFD, as
// encode writes one); buf has room for 4 bytes. Returns the next pos.
function writeEscapedCodePoint(buf, pos, cp) {
    if (cp < 0x80) {
        buf[pos] = cp;
        return pos + 1;
    }
    if (cp < 0x800) {
        buf[pos] = 0xc0 | (cp >> 6);
        buf[pos + 1] = 0x80 | (cp & 0x3f);
        return pos + 2;
    }
    if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
    if (cp < 0x10000) {
        buf[pos] = 0xe0 | (cp >> 12);
        buf[pos + 1] = 0x80 | ((cp >> 6) & 0x3f);
        buf[pos + 2] = 0x80 | (cp & 0x3f);
        return pos + 3;
    }
    buf[pos] = 0xf0 | (cp >> 18);
    buf[pos + 1] = 0x80 | ((cp >> 12) & 0x3f);
    buf[pos + 2] = 0x80 | ((cp >> 6) & 0x3f);
    buf[pos + 3] = 0x80 | (cp & 0x3f);
    return pos + 4;
}

module.exports = {
    QUOTE,
    BACKSLASH,
    COMMA,
    COLON,
    OPEN_BRACE,
    CLOSE_BRACE,
    OPEN_BRACKET,
    CLOSE_BRACKET,
    NEWLINE,
    readNumber, readInt64Digits, utf8SequenceEnd, decodedBase64Length, decodeBase64, writeEscapedCodePoint, isJsonSpace, HEX_VALUE };
