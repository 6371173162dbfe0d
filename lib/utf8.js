'use strict';

// UTF-8 for the codec: JavaScript loops for short strings, the runtime's native
// methods (lib/platform.js) for long ones. Lone surrogates become U+FFFD (EF BF BD),
// as Buffer and TextEncoder make them.

const { allocUnsafeSlow, view, countUtf8Bytes, charCodesString, utf8ByteLength, utf8Write, utf8Slice, latin1Slice, utf16leSlice, isUtf8 } = require('./platform');
const { BIG_ENDIAN_HOST } = require('./bytes');

// Below this length a JavaScript loop beats the native call's fixed cost (CPU
// time per ASCII string, this project's machine): encode 25 ns vs 100 ns at 8
// chars, 56 vs 91 at 24, 127 vs 132 at 32.
const SHORT_ENCODE_LENGTH = 24;

// Byte length of a string in UTF-8.
function utf8Length(str) {
    return str.length > SHORT_ENCODE_LENGTH ? utf8ByteLength(str) : countUtf8Bytes(str);
}

// Writes str at pos (buf must have room for 3 bytes per UTF-16 unit); returns the next pos.
function writeUtf8(buf, pos, str) {
    const len = str.length;
    if (len > SHORT_ENCODE_LENGTH) return pos + utf8Write(buf, str, pos);
    // ASCII first, stored at pos + i: V8 keeps pos untagged there, and 8-char
    // strings write in 25 ns against 40 ns through the general loop
    for (let i = 0; i < len; i++) {
        const c = str.charCodeAt(i);
        if (c >= 0x80) return writeUtf8From(buf, pos + i, str, i);
        buf[pos + i] = c;
    }
    return pos + len;
}

// Writes str from its index i on, whatever its characters.
function writeUtf8From(buf, pos, str, i) {
    const len = str.length;
    for (; i < len; i++) {
        let c = str.charCodeAt(i);
        if (c < 0x80) {
            buf[pos++] = c;
        } else if (c < 0x800) {
            buf[pos++] = 0xc0 | (c >> 6);
            buf[pos++] = 0x80 | (c & 0x3f);
        } else if (c >= 0xd800 && c < 0xe000) {
            const next = i + 1 < len ? str.charCodeAt(i + 1) : 0;
            if (c < 0xdc00 && (next & 0xfc00) === 0xdc00) {
                c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
                i++;
                buf[pos++] = 0xf0 | (c >> 18);
                buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
                buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
                buf[pos++] = 0x80 | (c & 0x3f);
            } else {
                buf[pos++] = 0xef;
                buf[pos++] = 0xbf;
                buf[pos++] = 0xbd;
            }
        } else {
            buf[pos++] = 0xe0 | (c >> 12);
            buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
            buf[pos++] = 0x80 | (c & 0x3f);
        }
    }
    return pos;
}

// Writes str and a NUL terminator; returns the next pos, or -1 if str holds a NUL
// (a C string cannot carry one: the caller reports it with the key's path).
function writeCString(buf, pos, str) {
    const len = str.length;
    if (len > SHORT_ENCODE_LENGTH) {
        if (str.indexOf('\u0000') !== -1) return -1;
        pos += utf8Write(buf, str, pos);
        buf[pos] = 0;
        return pos + 1;
    }
    for (let i = 0; i < len; i++) {
        const c = str.charCodeAt(i);
        if (c >= 0x80 || c === 0) {
            if (str.indexOf('\u0000', i) !== -1) return -1;
            const end = writeUtf8From(buf, pos + i, str, i);
            buf[end] = 0;
            return end + 1;
        }
        buf[pos + i] = c;
    }
    buf[pos + len] = 0;
    return pos + len + 1;
}

// The first COLD_STRINGS strings and keys a process decodes are made by the native
// method (lib/decoder.js readString, lib/key-cache.js readKey). Until V8 has compiled the
// JavaScript paths below they are slower than it, and compiling them was most of the
// first decode: a tweet's (22 strings, 61 keys) took 2.3 ms with them and 1.5 without (bson's
// 1.5), small_doc's 1.2 and 0.9 (1.0), flat_bson's 3.4 and 2.6 (3.5) (benchmark/start.js's
// first calls). The test is in those two callers, not here: in readUtf8 it made the readers of
// repeated shapes that call it inline the native call, and deepkit_item decode in 11% more
// instructions. 1,024 such strings cost sparse_fields 2.3-3.5% more instructions once warm
// (V8 inlined the native call into readString, from what it saw then); 256 cost nothing.
const COLD_STRINGS = 256;

// Decodes buf[start, end). With validate, invalid UTF-8 returns undefined (the
// caller throws with the offset); without, it becomes U+FFFD as in Buffer.toString.
function readUtf8(buf, start, end, validate) {
    const len = end - start;
    if (len <= MAX_ASCII_CALL_LENGTH) {
        let bits = 0;
        for (let i = start; i < end; i++) bits |= buf[i];
        if (bits < 0x80) return asciiString(buf, start, len);
    } else if (!looksNonAscii(buf, start, end)) {
        return readUtf8Native(buf, start, end, validate);
    }
    return readNonAsciiUtf8(buf, start, end, validate);
}

// Text that is not all ASCII, decoded in JavaScript (see wellFormedUtf8); anything
// not well-formed goes to the native path, which validates or replaces.
function readNonAsciiUtf8(buf, start, end, validate) {
    const str = wellFormedUtf8(buf, start, end);
    return str === undefined ? readUtf8Native(buf, start, end, validate) : str;
}

// ASCII strings this long are made by one String.fromCharCode call with a byte
// per argument: 12 characters in 19 ns, against 42 ns through latin1Slice and 83 ns
// adding one character at a time.
const MAX_ASCII_CALL_LENGTH = 16;

// The string of the len (0 to MAX_ASCII_CALL_LENGTH) ASCII bytes at buf[start].
function asciiString(buf, s, len) {
    const f = String.fromCharCode;
    switch (len) {
        case 0: return '';
        case 1: return f(buf[s]);
        case 2: return f(buf[s], buf[s + 1]);
        case 3: return f(buf[s], buf[s + 1], buf[s + 2]);
        case 4: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3]);
        case 5: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4]);
        case 6: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5]);
        case 7: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6]);
        case 8: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7]);
        default: return asciiString8(buf, s, len);
    }
}

function asciiString8(buf, s, len) {
    const f = String.fromCharCode;
    switch (len) {
        case 9: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8]);
        case 10: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9]);
        case 11: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10]);
        case 12: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11]);
        case 13: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11], buf[s + 12]);
        case 14: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11], buf[s + 12], buf[s + 13]);
        case 15: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11], buf[s + 12], buf[s + 13], buf[s + 14]);
        default: return f(buf[s], buf[s + 1], buf[s + 2], buf[s + 3], buf[s + 4], buf[s + 5], buf[s + 6], buf[s + 7], buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11], buf[s + 12], buf[s + 13], buf[s + 14], buf[s + 15]);
    }
}

// Text that is not ASCII is decoded here into UTF-16 code units and made a string
// by one native copy: 484 bytes of Japanese, Russian and emoji in 0.75 us against
// 2.0 us through utf8Slice, as V8 decodes such text twice (to size the string,
// then to fill it) at ~2 ns a byte each time. Up to 8 units make their string by
// one String.fromCharCode call instead (15 bytes of Japanese in 48 ns against 83 ns
// through the copy). A longer string whose first or middle bytes are ASCII goes
// to utf8Slice, which copies ASCII quickly.
const TEXT_SCRATCH_UNITS = 65536;
const textUnits = new Uint16Array(TEXT_SCRATCH_UNITS);
const textUnitBytes = view(textUnits.buffer, 0, textUnits.byteLength);
const textLatin1 = allocUnsafeSlow(TEXT_SCRATCH_UNITS);
const MAX_UNITS_CALL_LENGTH = 8;
// whether the units decodeUtf8Units wrote last include one above U+00FF
let textUnitsWide = false;

// Whether buf[start, end) (17 bytes or more) looks like text to decode in
// JavaScript: non-ASCII among its first four or its middle four bytes.
function looksNonAscii(buf, start, end) {
    const m = (start + end) >> 1;
    return (buf[start] | buf[start + 1] | buf[start + 2] | buf[start + 3] | buf[m] | buf[m + 1] | buf[m + 2] | buf[m + 3]) >= 0x80 && end - start <= TEXT_SCRATCH_UNITS;
}

// buf[start, end) (at most TEXT_SCRATCH_UNITS bytes) decoded if it is well-formed
// UTF-8; undefined if anything is not (overlong, surrogate, above U+10FFFF,
// truncated), for the native path to decide.
function wellFormedUtf8(buf, start, end) {
    const n = decodeUtf8Units(buf, start, end);
    if (n < 0) return undefined;
    return n <= MAX_UNITS_CALL_LENGTH ? shortUnitsString(n) : unitsString(n);
}

// The UTF-16 code units of buf[start, end) into textUnits; their count, or -1 if
// the bytes are not well-formed UTF-8.
function decodeUtf8Units(buf, start, end) {
    const units = textUnits;
    let n = 0;
    let bits = 0;
    let i = start;
    while (i < end) {
        const c = buf[i];
        if (c < 0x80) {
            units[n++] = c;
            i += 1;
            continue;
        }
        let cp;
        if (c >= 0xc2 && c < 0xe0 && i + 1 < end && (buf[i + 1] & 0xc0) === 0x80) {
            cp = ((c & 0x1f) << 6) | (buf[i + 1] & 0x3f);
            i += 2;
        } else if (c >= 0xe0 && c < 0xf0 && i + 2 < end && (buf[i + 1] & 0xc0) === 0x80 && (buf[i + 2] & 0xc0) === 0x80) {
            cp = ((c & 0x0f) << 12) | ((buf[i + 1] & 0x3f) << 6) | (buf[i + 2] & 0x3f);
            if (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)) return -1;
            i += 3;
        } else if (c >= 0xf0 && c < 0xf5 && i + 3 < end && (buf[i + 1] & 0xc0) === 0x80 && (buf[i + 2] & 0xc0) === 0x80 && (buf[i + 3] & 0xc0) === 0x80) {
            cp = ((c & 0x07) << 18) | ((buf[i + 1] & 0x3f) << 12) | ((buf[i + 2] & 0x3f) << 6) | (buf[i + 3] & 0x3f);
            if (cp < 0x10000 || cp > 0x10ffff) return -1;
            units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
            cp = 0xdc00 + ((cp - 0x10000) & 0x3ff);
            i += 4;
        } else {
            return -1;
        }
        units[n++] = cp;
        bits |= cp;
    }
    textUnitsWide = bits > 0xff;
    return n;
}

// The string of textUnits[0, n), n at most MAX_UNITS_CALL_LENGTH.
function shortUnitsString(n) {
    const u = textUnits;
    const f = String.fromCharCode;
    switch (n) {
        case 0: return '';
        case 1: return f(u[0]);
        case 2: return f(u[0], u[1]);
        case 3: return f(u[0], u[1], u[2]);
        case 4: return f(u[0], u[1], u[2], u[3]);
        case 5: return f(u[0], u[1], u[2], u[3], u[4]);
        case 6: return f(u[0], u[1], u[2], u[3], u[4], u[5]);
        case 7: return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6]);
        default: return f(u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7]);
    }
}

// The string of textUnits[0, n): one-byte when every unit is below 256, as
// utf8Slice would make it. ucs2Slice reads UTF-16LE, so a big-endian machine
// makes it by fromCharCode calls instead.
function unitsString(n) {
    if (!textUnitsWide) {
        for (let k = 0; k < n; k++) textLatin1[k] = textUnits[k];
        return latin1Slice(textLatin1, 0, n);
    }
    return BIG_ENDIAN_HOST ? charCodesString(textUnits, 0, n) : utf16leSlice(textUnitBytes, 0, 2 * n);
}


function readUtf8Native(buf, start, end, validate) {
    const str = utf8Slice(buf, start, end);
    // malformed input always decodes with U+FFFD, so only such text needs the strict check
    if (validate && str.indexOf('\ufffd') !== -1 && !isUtf8(buf, start, end)) return undefined;
    return str;
}

module.exports = {
    utf8Length, writeUtf8, writeCString, readUtf8, SHORT_ENCODE_LENGTH,
    // for the decode key cache
    asciiString, wellFormedUtf8, readUtf8Native, MAX_ASCII_CALL_LENGTH, COLD_STRINGS,
};
