'use strict';

// The codec's bytes and text, chosen once at load (nothing else knows which
// runtime this is). Where the global Buffer exists with the native methods the
// codec calls (Node, Bun, Deno's node mode), bytes are Buffers and text goes
// through those methods, as it always has (lib/node-bytes.js). Anywhere else
// (browsers, workers, Deno without node compat, React Native) bytes are plain
// Uint8Arrays and text goes through TextEncoder, TextDecoder and JavaScript loops.

const { nodeBytes } = require('./node-bytes');

// made on first use: Node needs only the strict one, and only for damaged text
let utf8Encoder = null;
let utf8Decoder = null;
let strictUtf8Decoder = null;
let utf16leDecoder = null;

function encoder() {
    return utf8Encoder === null ? (utf8Encoder = new TextEncoder()) : utf8Encoder;
}

// ignoreBOM keeps a leading U+FEFF, as Buffer's utf8Slice does
function decoder() {
    return utf8Decoder === null ? (utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true })) : utf8Decoder;
}

// textDecoder.decode(bytes). Browsers refuse views of a SharedArrayBuffer, so
// those are decoded from a copy; the buffer is asked only when decode throws, as
// reading a view's buffer took a third of decoding 80-byte strings in Chromium.
function decodeView(textDecoder, bytes) {
    try {
        return textDecoder.decode(bytes);
    } catch (err) {
        if (typeof SharedArrayBuffer !== 'function' || !(bytes.buffer instanceof SharedArrayBuffer)) throw err;
        return textDecoder.decode(bytes.slice());
    }
}

// whether buf[start, end) is well-formed UTF-8 (only text that decoded with a U+FFFD is asked)
function isUtf8(buf, start, end) {
    try {
        if (strictUtf8Decoder === null) strictUtf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
        decodeView(strictUtf8Decoder, buf.subarray(start, end));
        return true;
    } catch {
        return false;
    }
}

// strings made by String.fromCharCode.apply, this many units per call (the argument count is bounded)
const UNITS_PER_CALL = 4096;

function charCodesString(units, start, end) {
    let str = '';
    for (let k = start; k < end; k += UNITS_PER_CALL) str += String.fromCharCode.apply(null, units.subarray(k, Math.min(end, k + UNITS_PER_CALL)));
    return str;
}

// UTF-8 byte length of str, counted in JavaScript
function countUtf8Bytes(str) {
    const len = str.length;
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

const HEX = '0123456789abcdef';
// a hex digit's value by its character code, -1 for the other codes below 256
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE[HEX.charCodeAt(d)] = HEX_VALUE[HEX.toUpperCase().charCodeAt(d)] = d;

function toHex(buf, start, end) {
    let str = '';
    for (let i = start; i < end; i++) str += HEX[buf[i] >> 4] + HEX[buf[i] & 15];
    return str;
}

// As Buffer.from(hex, 'hex'): pairs of hex digits up to the first pair that is not one.
function fromHex(hex) {
    const n = hex.length >>> 1;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
        const hi = hexDigit(hex, 2 * i);
        const lo = hexDigit(hex, 2 * i + 1);
        if (hi < 0 || lo < 0) return out.slice(0, i);
        out[i] = (hi << 4) | lo;
    }
    return out;
}

// the value of the hex digit at text[i], -1 when it is none
function hexDigit(text, i) {
    const c = text.charCodeAt(i);
    return c < 256 ? HEX_VALUE[c] : -1;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// the value of each base64 character, the URL-safe ones included (as Buffer reads them); -1 for others
const BASE64_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64_VALUES[BASE64.charCodeAt(i)] = i;
BASE64_VALUES[45] = 62;
BASE64_VALUES[95] = 63;

function toBase64(buf, start, end) {
    let str = '';
    let i = start;
    for (; i + 3 <= end; i += 3) {
        const v = (buf[i] << 16) | (buf[i + 1] << 8) | buf[i + 2];
        str += BASE64[v >> 18] + BASE64[(v >> 12) & 63] + BASE64[(v >> 6) & 63] + BASE64[v & 63];
    }
    if (end - i === 1) str += BASE64[buf[i] >> 2] + BASE64[(buf[i] & 3) << 4] + '==';
    else if (end - i === 2) {
        const v = (buf[i] << 8) | buf[i + 1];
        str += BASE64[v >> 10] + BASE64[(v >> 4) & 63] + BASE64[(v & 15) << 2] + '=';
    }
    return str;
}

// As Buffer.from(text, 'base64'): characters that are not base64 are skipped, and
// reading stops at the first '='.
function fromBase64(text) {
    const out = new Uint8Array((text.length * 3) >>> 2);
    let n = 0;
    let bits = 0;
    let count = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 61) break;
        const v = c < 128 ? BASE64_VALUES[c] : -1;
        if (v < 0) continue;
        bits = (bits << 6) | v;
        if (++count === 4) {
            out[n++] = bits >> 16;
            out[n++] = (bits >> 8) & 255;
            out[n++] = bits & 255;
            bits = 0;
            count = 0;
        }
    }
    if (count === 2) out[n++] = bits >> 4;
    else if (count === 3) {
        out[n++] = bits >> 10;
        out[n++] = (bits >> 2) & 255;
    }
    return out.slice(0, n);
}

function fromLatin1(text) {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
}

function compareBytes(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function concatBytes(list) {
    let total = 0;
    for (const bytes of list) total += bytes.length;
    const out = new Uint8Array(total);
    let pos = 0;
    for (const bytes of list) {
        out.set(bytes, pos);
        pos += bytes.length;
    }
    return out;
}

// Reverses each 4 bytes in place, as Buffer#swap32 does.
function swap32(bytes) {
    if (bytes.length % 4 !== 0) throw new RangeError('Buffer size must be a multiple of 32-bits');
    for (let i = 0; i < bytes.length; i += 4) {
        const b0 = bytes[i];
        const b1 = bytes[i + 1];
        bytes[i] = bytes[i + 3];
        bytes[i + 1] = bytes[i + 2];
        bytes[i + 2] = b1;
        bytes[i + 3] = b0;
    }
    return bytes;
}

// well-formed UTF-16LE (lone surrogates would become U+FFFD)
function utf16leSlice(buf, start, end) {
    if (utf16leDecoder === null) utf16leDecoder = new TextDecoder('utf-16le');
    return decodeView(utf16leDecoder, buf.subarray(start, end));
}

// As Buffer.allocUnsafe: bytes shorter than half a pool are views of a shared
// 8 KiB pool, placed at multiples of 8. Chromium takes about a microsecond to
// make each ArrayBuffer of its own: the six 80-byte Binary values of full_bson
// were 15% of decoding it there.
const POOL_SIZE = 8 * 1024;
let pool = null;
let poolOffset = 0;

function allocFromPool(size) {
    if (size >= POOL_SIZE >>> 1) return new Uint8Array(size);
    if (pool === null || poolOffset + size > POOL_SIZE) {
        pool = new ArrayBuffer(POOL_SIZE);
        poolOffset = 0;
    }
    const bytes = new Uint8Array(pool, poolOffset, size);
    poolOffset = (poolOffset + size + 7) & ~7;
    return bytes;
}

// ASCII text up to this long is made by one String.fromCharCode call, as each
// TextDecoder call crosses into the browser: in Chromium 150 here, 17 to 32
// bytes in 130-175 ns against 190-280 ns through TextDecoder; at 40 and more,
// TextDecoder is as fast or faster.
const MAX_ASCII_CALL_LENGTH = 32;

function webUtf8Slice(buf, start, end) {
    if (end - start <= MAX_ASCII_CALL_LENGTH) {
        let bits = 0;
        for (let i = start; i < end; i++) bits |= buf[i];
        if (bits < 0x80) return String.fromCharCode.apply(null, buf.subarray(start, end));
    }
    return decodeView(decoder(), buf.subarray(start, end));
}

// The same over plain Uint8Arrays.
const webBytes = {
    alloc: (size) => new Uint8Array(size),
    allocUnsafe: allocFromPool,
    allocUnsafeSlow: (size) => new Uint8Array(size),
    fromArray: (array) => Uint8Array.from(array),
    view: (arrayBuffer, byteOffset, length) => new Uint8Array(arrayBuffer, byteOffset, length),
    local: (bytes) => bytes,
    utf8ByteLength: countUtf8Bytes,
    // the caller has made room for 3 bytes per UTF-16 unit
    utf8Write: (buf, str, pos) => encoder().encodeInto(str, buf.subarray(pos)).written,
    utf8Slice: webUtf8Slice,
    latin1Slice: (buf, start, end) => charCodesString(buf, start, end),
    utf16leSlice,
    fromUtf8: (text) => encoder().encode(text),
    toHex,
    fromHex,
    toBase64,
    fromBase64,
    fromLatin1,
    compare: compareBytes,
    concat: concatBytes,
    swap32,
};

module.exports = {
    NATIVE_BUFFER: nodeBytes !== null,
    ...(nodeBytes === null ? webBytes : nodeBytes),
    isUtf8,
    countUtf8Bytes,
    HEX,
    BASE64,
    HEX_VALUE,
    hexDigit,
    charCodesString,
};
