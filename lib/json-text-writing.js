'use strict';

// Writing JSON text as UTF-8 bytes: string bodies copied from UTF-8 bytes with
// only the escapes JSON needs, integers by a table of digit pairs, hexadecimal
// and base64 by tables, and the ASCII text of what the engine formats. Each
// writer is (out, pos, ...) -> the offset after what it wrote; the caller has
// made room for it.

const { HEX, BASE64 } = require('./platform');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// what a byte of a string's UTF-8 needs: copied as it is, escaped (a control
// character, '"' or '\'), or read as the start of a multi-byte sequence
const PLAIN = 0;
const ESCAPED = 1;
const MULTI_BYTE = 2;
const BYTE_KIND = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) BYTE_KIND[b] = ESCAPED;
BYTE_KIND[QUOTE] = ESCAPED;
BYTE_KIND[BACKSLASH] = ESCAPED;
for (let b = 0x80; b < 0x100; b++) BYTE_KIND[b] = MULTI_BYTE;

// the letter of JSON's short escapes (\b \t \n \f \r), 0 for the \u00xx ones
const SHORT_ESCAPE = new Uint8Array(0x20);
SHORT_ESCAPE[0x08] = 0x62;
SHORT_ESCAPE[0x09] = 0x74;
SHORT_ESCAPE[0x0a] = 0x6e;
SHORT_ESCAPE[0x0c] = 0x66;
SHORT_ESCAPE[0x0d] = 0x72;

const HEX_DIGITS = new Uint8Array(Array.from(HEX, (c) => c.charCodeAt(0)));
// each byte's two lowercase hex digits, as one 16-bit pair (high digit first in memory)
const HEX_PAIRS = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
    HEX_PAIRS[2 * b] = HEX_DIGITS[b >> 4];
    HEX_PAIRS[2 * b + 1] = HEX_DIGITS[b & 15];
}
// the two decimal digits of 0..99
const DIGIT_PAIRS = new Uint8Array(200);
for (let n = 0; n < 100; n++) {
    DIGIT_PAIRS[2 * n] = 0x30 + Math.floor(n / 10);
    DIGIT_PAIRS[2 * n + 1] = 0x30 + (n % 10);
}
const BASE64_DIGITS = new Uint8Array(Array.from(BASE64, (c) => c.charCodeAt(0)));
const EQUALS = 0x3d;

// The escape of a byte whose kind is ESCAPED, as JSON.stringify writes it.
function writeEscape(out, pos, b) {
    out[pos++] = BACKSLASH;
    if (b === QUOTE || b === BACKSLASH) {
        out[pos++] = b;
        return pos;
    }
    const letter = SHORT_ESCAPE[b];
    if (letter !== 0) {
        out[pos++] = letter;
        return pos;
    }
    out[pos++] = 0x75;
    out[pos++] = 0x30;
    out[pos++] = 0x30;
    out[pos++] = HEX_DIGITS[b >> 4];
    out[pos++] = HEX_DIGITS[b & 15];
    return pos;
}

// \u followed by the four hex digits of a UTF-16 unit
function writeUnitEscape(out, pos, unit) {
    out[pos++] = BACKSLASH;
    out[pos++] = 0x75;
    out[pos++] = HEX_DIGITS[unit >> 12];
    out[pos++] = HEX_DIGITS[(unit >> 8) & 15];
    out[pos++] = HEX_DIGITS[(unit >> 4) & 15];
    out[pos++] = HEX_DIGITS[unit & 15];
    return pos;
}

// The digits of n, 0 <= n < 2^53.
function decimalLength(n) {
    let len = 1;
    while (n >= 10000) {
        n = Math.floor(n / 10000);
        len += 4;
    }
    if (n >= 1000) return len + 3;
    if (n >= 100) return len + 2;
    return n >= 10 ? len + 1 : len;
}

// An integer, |n| < 2^53, in decimal.
function writeInteger(out, pos, n) {
    if (n < 0) {
        out[pos++] = 0x2d;
        n = -n;
    }
    const len = decimalLength(n);
    let p = pos + len;
    if (n >= 0x80000000) {
        while (n >= 0x80000000) {
            const q = Math.floor(n / 100);
            const r = (n - q * 100) * 2;
            out[--p] = DIGIT_PAIRS[r + 1];
            out[--p] = DIGIT_PAIRS[r];
            n = q;
        }
    }
    n |= 0;
    while (n >= 100) {
        const q = (n / 100) | 0;
        const r = (n - q * 100) * 2;
        out[--p] = DIGIT_PAIRS[r + 1];
        out[--p] = DIGIT_PAIRS[r];
        n = q;
    }
    if (n >= 10) {
        out[--p] = DIGIT_PAIRS[2 * n + 1];
        out[--p] = DIGIT_PAIRS[2 * n];
    } else {
        out[--p] = 0x30 + n;
    }
    return pos + len;
}

// A string of ASCII characters (a number's text, a fixed piece of JSON).
function writeAscii(out, pos, text) {
    for (let i = 0; i < text.length; i++) out[pos++] = text.charCodeAt(i);
    return pos;
}

// Fixed pieces of JSON as bytes, to copy.
function asciiBytes(text) {
    return new Uint8Array(Array.from(text, (c) => c.charCodeAt(0)));
}

function writeBytes(out, pos, bytes) {
    for (let i = 0; i < bytes.length; i++) out[pos++] = bytes[i];
    return pos;
}

// src[start, end) as lowercase hex digits.
function writeHex(out, pos, src, start, end) {
    for (let i = start; i < end; i++) {
        const k = src[i] * 2;
        out[pos++] = HEX_PAIRS[k];
        out[pos++] = HEX_PAIRS[k + 1];
    }
    return pos;
}

// src[start, end) in base64 with padding (4 bytes out per 3 in, rounded up).
function writeBase64(out, pos, src, start, end) {
    let i = start;
    for (; i + 3 <= end; i += 3) {
        const v = (src[i] << 16) | (src[i + 1] << 8) | src[i + 2];
        out[pos++] = BASE64_DIGITS[v >> 18];
        out[pos++] = BASE64_DIGITS[(v >> 12) & 63];
        out[pos++] = BASE64_DIGITS[(v >> 6) & 63];
        out[pos++] = BASE64_DIGITS[v & 63];
    }
    if (end - i === 1) {
        out[pos++] = BASE64_DIGITS[src[i] >> 2];
        out[pos++] = BASE64_DIGITS[(src[i] & 3) << 4];
        out[pos++] = EQUALS;
        out[pos++] = EQUALS;
    } else if (end - i === 2) {
        const v = (src[i] << 8) | src[i + 1];
        out[pos++] = BASE64_DIGITS[v >> 10];
        out[pos++] = BASE64_DIGITS[(v >> 4) & 63];
        out[pos++] = BASE64_DIGITS[(v & 15) << 2];
        out[pos++] = EQUALS;
    }
    return pos;
}

// How much of an ISO 8601 time's fraction is written: always all of it (Date's
// toJSON), none when the milliseconds are zero (Extended JSON), or without its
// trailing zeros (Go's time format, bsondump's).
const ISO_FULL = 0;
const ISO_EJSON = 1;
const ISO_GO = 2;
const MS_PER_DAY = 86400000;
// the first instant of year 0 and of year 10000: outside them toISOString writes six-digit years
const YEAR_0_MS = -62167219200000;
const YEAR_10000_MS = 253402300800000;

function writeTwoDigits(out, pos, n) {
    out[pos] = DIGIT_PAIRS[2 * n];
    out[pos + 1] = DIGIT_PAIRS[2 * n + 1];
    return pos + 2;
}

// A time in milliseconds since the epoch (within a Date's range) as
// toISOString writes it, its fraction as `fraction` says. The calendar date
// comes from the day number by the civil-from-days method (whole eras of 400 years).
function writeIsoDate(out, pos, ms, fraction) {
    if (ms < YEAR_0_MS || ms >= YEAR_10000_MS) return writeAscii(out, pos, trimFraction(new Date(ms).toISOString(), ms, fraction));
    const days = Math.floor(ms / MS_PER_DAY);
    let rest = ms - days * MS_PER_DAY;
    const z = days + 719468;
    const era = Math.floor(z / 146097);
    const dayOfEra = z - era * 146097;
    const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
    const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
    const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
    const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
    const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    pos = writeTwoDigits(out, pos, Math.floor(year / 100));
    pos = writeTwoDigits(out, pos, year % 100);
    out[pos++] = 0x2d;
    pos = writeTwoDigits(out, pos, month);
    out[pos++] = 0x2d;
    pos = writeTwoDigits(out, pos, day);
    out[pos++] = 0x54;
    const millis = rest % 1000;
    rest = (rest - millis) / 1000;
    pos = writeTwoDigits(out, pos, Math.floor(rest / 3600));
    out[pos++] = 0x3a;
    pos = writeTwoDigits(out, pos, Math.floor(rest / 60) % 60);
    out[pos++] = 0x3a;
    pos = writeTwoDigits(out, pos, rest % 60);
    if (millis !== 0 || fraction === ISO_FULL) {
        out[pos++] = 0x2e;
        out[pos++] = 0x30 + Math.floor(millis / 100);
        if (fraction !== ISO_GO || millis % 100 !== 0) {
            out[pos++] = 0x30 + (Math.floor(millis / 10) % 10);
            if (fraction !== ISO_GO || millis % 10 !== 0) out[pos++] = 0x30 + (millis % 10);
        }
    }
    out[pos++] = 0x5a;
    return pos;
}

function trimFraction(iso, ms, fraction) {
    if (fraction === ISO_FULL) return iso;
    if (fraction === ISO_EJSON) return ms % 1000 === 0 ? iso.slice(0, -5) + 'Z' : iso;
    return iso.replace(/\.?0+Z$/, 'Z');
}

// Go's strconv.FormatFloat(x, 'G', -1, 64) with ".0" added to whole numbers, as
// bsondump writes doubles: "1.0", "1E+06", "1.2345678921232E+18", "NaN", "-0.0".
function goDouble(x) {
    if (x !== x) return 'NaN';
    if (x === Infinity) return 'Infinity';
    if (x === -Infinity) return '-Infinity';
    if (x === 0) return 1 / x < 0 ? '-0.0' : '0.0';
    // toExponential() gives the shortest digits that read back as x, as Go's -1 precision does
    const text = x.toExponential();
    const e = text.indexOf('e');
    const exponent = Number(text.slice(e + 1));
    if (exponent < -4 || exponent >= 6) {
        // toExponential's exponent always has its sign; Go's has at least two digits
        const digits = text.slice(e + 2);
        return `${text.slice(0, e)}E${text[e + 1]}${digits.length < 2 ? '0' + digits : digits}`;
    }
    // in this range JavaScript writes the same digits without an exponent
    const plain = String(x);
    return plain.indexOf('.') === -1 ? plain + '.0' : plain;
}

// The string of well-formed UTF-8 bytes[0, end), through UTF-16 code units made
// here and one native copy: V8's own UTF-8 decoder reads text twice, and on
// JSON text mostly ASCII with some other script (tweets, API statuses) it took
// a third of bsonToJSON's time. `units` has room for end units.
function utf8Text(bytes, end, units, utf16Text) {
    let n = 0;
    let i = 0;
    while (i < end) {
        const b = bytes[i];
        if (b < 0x80) {
            units[n++] = b;
            i++;
        } else if (b < 0xe0) {
            units[n++] = ((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f);
            i += 2;
        } else if (b < 0xf0) {
            units[n++] = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
            i += 3;
        } else {
            const cp = (((b & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) | ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f)) - 0x10000;
            units[n++] = 0xd800 + (cp >> 10);
            units[n++] = 0xdc00 + (cp & 0x3ff);
            i += 4;
        }
    }
    return utf16Text(units, n);
}

module.exports = {
    QUOTE, BACKSLASH, DIGIT_PAIRS, PLAIN, ESCAPED, MULTI_BYTE, BYTE_KIND, HEX_PAIRS, ISO_FULL, ISO_EJSON, ISO_GO,
    writeEscape, writeUnitEscape, writeInteger, writeTwoDigits, writeAscii, asciiBytes, writeBytes, writeHex, writeBase64, writeIsoDate, goDouble, utf8Text,
};
