'use strict';

// jsonToBSON: JSON or Extended JSON text straight to BSON bytes, with the bytes
// of qbson.encode(qbson.EJSON.parse(text, options)) and no value tree between.
//
// One pass over the text's UTF-8 bytes (a string is converted once, natively),
// writing each element as it is read: a key's type byte is reserved and filled
// in when its value is seen, lengths are back-patched, and strings without
// escapes are copied byte for byte. Containers are kept on an explicit stack, so
// nesting costs no recursion.
//
// What JSON.parse and EJSON.parse would make of a document is followed exactly.
// The common wrappers ($oid, $date, $numberInt, $numberLong, $numberDouble,
// $binary, $timestamp, $code without scope, $minKey, $maxKey) in their usual
// spellings are read in place; any other wrapper or spelling is parsed and
// encoded alone by EJSON.parse and encode, and its element copied (one small
// object per such wrapper). Five rarer shapes send their whole
// document the slow way, encode(EJSON.parse(its text)), which also gives their
// errors: (1) a key seen twice (JSON.parse keeps the last value at the first
// place), (2) integer-like keys out of ascending order or after other keys
// (JavaScript objects list them first), (3) a `$`-key other than a wrapper's
// first key (DBRefs, query operators, malformed wrappers), (4) a key holding NUL
// or, under checkKeys, a '.', (5) a wrapper nested near maxDepth.

const { allocUnsafe, allocUnsafeSlow, view: bufferView, local, utf8Write, utf8Slice, fromUtf8, isUtf8 } = require('./platform');
const C = require('./constants');
const { BSONError } = require('./errors');
const { ownOptions, checkOptionsObject, readChoice, readMaxDepth, readMaxDocumentSize } = require('./options');
const { writeInt32ViewLE, writeDoubleViewLE, writeInt64FromNumberLE, writeBigInt64LE, copyBytes, dataViewOf } = require('./bytes');
const { encode } = require('./encode');
const { writeLongIndexKey } = require('./index-keys');
const { EJSON } = require('./ejson');
const {
    QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, NEWLINE,
    readNumber, readInt64Digits, utf8SequenceEnd, writeEscapedCodePoint, isJsonSpace, HEX_VALUE, decodedBase64Length, decodeBase64,
} = require('./json-text-reading');

const DOLLAR = 0x24;
const DOT = 0x2e;

const OBJECT = 0;
const ARRAY = 1;

// thrown inside a document to have it parsed the slow way (a shape the fast path leaves alone)
const SLOW = Symbol('slow path');

// the first output buffer; it doubles as needed, and one up to this size is kept for the next call
const FIRST_OUTPUT_SIZE = 64 * 1024;
const MAX_KEPT_OUTPUT_SIZE = 4 * 1024 * 1024;
const GIVEN_OUTPUT_SIZE = 32 * 1024;
let keptOutput = null;

// after this many keys an object's duplicates are found through a Set of key hashes, not a scan
const SCANNED_KEYS = 16;
// a wrapper's own nesting (a $date's {$numberLong}, a $dbPointer's $id) read the slow way below maxDepth
const WRAPPER_DEPTH = 3;
const TWO_POW_63 = 9223372036854775808;

// wrapper keys read in place; any other wrapper goes through EJSON.parse alone
const OID = 1;
const DATE = 2;
const NUMBER_INT = 3;
const NUMBER_LONG = 4;
const NUMBER_DOUBLE = 5;
const BINARY = 6;
const TIMESTAMP = 7;
const CODE = 8;
const MIN_KEY = 9;
const MAX_KEY = 10;
const OTHER_WRAPPER = 11;
const WRAPPER_KEYS = [
    ['$oid', OID], ['$date', DATE], ['$numberInt', NUMBER_INT], ['$numberLong', NUMBER_LONG], ['$numberDouble', NUMBER_DOUBLE],
    ['$binary', BINARY], ['$timestamp', TIMESTAMP], ['$code', CODE], ['$minKey', MIN_KEY], ['$maxKey', MAX_KEY],
    ['$symbol', OTHER_WRAPPER], ['$numberDecimal', OTHER_WRAPPER], ['$uuid', OTHER_WRAPPER],
    ['$regularExpression', OTHER_WRAPPER], ['$regex', OTHER_WRAPPER], ['$dbPointer', OTHER_WRAPPER], ['$undefined', OTHER_WRAPPER],
].map(([key, kind]) => ({ bytes: Array.from(key, (ch) => ch.charCodeAt(0)), kind }));
const NUMBER_LONG_KEY = 3;

class TextToBSON {
    constructor() {
        this.src = null;
        this.end = 0;
        // the string given, when one was: slow-path documents are cut from it, and offsets count its characters
        this.text = null;
        this.out = null;
        this.view = null;
        this.pos = 0;
        this.relaxed = true;
        this.typedNumbers = false;
        this.useBigInt64 = false;
        this.checkKeys = false;
        this.maxDocumentSize = 0;
        this.maxContainers = 0;
        this.parseOptions = null;
        this.encodeOptions = null;
        // the last number read; an int64's words; the key of a wrapper's member
        this.value = 0;
        this.memberKey = 0;
        this.memberKeyEnd = 0;
        this.high = 0;
        this.low = 0;
        // the open containers: where each one's length goes, its kind, its next index, its first key record
        this.frameStart = [];
        this.frameKind = [];
        this.frameIndex = [];
        this.frameKeys = [];
        // integer-like keys so far in each open object: the last one, or -2 after another key
        this.frameLastIndexKey = [];
        this.frameKeySet = [];
        this.depth = 0;
        // the open objects' keys: where each was written, its length and its hash
        this.keyPos = [];
        this.keyLength = [];
        this.keyHash = [];
        this.keyCount = 0;
        // a character offset for a byte offset, carried forward (string input only)
        this.cursorByte = 0;
        this.cursorChar = 0;
        this.docStart = 0;
        // a wrapper that EJSON.parse refused alone, or -1
        this.slowAt = -1;
    }

    start(src, end, text, options) {
        this.src = src;
        this.end = end;
        this.text = text;
        this.pos = 0;
        this.depth = 0;
        this.keyCount = 0;
        this.cursorByte = 0;
        this.cursorChar = 0;
        this.relaxed = options.relaxed;
        // plain JSON numbers become Int32, Long or Double (canonical mode, not legacy)
        this.typedNumbers = !options.relaxed && !options.legacy;
        this.useBigInt64 = options.useBigInt64;
        this.checkKeys = options.checkKeys;
        this.maxDocumentSize = options.maxDocumentSize;
        // containers allowed in a document: the root and maxDepth levels below it, as EJSON.parse counts
        this.maxContainers = options.maxDepth + 1;
        this.parseOptions = options.parseOptions;
        this.encodeOptions = options.encodeOptions;
    }

    setOutput(buf) {
        this.out = buf;
        this.view = dataViewOf(buf);
    }

    ensure(n) {
        if (this.pos + n > this.out.length) this.grow(n);
    }

    grow(n) {
        let size = this.out.length * 2;
        while (size < this.pos + n) size *= 2;
        const grown = allocUnsafeSlow(size);
        copyBytes(this.out, 0, this.pos, grown, 0);
        this.setOutput(grown);
    }

    // The offset of byte i as the caller counts it: bytes for bytes, characters for a string.
    offsetOf(i) {
        if (this.text === null) return i;
        if (i < this.cursorByte) {
            this.cursorByte = 0;
            this.cursorChar = 0;
        }
        const src = this.src;
        let chars = this.cursorChar;
        for (let b = this.cursorByte; b < i; b++) {
            const c = src[b];
            if ((c & 0xc0) !== 0x80) chars += c >= 0xf0 ? 2 : 1;
        }
        this.cursorByte = i;
        this.cursorChar = chars;
        return chars;
    }

    syntaxError(i, message, hint) {
        const offset = this.offsetOf(i);
        const found = i >= this.end ? 'the end of the text' : describeByte(this.src[i]);
        return new BSONError(`${message} but found ${found} at offset ${offset}${hint ? ` (${hint})` : ''}`, { code: 'ERR_BSON_JSON', offset });
    }
}

function describeByte(b) {
    return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

function skipSpace(src, i, end) {
    while (i < end && isJsonSpace(src[i])) i++;
    return i;
}

// ---------------------------------------------------------------------------
// containers

function openContainer(p, kind) {
    const d = p.depth;
    if (d + 1 > p.maxContainers) {
        throw new BSONError(`nesting deeper than maxDepth ${p.maxContainers - 1} at offset ${p.offsetOf(p.docStart)}`, {
            code: 'ERR_BSON_TOO_DEEP',
            offset: p.offsetOf(p.docStart),
        });
    }
    p.ensure(5);
    p.frameStart[d] = p.pos;
    p.frameKind[d] = kind;
    p.frameIndex[d] = 0;
    p.frameKeys[d] = p.keyCount;
    p.frameLastIndexKey[d] = -1;
    p.frameKeySet[d] = null;
    p.depth = d + 1;
    p.pos += 4;
}

function closeContainer(p) {
    const d = --p.depth;
    p.ensure(1);
    p.out[p.pos++] = 0;
    const start = p.frameStart[d];
    writeInt32ViewLE(p.view, start, p.pos - start);
    p.keyCount = p.frameKeys[d];
    return d === 0 ? -1 : p.frameKind[d - 1];
}

// ---------------------------------------------------------------------------
// one document: '{' at i; returns the offset after its '}'

function parseDocument(p, i) {
    const src = p.src;
    const end = p.end;
    openContainer(p, OBJECT);
    let kind = OBJECT;
    let first = true;
    i++;
    for (;;) {
        i = skipSpace(src, i, end);
        let c = src[i];
        let typePos = p.pos;
        if (first && c === (kind === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
            i++;
        } else {
            if (kind === OBJECT) {
                if (c !== QUOTE) throw p.syntaxError(i, first ? "expected a key or '}'" : 'expected a key');
                i = readKey(p, i + 1);
                i = skipSpace(src, i, end);
                if (src[i] !== COLON) throw p.syntaxError(i, "expected ':' after the key");
                i = skipSpace(src, i + 1, end);
                c = src[i];
            } else {
                typePos = writeIndexKey(p);
            }
            first = false;
            if (c === OPEN_BRACE) {
                const j = skipSpace(src, i + 1, end);
                if (src[j] === QUOTE && src[j + 1] === DOLLAR) {
                    i = readWrapper(p, i, j, typePos);
                } else {
                    p.out[typePos] = C.BSON_DOCUMENT;
                    openContainer(p, OBJECT);
                    kind = OBJECT;
                    first = true;
                    i++;
                    continue;
                }
            } else if (c === OPEN_BRACKET) {
                p.out[typePos] = C.BSON_ARRAY;
                openContainer(p, ARRAY);
                kind = ARRAY;
                first = true;
                i++;
                continue;
            } else {
                i = readScalar(p, i, c, typePos);
            }
            i = skipSpace(src, i, end);
            c = src[i];
            if (c === COMMA) {
                i++;
                continue;
            }
            if (c !== (kind === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
                throw p.syntaxError(i, kind === OBJECT ? "expected ',' or '}' after a value" : "expected ',' or ']' after a value");
            }
            i++;
        }
        // a container ends; after it, a ',' or its parent's end
        for (;;) {
            kind = closeContainer(p);
            if (kind === -1) return i;
            i = skipSpace(src, i, end);
            c = src[i];
            if (c === COMMA) {
                i++;
                break;
            }
            if (c !== (kind === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
                throw p.syntaxError(i, kind === OBJECT ? "expected ',' or '}' after a value" : "expected ',' or ']' after a value");
            }
            i++;
        }
    }
}

// The type byte's place and an array's next index as key; returns the type byte's place.
function writeIndexKey(p) {
    const d = p.depth - 1;
    const index = p.frameIndex[d]++;
    p.ensure(16);
    const typePos = p.pos;
    const out = p.out;
    if (index < 10) {
        out[typePos + 1] = 0x30 + index;
        out[typePos + 2] = 0;
        p.pos = typePos + 3;
    } else {
        p.pos = writeLongIndexKey(out, p.view, typePos + 1, index);
    }
    return typePos;
}

// A string, number or literal at i (c its first byte), written with the type byte at typePos.
function readScalar(p, i, c, typePos) {
    const src = p.src;
    const out = p.out;
    if (c === QUOTE) {
        out[typePos] = C.BSON_STRING;
        const lengthPos = p.pos;
        p.pos += 4;
        i = readString(p, i + 1);
        p.ensure(1);
        p.out[p.pos++] = 0;
        writeInt32ViewLE(p.view, lengthPos, p.pos - lengthPos - 4);
        return i;
    }
    p.ensure(9);
    if (c === 0x74 /* t */ && src[i + 1] === 0x72 && src[i + 2] === 0x75 && src[i + 3] === 0x65) {
        out[typePos] = C.BSON_BOOLEAN;
        out[p.pos++] = 1;
        return i + 4;
    }
    if (c === 0x66 /* f */ && src[i + 1] === 0x61 && src[i + 2] === 0x6c && src[i + 3] === 0x73 && src[i + 4] === 0x65) {
        out[typePos] = C.BSON_BOOLEAN;
        out[p.pos++] = 0;
        return i + 5;
    }
    if (c === 0x6e /* n */ && src[i + 1] === 0x75 && src[i + 2] === 0x6c && src[i + 3] === 0x6c) {
        out[typePos] = C.BSON_NULL;
        return i + 4;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
        const next = readNumber(src, i, p.end, p);
        if (next < 0) throw p.syntaxError(-next - 1, 'expected a digit');
        writeNumber(p, typePos, p.value, p.typedNumbers);
        return next;
    }
    throw p.syntaxError(i, 'expected a value');
}

// A number as EJSON.parse leaves it: relaxed, an int32 when it fits and a double
// otherwise; canonical (`typed`), an int64 for other integers of the int64 range.
function writeNumber(p, typePos, v, typed) {
    const out = p.out;
    if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
        out[typePos] = C.BSON_INT32;
        p.pos = writeInt32ViewLE(p.view, p.pos, v);
    } else if (typed && Number.isInteger(v) && v >= -TWO_POW_63 && v <= TWO_POW_63 && !(v === 0 && 1 / v < 0)) {
        out[typePos] = C.BSON_INT64;
        p.pos = writeInt64(p, p.pos, v);
    } else {
        out[typePos] = C.BSON_DOUBLE;
        p.pos = writeDoubleViewLE(p.view, p.pos, v);
    }
}

// An integral number as int64, as Long.fromNumber (2^63 saturates) or, with useBigInt64, BigInt (2^63 wraps).
function writeInt64(p, pos, v) {
    if (p.useBigInt64) return writeBigInt64LE(p.out, pos, BigInt(v));
    if (v >= TWO_POW_63) {
        writeInt32ViewLE(p.view, pos, -1);
        return writeInt32ViewLE(p.view, pos + 4, 0x7fffffff);
    }
    return writeInt64FromNumberLE(p.out, pos, v);
}

// ---------------------------------------------------------------------------
// strings and keys

// Copies a string's bytes from i (after its opening quote) to the output,
// decoding escapes; returns the offset after its closing quote.
function readString(p, i) {
    const src = p.src;
    const end = p.end;
    for (;;) {
        let j = i;
        let c = 0;
        for (;;) {
            while (j < end && (c = src[j]) !== QUOTE && c !== BACKSLASH && c >= 0x20 && c < 0x80) j++;
            if (j >= end || c < 0x80) break;
            const next = utf8SequenceEnd(src, j, end);
            if (next < 0) throw invalidUtf8(p, j);
            j = next;
        }
        p.ensure(j - i + 4);
        p.pos = copyBytes(src, i, j, p.out, p.pos);
        if (j >= end) throw p.syntaxError(j, 'expected the closing \'"\' of a string');
        if (c === QUOTE) return j + 1;
        if (c !== BACKSLASH) throw p.syntaxError(j, 'expected a character of a string (control characters must be escaped)');
        i = readEscape(p, j);
    }
}

function invalidUtf8(p, i) {
    return new BSONError(`the text is not valid UTF-8 at offset ${i}`, { code: 'ERR_BSON_JSON', offset: i });
}

const SIMPLE_ESCAPES = new Uint8Array(128);
SIMPLE_ESCAPES[QUOTE] = QUOTE;
SIMPLE_ESCAPES[BACKSLASH] = BACKSLASH;
SIMPLE_ESCAPES[0x2f] = 0x2f;
SIMPLE_ESCAPES[0x62] = 0x08;
SIMPLE_ESCAPES[0x66] = 0x0c;
SIMPLE_ESCAPES[0x6e] = 0x0a;
SIMPLE_ESCAPES[0x72] = 0x0d;
SIMPLE_ESCAPES[0x74] = 0x09;

// The escape at i (its backslash) written out; returns the offset after it.
function readEscape(p, i) {
    const src = p.src;
    const e = src[i + 1];
    p.ensure(4);
    if (e !== 0x75 /* u */) {
        const simple = e < 128 ? SIMPLE_ESCAPES[e] : 0;
        if (simple === 0) throw p.syntaxError(i + 1, 'expected an escape character');
        p.out[p.pos++] = simple;
        return i + 2;
    }
    let unit = hex4(src, i + 2, p.end);
    if (unit < 0) throw p.syntaxError(i + 2 - unit - 1, 'expected 4 hexadecimal digits');
    let next = i + 6;
    // a high surrogate followed by an escaped low one is one character; a lone one becomes U+FFFD, as encode writes it
    if (unit >= 0xd800 && unit < 0xdc00 && src[next] === BACKSLASH && src[next + 1] === 0x75) {
        const low = hex4(src, next + 2, p.end);
        if (low >= 0xdc00 && low < 0xe000) {
            unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
            next += 6;
        }
    }
    p.pos = writeEscapedCodePoint(p.out, p.pos, unit);
    return next;
}

// four hex digits at i as a number; else -(1 + the offset of the first bad one after i)
function hex4(src, i, end) {
    let v = 0;
    for (let k = 0; k < 4; k++) {
        const h = i + k < end && src[i + k] < 128 ? HEX_VALUE[src[i + k]] : -1;
        if (h < 0) return -(1 + k);
        v = (v << 4) | h;
    }
    return v;
}

// A key from i (after its quote): type byte reserved, key and NUL written, checked
// against the object's other keys. Returns the offset after its closing quote.
function readKey(p, i) {
    p.ensure(2);
    const start = ++p.pos;
    i = readString(p, i);
    const out = p.out;
    const end = p.pos;
    p.ensure(1);
    out[p.pos++] = 0;
    let hash = 0;
    let digits = out[start] >= 0x30 && out[start] <= 0x39;
    for (let k = start; k < end; k++) {
        const b = out[k];
        if (b === 0 || (b === DOT && p.checkKeys)) throw SLOW;
        if (b < 0x30 || b > 0x39) digits = false;
        hash = (Math.imul(hash, 31) + b) | 0;
    }
    if (out[start] === DOLLAR) throw SLOW;
    const d = p.depth - 1;
    checkKeyOrder(p, d, start, end, digits);
    rememberKey(p, d, start, end - start, hash);
    return i;
}

// Integer-like keys ('0', '17', up to 2^32 - 2) come first in a JavaScript object, in ascending order.
function checkKeyOrder(p, d, start, end, digits) {
    const last = p.frameLastIndexKey[d];
    if (digits && (end - start === 1 || p.out[start] !== 0x30) && end - start <= 10) {
        let n = 0;
        for (let k = start; k < end; k++) n = n * 10 + p.out[k] - 0x30;
        if (n <= 4294967294) {
            if (last === -2 || n <= last) throw SLOW;
            p.frameLastIndexKey[d] = n;
            return;
        }
    }
    p.frameLastIndexKey[d] = -2;
}

function rememberKey(p, d, start, length, hash) {
    const first = p.frameKeys[d];
    let set = p.frameKeySet[d];
    if (set !== null) {
        if (set.has(hash)) checkSameKey(p, first, start, length, hash);
        else set.add(hash);
    } else {
        const hashes = p.keyHash;
        for (let k = first; k < p.keyCount; k++) if (hashes[k] === hash) checkSameKey(p, first, start, length, hash);
        if (p.keyCount - first === SCANNED_KEYS) {
            set = new Set();
            for (let k = first; k < p.keyCount; k++) set.add(hashes[k]);
            set.add(hash);
            p.frameKeySet[d] = set;
        }
    }
    p.keyPos[p.keyCount] = start;
    p.keyLength[p.keyCount] = length;
    p.keyHash[p.keyCount++] = hash;
}

// Two keys of one object with the same hash: the slow way if they are the same key.
function checkSameKey(p, first, start, length, hash) {
    const out = p.out;
    for (let k = first; k < p.keyCount; k++) {
        if (p.keyHash[k] !== hash || p.keyLength[k] !== length) continue;
        const at = p.keyPos[k];
        let n = 0;
        while (n < length && out[at + n] === out[start + n]) n++;
        if (n === length) throw SLOW;
    }
}

// ---------------------------------------------------------------------------
// wrappers: '{' at i, the quote of its first key (a $-key) at q

function readWrapper(p, i, q, typePos) {
    const src = p.src;
    let k = q + 1;
    while (k < p.end && src[k] !== QUOTE && src[k] !== BACKSLASH) k++;
    if (src[k] !== QUOTE) throw SLOW;
    const kind = wrapperKind(src, q + 1, k);
    if (kind === 0) throw SLOW;
    let j = skipSpace(src, k + 1, p.end);
    if (src[j] !== COLON) throw p.syntaxError(j, "expected ':' after the key");
    j = skipSpace(src, j + 1, p.end);
    const valuePos = p.pos;
    let next = -1;
    if (kind === OID) next = readObjectIdWrapper(p, j, typePos);
    else if (kind === DATE) next = readDateWrapper(p, j, typePos);
    else if (kind <= NUMBER_DOUBLE) next = readNumberWrapper(p, j, typePos, kind);
    else if (kind === BINARY) next = readBinaryWrapper(p, j, typePos);
    else if (kind === TIMESTAMP) next = readTimestampWrapper(p, j, typePos);
    else if (kind === CODE) next = readCodeWrapper(p, j, typePos);
    else if (kind !== OTHER_WRAPPER) next = readKeyWrapper(p, j, typePos, kind === MIN_KEY ? C.BSON_MINKEY : C.BSON_MAXKEY);
    if (next >= 0) {
        next = skipSpace(src, next, p.end);
        if (src[next] === CLOSE_BRACE) return next + 1;
    }
    p.pos = valuePos;
    return readWrapperAlone(p, i, typePos);
}

function wrapperKind(src, start, end) {
    const n = end - start;
    for (let w = 0; w < WRAPPER_KEYS.length; w++) {
        const key = WRAPPER_KEYS[w].bytes;
        if (key.length !== n) continue;
        let same = true;
        for (let k = 1; k < n && same; k++) same = src[start + k] === key[k];
        if (same) return WRAPPER_KEYS[w].kind;
    }
    return 0;
}

// a plain string's bounds from its quote at i: end (its closing quote), or -1 when it has escapes or is not a string
function plainString(src, i, end) {
    if (src[i] !== QUOTE) return -1;
    let k = i + 1;
    while (k < end && src[k] !== QUOTE && src[k] !== BACKSLASH && src[k] >= 0x20) k++;
    return k < end && src[k] === QUOTE ? k : -1;
}

// {"$oid": "24 hex digits"}; returns the offset after the value, or -1 to read it the slow way
function readObjectIdWrapper(p, j, typePos) {
    const src = p.src;
    const close = plainString(src, j, p.end);
    if (close !== j + 25) return -1;
    p.ensure(12);
    const out = p.out;
    for (let k = 0; k < 12; k++) {
        const hi = src[j + 1 + 2 * k];
        const lo = src[j + 2 + 2 * k];
        const h = hi < 128 ? HEX_VALUE[hi] : -1;
        const l = lo < 128 ? HEX_VALUE[lo] : -1;
        if (h < 0 || l < 0) return -1;
        out[p.pos + k] = (h << 4) | l;
    }
    out[typePos] = C.BSON_OBJECTID;
    p.pos += 12;
    return close + 1;
}

// {"$date": "ISO-8601"} (read by Date.parse, as EJSON.parse reads it) or {"$date": {"$numberLong": "<ms>"}}
function readDateWrapper(p, j, typePos) {
    const src = p.src;
    let next;
    let ms;
    if (src[j] === OPEN_BRACE) {
        next = readNumberLongObject(p, j);
        ms = p.value + 0;
        // a JavaScript Date's range
        if (next < 0 || !(ms >= -8.64e15 && ms <= 8.64e15)) return -1;
    } else {
        next = plainString(src, j, p.end);
        if (next < 0 || next - j > 64) return -1;
        let text = '';
        for (let k = j + 1; k < next; k++) {
            if (src[k] >= 0x80) return -1;
            text += String.fromCharCode(src[k]);
        }
        ms = Date.parse(text);
        if (Number.isNaN(ms)) return -1;
        next++;
    }
    p.ensure(8);
    p.out[typePos] = C.BSON_DATE;
    p.pos = writeInt64FromNumberLE(p.out, p.pos, ms);
    return next;
}

// {"$numberLong": "<digits>"} at j, its value in p.high, p.low and p.value; the offset after it, or -1
function readNumberLongObject(p, j) {
    const src = p.src;
    const q = skipSpace(src, j + 1, p.end);
    const NAME = WRAPPER_KEYS[NUMBER_LONG_KEY].bytes;
    if (plainString(src, q, p.end) !== q + NAME.length + 1) return -1;
    for (let k = 1; k < NAME.length; k++) if (src[q + 1 + k] !== NAME[k]) return -1;
    let k = skipSpace(src, q + NAME.length + 2, p.end);
    if (src[k] !== COLON) return -1;
    k = skipSpace(src, k + 1, p.end);
    const close = plainString(src, k, p.end);
    if (close < 0 || !readInt64Digits(src, k + 1, close, p)) return -1;
    k = skipSpace(src, close + 1, p.end);
    return src[k] === CLOSE_BRACE ? k + 1 : -1;
}

// {"$numberInt" | "$numberLong" | "$numberDouble": "<digits>"}: the forms whose
// value is read here exactly; others ("+1", "007", "-0" as $numberInt,
// "Infinity", "1e400") go the slow way.
function readNumberWrapper(p, j, typePos, kind) {
    const src = p.src;
    const close = plainString(src, j, p.end);
    if (close < 0) return -1;
    p.ensure(8);
    if (kind === NUMBER_LONG) {
        if (!readInt64Digits(src, j + 1, close, p)) return -1;
        if (p.relaxed && !p.useBigInt64) {
            writeNumber(p, typePos, p.value + 0, false);
        } else {
            p.out[typePos] = C.BSON_INT64;
            p.pos = writeInt32ViewLE(p.view, writeInt32ViewLE(p.view, p.pos, p.low), p.high);
        }
        return close + 1;
    }
    const first = src[j + 1] === 0x2d ? j + 2 : j + 1;
    if (src[first] === 0x30 && close - first !== 1) return -1;
    if (readNumber(src, j + 1, close, p) !== close) return -1;
    const v = p.value;
    if (kind === NUMBER_DOUBLE) {
        if (p.relaxed) {
            writeNumber(p, typePos, v, false);
        } else {
            p.out[typePos] = C.BSON_DOUBLE;
            p.pos = writeDoubleViewLE(p.view, p.pos, v);
        }
        return close + 1;
    }
    if ((v | 0) !== v || hasFractionOrExponent(src, first, close) || (v === 0 && 1 / v < 0)) return -1;
    // a $numberInt is a number when relaxed, an Int32 when not: an int32 either way
    p.out[typePos] = C.BSON_INT32;
    p.pos = writeInt32ViewLE(p.view, p.pos, v);
    return close + 1;
}

function hasFractionOrExponent(src, start, end) {
    for (let k = start; k < end; k++) if (src[k] < 0x30 || src[k] > 0x39) return true;
    return false;
}

// A member of a wrapper's inner object at k: its key a plain string, then ':'.
// Returns where its value starts (the key's bounds in p.memberKey, p.memberKeyEnd), or -1.
function memberValue(p, k) {
    const src = p.src;
    const keyEnd = plainString(src, k, p.end);
    if (keyEnd < 0) return -1;
    p.memberKey = k + 1;
    p.memberKeyEnd = keyEnd;
    const v = skipSpace(src, keyEnd + 1, p.end);
    return src[v] === COLON ? skipSpace(src, v + 1, p.end) : -1;
}

// After a member's value at k: the next member's start (after ','), or -1; `last` wants the closing '}' instead.
function afterMember(p, k, last) {
    const src = p.src;
    k = skipSpace(src, k, p.end);
    if (last) return src[k] === CLOSE_BRACE ? k + 1 : -1;
    return src[k] === COMMA ? skipSpace(src, k + 1, p.end) : -1;
}

function memberKeyIs(p, name) {
    const src = p.src;
    const start = p.memberKey;
    if (p.memberKeyEnd - start !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (src[start + k] !== name.charCodeAt(k)) return false;
    return true;
}

// {"$binary": {"base64": "...", "subType": "hh"}}, the two in either order, the
// base64 strict (length a multiple of 4); subtypes 2 (an inner length) and 9
// (a vector, which encode checks) go the slow way.
function readBinaryWrapper(p, j, typePos) {
    const src = p.src;
    if (src[j] !== OPEN_BRACE) return -1;
    let k = skipSpace(src, j + 1, p.end);
    let base64 = -1;
    let base64End = -1;
    let subType = -1;
    for (let m = 0; m < 2; m++) {
        const v = memberValue(p, k);
        const end = v < 0 ? -1 : plainString(src, v, p.end);
        if (end < 0) return -1;
        if (base64 < 0 && memberKeyIs(p, 'base64')) {
            base64 = v + 1;
            base64End = end;
        } else if (subType < 0 && memberKeyIs(p, 'subType') && end - v - 1 >= 1 && end - v - 1 <= 2) {
            subType = hexValue(src, v + 1, end);
            if (subType < 0) return -1;
        } else {
            return -1;
        }
        k = afterMember(p, end + 1, m === 1);
        if (k < 0) return -1;
    }
    if (subType === C.BINARY_OLD || subType === C.BINARY_VECTOR) return -1;
    const n = decodedBase64Length(src, base64, base64End);
    if (n < 0) return -1;
    p.ensure(5 + n);
    writeInt32ViewLE(p.view, p.pos, n);
    p.out[p.pos + 4] = subType;
    decodeBase64(src, base64, base64End, p.out, p.pos + 5);
    p.pos += 5 + n;
    p.out[typePos] = C.BSON_BINARY;
    return k;
}

function hexValue(src, start, end) {
    let v = 0;
    for (let k = start; k < end; k++) {
        const h = src[k] < 128 ? HEX_VALUE[src[k]] : -1;
        if (h < 0) return -1;
        v = (v << 4) | h;
    }
    return v;
}

// {"$timestamp": {"t": <uint32>, "i": <uint32>}}, in either order
function readTimestampWrapper(p, j, typePos) {
    const src = p.src;
    if (src[j] !== OPEN_BRACE) return -1;
    let k = skipSpace(src, j + 1, p.end);
    let t = -1;
    let inc = -1;
    for (let m = 0; m < 2; m++) {
        const v = memberValue(p, k);
        if (v < 0 || !(src[v] >= 0x30 && src[v] <= 0x39)) return -1;
        const end = readNumber(src, v, p.end, p);
        const n = p.value;
        if (end < 0 || !Number.isInteger(n) || n > 0xffffffff) return -1;
        if (t < 0 && memberKeyIs(p, 't')) t = n;
        else if (inc < 0 && memberKeyIs(p, 'i')) inc = n;
        else return -1;
        k = afterMember(p, end, m === 1);
        if (k < 0) return -1;
    }
    p.ensure(8);
    p.pos = writeInt32ViewLE(p.view, writeInt32ViewLE(p.view, p.pos, inc | 0), t | 0);
    p.out[typePos] = C.BSON_TIMESTAMP;
    return k;
}

// {"$code": "..."} without a $scope (code with a scope goes through EJSON.parse)
function readCodeWrapper(p, j, typePos) {
    const src = p.src;
    if (src[j] !== QUOTE) return -1;
    const lengthPos = p.pos;
    p.ensure(4);
    p.pos += 4;
    const next = readString(p, j + 1);
    if (src[skipSpace(src, next, p.end)] !== CLOSE_BRACE) return -1;
    p.ensure(1);
    p.out[p.pos++] = 0;
    writeInt32ViewLE(p.view, lengthPos, p.pos - lengthPos - 4);
    p.out[typePos] = C.BSON_CODE;
    return next;
}

// {"$minKey": 1} or {"$maxKey": 1}
function readKeyWrapper(p, j, typePos, type) {
    const src = p.src;
    if (!(src[j] >= 0x30 && src[j] <= 0x39)) return -1;
    const end = readNumber(src, j, p.end, p);
    if (end < 0 || p.value !== 1) return -1;
    p.out[typePos] = type;
    return end;
}

// Any other wrapper: its text parsed and encoded alone as the one field of a
// document, and that field's type and value copied. Returns the offset after it.
function readWrapperAlone(p, i, typePos) {
    if (p.depth + WRAPPER_DEPTH > p.maxContainers) throw SLOW;
    const end = skipValue(p.src, i, p.end);
    if (end < 0) throw SLOW;
    checkUtf8(p, i, end);
    let bytes;
    try {
        bytes = encode(EJSON.parse(`{"":${textOf(p, i, end)}}`, p.parseOptions), p.encodeOptions);
    } catch (err) {
        // the document's own reading will fail here too: its error names this place
        p.slowAt = i;
        throw SLOW;
    }
    const n = bytes.length;
    if (n === 5) {
        // the value is left out (undefined); in an array encode keeps its place as null
        if (p.depth === 0 || p.frameKind[p.depth - 1] === ARRAY) throw SLOW;
        p.pos = typePos;
        p.keyCount--;
        return end;
    }
    p.ensure(n);
    p.out[typePos] = bytes[4];
    p.pos = copyBytes(bytes, 6, n - 1, p.out, p.pos);
    return end;
}

// The end of the JSON value at i by its brackets and strings alone (JSON.parse checks the rest); -1 if it has none.
function skipValue(src, i, end) {
    let depth = 0;
    for (; i < end; i++) {
        const c = src[i];
        if (c === QUOTE) {
            i++;
            while (i < end && src[i] !== QUOTE) i += src[i] === BACKSLASH ? 2 : 1;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
            depth++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (--depth === 0) return i + 1;
        }
    }
    return -1;
}

function textOf(p, start, end) {
    if (p.text !== null) return p.text.slice(p.offsetOf(start), p.offsetOf(end));
    return utf8Slice(p.src, start, end);
}

// ---------------------------------------------------------------------------
// documents, one or many

// The document whose '{' is at i, into the output; returns the offset after it.
function readDocument(p, i) {
    const docPos = p.pos;
    p.docStart = i;
    p.slowAt = -1;
    let next;
    try {
        next = parseDocument(p, i);
    } catch (err) {
        if (err !== SLOW) throw err;
        p.pos = docPos;
        p.depth = 0;
        p.keyCount = 0;
        next = readDocumentAlone(p, i);
    }
    const size = p.pos - docPos;
    if (p.maxDocumentSize && size > p.maxDocumentSize) {
        throw new BSONError(`document of ${size} bytes or more exceeds maxDocumentSize ${p.maxDocumentSize} at offset ${p.offsetOf(i)}`, {
            code: 'ERR_BSON_TOO_LARGE',
            offset: p.offsetOf(i),
        });
    }
    return next;
}

// A document the fast path leaves alone: encode(EJSON.parse(its text)).
function readDocumentAlone(p, i) {
    const end = skipValue(p.src, i, p.end);
    checkUtf8(p, i, end < 0 ? p.end : end);
    const docOffset = p.offsetOf(i);
    const offset = p.slowAt >= 0 ? p.offsetOf(p.slowAt) : docOffset;
    const where = p.slowAt >= 0 ? ` at offset ${offset} (in the document at offset ${docOffset})` : ` (in the document at offset ${docOffset})`;
    let bytes;
    try {
        bytes = encode(EJSON.parse(textOf(p, i, end < 0 ? p.end : end), p.parseOptions), p.encodeOptions);
    } catch (err) {
        const message = err instanceof SyntaxError ? `invalid JSON: ${err.message}` : err.message;
        throw new BSONError(message + where, {
            code: err instanceof BSONError ? err.code : 'ERR_BSON_JSON',
            offset,
            path: err.path,
            cause: err,
        });
    }
    p.ensure(bytes.length);
    p.pos = copyBytes(bytes, 0, bytes.length, p.out, p.pos);
    return end;
}

function readOne(p, i) {
    const src = p.src;
    const c = src[i];
    if (c === OPEN_BRACE) return readDocument(p, i);
    if (c === 0x6e && src[i + 1] === 0x75 && src[i + 2] === 0x6c && src[i + 3] === 0x6c) {
        // encode(null) is the empty document
        p.ensure(5);
        writeInt32ViewLE(p.view, p.pos, 5);
        p.out[p.pos + 4] = 0;
        p.pos += 5;
        return i + 4;
    }
    if (c === OPEN_BRACKET) throw p.syntaxError(i, "expected a document ('{')", "a JSON array of documents needs the option many: 'array'");
    throw p.syntaxError(i, "expected a document ('{')");
}

function readArrayOfDocuments(p, i) {
    const src = p.src;
    if (src[i] !== OPEN_BRACKET) throw p.syntaxError(i, "expected '[' to start the array of documents");
    i = skipSpace(src, i + 1, p.end);
    if (src[i] === CLOSE_BRACKET) return i + 1;
    for (;;) {
        if (src[i] !== OPEN_BRACE) throw p.syntaxError(i, "expected a document ('{') in the array");
        i = skipSpace(src, readDocument(p, i), p.end);
        if (src[i] === CLOSE_BRACKET) return i + 1;
        if (src[i] !== COMMA) throw p.syntaxError(i, "expected ',' or ']' after a document");
        i = skipSpace(src, i + 1, p.end);
    }
}

// Documents one a line (a document may span lines); blank lines are skipped.
function readLines(p, i) {
    const src = p.src;
    const end = p.end;
    for (;;) {
        i = skipSpace(src, i, end);
        if (i >= end) return i;
        if (src[i] !== OPEN_BRACE) throw p.syntaxError(i, "expected a document ('{') at the start of a line");
        i = readDocument(p, i);
        while (i < end && src[i] !== NEWLINE && isJsonSpace(src[i])) i++;
        if (i < end && src[i] !== NEWLINE) throw p.syntaxError(i, 'expected the end of the line after a document');
    }
}

// ---------------------------------------------------------------------------
// the API

const MANY_CHOICES = ['array', 'lines'];

function jsonToBSON(input, options) {
    if (options === undefined) {
        if (defaultOptions === null) defaultOptions = prepareOptions(undefined);
        return convertText(input, defaultOptions);
    }
    return convertText(input, prepareOptions(options));
}

let defaultOptions = null;

// The options read and checked once, for callers converting many texts alike.
function prepareOptions(options) {
    checkOptionsObject(options);
    const o = ownOptions(null, options);
    readChoice('many', o.many, MANY_CHOICES);
    return readOptions(o);
}

// The parser when free, with its stacks grown by earlier calls; a fresh one if in use.
let idleParser = null;
// a string of up to a third of this many characters is converted to UTF-8 here, not in a new Buffer
const INPUT_SCRATCH_SIZE = 48 * 1024;
let inputScratch = null;

function convertText(input, prepared) {
    let p = idleParser;
    idleParser = null;
    if (p === null) p = new TextToBSON();
    if (typeof input === 'string') {
        if (input.length * 3 <= INPUT_SCRATCH_SIZE) {
            if (inputScratch === null) inputScratch = allocUnsafeSlow(INPUT_SCRATCH_SIZE);
            const n = utf8Write(inputScratch, input, 0);
            // a view of exactly the text: reading past its end gives undefined, as the parser expects
            p.start(bufferView(inputScratch.buffer, inputScratch.byteOffset, n), n, input, prepared);
        } else {
            const src = fromUtf8(input);
            p.start(src, src.length, input, prepared);
        }
    } else {
        const src = checkedBytes(input);
        p.start(src, src.length, null, prepared);
    }
    const kept = keptOutput;
    keptOutput = null;
    p.setOutput(kept !== null ? kept : allocUnsafeSlow(FIRST_OUTPUT_SIZE));
    const src = p.src;
    let i = skipSpace(src, 0, p.end);
    if (prepared.many === 'array') i = readArrayOfDocuments(p, i);
    else if (prepared.many === 'lines') i = readLines(p, i);
    else i = readOne(p, i);
    i = skipSpace(src, i, p.end);
    if (i < p.end) throw p.syntaxError(i, 'expected the end of the text');
    let result;
    if (p.pos >= GIVEN_OUTPUT_SIZE && p.pos * 2 >= p.out.length) {
        // a large output that fills half its buffer or more is handed over, not copied
        result = bufferView(p.out.buffer, p.out.byteOffset, p.pos);
    } else {
        result = allocUnsafe(p.pos);
        copyBytes(p.out, 0, p.pos, result, 0);
        if (p.out.length <= MAX_KEPT_OUTPUT_SIZE) keptOutput = p.out;
    }
    p.src = null;
    p.text = null;
    p.out = null;
    p.view = null;
    idleParser = p;
    return result;
}

// UTF-8 bytes over the same memory as the codec's bytes (a Buffer on Node, for its native slicing)
function checkedBytes(input) {
    if (!(input instanceof Uint8Array)) {
        throw new BSONError(`jsonToBSON needs a string or UTF-8 bytes (a Uint8Array), not ${input === null ? 'null' : typeof input}`);
    }
    // its strings are checked as they are read (UTF-8 elsewhere is no JSON), and a slow-path document before it is parsed
    return local(input);
}

function readOptions(o) {
    const maxDepth = readMaxDepth(o.maxDepth);
    const maxDocumentSize = readMaxDocumentSize(o.maxDocumentSize, 0);
    // EJSON.parse and encode take the same own options, and ignore `many`
    return {
        many: o.many,
        relaxed: o.relaxed != null ? Boolean(o.relaxed) : true,
        legacy: Boolean(o.legacy),
        useBigInt64: Boolean(o.useBigInt64),
        checkKeys: o.checkKeys === true,
        maxDepth,
        maxDocumentSize,
        parseOptions: o,
        encodeOptions: o,
    };
}

// where bytes stop being UTF-8, or -1
function firstInvalidUtf8(src, start, end) {
    let i = start;
    while (i < end) {
        if (src[i] < 0x80) {
            i++;
            continue;
        }
        const next = utf8SequenceEnd(src, i, end);
        if (next < 0) return i;
        i = next;
    }
    return -1;
}

// Bytes given for a document read the slow way are checked first (its text is decoded with U+FFFD for bad bytes).
function checkUtf8(p, start, end) {
    if (p.text !== null || isUtf8(p.src, start, end)) return;
    const offset = firstInvalidUtf8(p.src, start, end);
    throw new BSONError(`the text is not valid UTF-8 at offset ${offset}`, { code: 'ERR_BSON_JSON', offset });
}

module.exports = { jsonToBSON, prepareOptions, convertText };
