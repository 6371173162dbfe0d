'use strict';

// UTF-8 for the codec: JavaScript loops for short strings, Buffer's native
// methods for long ones. Lone surrogates become U+FFFD (EF BF BD), as Buffer does.

const { Buffer, isUtf8 } = require('buffer');
const { BIG_ENDIAN_HOST } = require('./bytes');

// Below this length a JavaScript loop beats the native call's fixed cost (CPU
// time per ASCII string, this project's machine): encode 25 ns vs 100 ns at 8
// chars, 56 vs 91 at 24, 127 vs 132 at 32.
const SHORT_ENCODE_LENGTH = 24;

// Byte length of a string in UTF-8.
function utf8Length(str) {
    const len = str.length;
    if (len > SHORT_ENCODE_LENGTH) return Buffer.byteLength(str, 'utf8');
    let bytes = len;
    for (let i = 0; i < len; i++) {
        const c = str.charCodeAt(i);
        if (c < 0x80) continue;
        if (c < 0x800) bytes += 1;
        else if (c >= 0xd800 && c < 0xdc00 && i + 1 < len && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
            bytes += 2;
            i++;
        } else bytes += 2;
    }
    return bytes;
}

// Writes str at pos (buf must have room for 3 bytes per UTF-16 unit); returns the next pos.
function writeUtf8(buf, pos, str) {
    const len = str.length;
    if (len > SHORT_ENCODE_LENGTH) return pos + buf.utf8Write(str, pos);
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
        pos += buf.utf8Write(str, pos);
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
const textUnitBytes = Buffer.from(textUnits.buffer);
const textLatin1 = Buffer.allocUnsafeSlow(TEXT_SCRATCH_UNITS);
const MAX_UNITS_CALL_LENGTH = 8;
const UNITS_PER_CALL = 4096;
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
        return textLatin1.latin1Slice(0, n);
    }
    return BIG_ENDIAN_HOST ? unitsStringByCalls(n) : textUnitBytes.ucs2Slice(0, 2 * n);
}

function unitsStringByCalls(n) {
    let str = '';
    for (let k = 0; k < n; k += UNITS_PER_CALL) str += String.fromCharCode.apply(null, textUnits.subarray(k, Math.min(n, k + UNITS_PER_CALL)));
    return str;
}

function readUtf8Native(buf, start, end, validate) {
    const str = buf.utf8Slice(start, end);
    // malformed input always decodes with U+FFFD, so only such text needs the strict check
    if (validate && str.indexOf('\ufffd') !== -1 && !isUtf8(buf.subarray(start, end))) return undefined;
    return str;
}

// Keys repeat across documents, so short keys are looked up in a small cache
// instead of being rebuilt: comparing a few bytes is cheaper than making a
// string. Slots are overwritten freely; a hit is always checked byte for byte.
// Only well-formed keys are kept, so a hit needs no validation whatever the call's.
// The slot comes from the length and the first, middle, last and next-to-last
// bytes: without the next-to-last, numbered keys (flag0 to flag39) shared a few
// slots and missed every time (40 such fields decoded at 1.38x bson, now 2.33x);
// keys up to 64 bytes fit (30 keys of 45 bytes: 1.12x, now 1.95x).
const KEY_CACHE_SLOTS = 4096;
const KEY_CACHE_MAX_LENGTH = 64;
const keyCacheBytes = new Uint8Array(KEY_CACHE_SLOTS * KEY_CACHE_MAX_LENGTH);
const keyCacheLengths = new Uint8Array(KEY_CACHE_SLOTS);
const keyCacheStrings = new Array(KEY_CACHE_SLOTS).fill('');

// Decodes a key (buf[start, end), no NUL inside); undefined if invalid UTF-8 and validate.
function readKey(buf, start, end, validate) {
    const len = end - start;
    if (len > KEY_CACHE_MAX_LENGTH || len === 0) return readUtf8(buf, start, end, validate);
    const slot = (len * 31 + buf[start] * 7 + buf[end - 1] * 131 + buf[len > 1 ? end - 2 : start] * 1031 + buf[start + (len >> 1)] * 17) & (KEY_CACHE_SLOTS - 1);
    const base = slot * KEY_CACHE_MAX_LENGTH;
    if (keyCacheLengths[slot] === len) {
        let i = 0;
        while (i < len && keyCacheBytes[base + i] === buf[start + i]) i++;
        if (i === len) return keyCacheStrings[slot];
    }
    let bits = 0;
    for (let i = 0; i < len; i++) bits |= keyCacheBytes[base + i] = buf[start + i];
    const str = bits < 0x80 ? (len <= MAX_ASCII_CALL_LENGTH ? asciiString(buf, start, len) : buf.latin1Slice(start, end)) : wellFormedUtf8(buf, start, end);
    if (str === undefined) {
        // the slot's bytes are half rewritten: it holds nothing now
        keyCacheLengths[slot] = 0;
        return readUtf8Native(buf, start, end, validate);
    }
    keyCacheLengths[slot] = len;
    keyCacheStrings[slot] = str;
    return str;
}

// Keys repeat across documents too, so encoding keeps their UTF-8 bytes (with the
// NUL) in a table, each padded to whole 32-bit words: a Map lookup and a few word
// writes instead of a charCodeAt and a byte store per character (flat_bson encodes
// 1.05-1.14x faster). When keys do not repeat the table is bypassed for a while: a
// stream of never-seen keys would otherwise write 2x slower.
const KEY_TABLE_ENTRIES = 4096;
const KEY_TABLE_WORDS = 8 * KEY_TABLE_ENTRIES;
// shorter and longer keys are written directly ({a: {a, b, c, d, e}} encodes 8%
// slower through the table)
const KEY_TABLE_MIN_LENGTH = 4;
const KEY_TABLE_MAX_BYTES = 64;
// key writes that bypass the table after it filled without its keys being reused
const KEY_TABLE_REST = 1 << 18;
const keyTableWords = new Int32Array(KEY_TABLE_WORDS);
const keyTableBytes = new Uint8Array(keyTableWords.buffer);
// key -> its number in the table (0, 1, ... in the order keys came in)
const keyTable = new Map();
// by number: the index of the key's first word * 128 + its byte length with the NUL
const keyEntries = new Int32Array(KEY_TABLE_ENTRIES);
let keyTableNextWord = 0;
// hits since the table was last emptied, counted up to its size
let keyTableHits = 0;
let keyTableRest = 0;

// Documents of one shape repeat their keys in one order, so each key that goes
// through the table is also remembered by its place in the sequence of keys since
// the encode began: when the same string comes at that place again, its entry is
// taken from there without the Map lookup, which took 8% of flat_bson's encode time.
// Past the first 1,024 places (an array of many records) each key is instead
// predicted by the one before it: every key in the table remembers the key that came
// after it last time. Both are needed: in a tree of a few keys (deep_bson) a key has
// many successors, and the sequence alone left an array of 3,000 records of 11
// keys to the lookup for 97% of its keys.
const KEY_SEQUENCE_LENGTH = 1024;
const keySequenceKeys = new Array(KEY_SEQUENCE_LENGTH).fill('');
const keySequenceEntries = new Int32Array(KEY_SEQUENCE_LENGTH);
let keySequencePos = 0;
// a key's successor, by the key's number; the successor of START is the first key
// looked up in an encode (the sequence's keys do not move lastNumber: its first
// key past the sequence takes the lookup)
const START = KEY_TABLE_ENTRIES;
// made with the table's first key rather than at require, where they took 50 us
// (until then there is nothing to predict: 1,024 keys too long for the table fill
// the sequence without entering it)
let nextKeys = null;
let nextNumbers = null;
let lastNumber = START;

// The encoder calls this as each encode begins.
function startKeySequence() {
    keySequencePos = 0;
    lastNumber = START;
}

// Writes key and its NUL at pos through view (over buf's bytes), possibly writing
// up to 3 bytes past them; returns the next pos, or -1 if key holds a NUL.
// Kept small so the compiler inlines it into the encoder's loops. A key found by
// its place or its predecessor went through the table, so the table is not resting.
function writeKey(buf, view, pos, key) {
    if (key.length < KEY_TABLE_MIN_LENGTH) return writeCString(buf, pos, key);
    const at = keySequencePos;
    if (at < KEY_SEQUENCE_LENGTH) {
        if (keySequenceKeys[at] === key) {
            keySequencePos = at + 1;
            return writeKeyEntry(view, pos, keySequenceEntries[at]);
        }
    } else if (nextKeys !== null && nextKeys[lastNumber] === key) {
        return writeSuccessorKey(view, pos);
    }
    return writeKeyLookedUp(buf, view, pos, key);
}

// The key that came after the last one last time, come again.
function writeSuccessorKey(view, pos) {
    const number = nextNumbers[lastNumber];
    lastNumber = number;
    return writeKeyEntry(view, pos, keyEntries[number]);
}

// A key not at its place in the sequence: written directly, or through the table.
function writeKeyLookedUp(buf, view, pos, key) {
    if (keyTableRest !== 0) {
        keyTableRest--;
        return writeCString(buf, pos, key);
    }
    const at = keySequencePos;
    if (at < KEY_SEQUENCE_LENGTH) keySequencePos = at + 1;
    const number = keyTable.get(key);
    if (number === undefined) return writeNewKey(buf, pos, key, at);
    remember(at, key, number);
    return writeKeyEntry(view, pos, keyEntries[number]);
}

// Writes a table entry's words; the first three are unrolled, where a loop took
// 15 ns more per key.
function writeKeyEntry(view, pos, entry) {
    if (keyTableHits < KEY_TABLE_ENTRIES) keyTableHits++;
    const end = pos + (entry & 127);
    const word = entry >> 7;
    view.setInt32(pos, keyTableWords[word], true);
    view.setInt32(pos + 4, keyTableWords[word + 1], true);
    if (end > pos + 8) {
        view.setInt32(pos + 8, keyTableWords[word + 2], true);
        for (let p = pos + 12, w = word + 3; p < end; p += 4) view.setInt32(p, keyTableWords[w++], true);
    }
    return end;
}

// at: the key's place in the sequence
function writeNewKey(buf, pos, key, at) {
    const next = writeCString(buf, pos, key);
    const length = next - pos;
    if (next < 0 || length > KEY_TABLE_MAX_BYTES) return next;
    const words = (length + 3) >> 2;
    if (keyTableNextWord + words > KEY_TABLE_WORDS || keyTable.size === KEY_TABLE_ENTRIES) {
        const reused = keyTableHits >= keyTable.size;
        keyTable.clear();
        keySequenceKeys.fill('');
        if (nextKeys !== null) nextKeys.fill('');
        lastNumber = START;
        keyTableNextWord = 0;
        keyTableHits = 0;
        if (!reused) {
            keyTableRest = KEY_TABLE_REST;
            return next;
        }
    }
    // the padding after the NUL is left as it is: the encoder overwrites what follows a key
    const first = keyTableNextWord;
    for (let i = 0; i < length; i++) keyTableBytes[first * 4 + i] = buf[pos + i];
    keyTableNextWord += words;
    if (nextKeys === null) {
        nextKeys = new Array(KEY_TABLE_ENTRIES + 1).fill('');
        nextNumbers = new Int32Array(KEY_TABLE_ENTRIES + 1);
    }
    const number = keyTable.size;
    keyEntries[number] = first * 128 + length;
    keyTable.set(key, number);
    remember(at, key, number);
    return next;
}

// Records key (numbered `number` in the table) at its place in the sequence (past
// the end, nothing) and as the last key's successor.
function remember(at, key, number) {
    if (at < KEY_SEQUENCE_LENGTH) {
        keySequenceKeys[at] = key;
        keySequenceEntries[at] = keyEntries[number];
    }
    nextKeys[lastNumber] = key;
    nextNumbers[lastNumber] = number;
    lastNumber = number;
}

module.exports = { utf8Length, writeUtf8, writeCString, writeKey, startKeySequence, readUtf8, readKey, SHORT_ENCODE_LENGTH };
