'use strict';

// bson@7's ByteUtils: the byte helpers it exposes (and the MongoDB driver uses),
// over the runtime's bytes (lib/platform.js: Buffers on Node, Uint8Arrays
// elsewhere, as bson's own two implementations give), with qbson's UTF-8 reader
// behind toUTF8.

const P = require('./platform');
const { randomBytes } = require('./random');
const { isUint8Array } = require('./brands');
const { BSONError } = require('./errors');
const { readUtf8 } = require('./utf8');

// The runtime's bytes over the same memory as any view or ArrayBuffer, without copying.
function toLocalBufferType(bytes) {
    if (bytes instanceof Uint8Array) return P.local(bytes);
    if (ArrayBuffer.isView(bytes)) return P.view(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tag = Object.prototype.toString.call(bytes);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return P.view(bytes, 0, bytes.byteLength);
    throw new BSONError('Cannot create Buffer from the passed potentialBuffer.');
}

// bytes[start, end) as text; fatal makes malformed UTF-8 an error, otherwise U+FFFD
function toUTF8(bytes, start, end, fatal) {
    const str = readUtf8(toLocalBufferType(bytes), start, end, fatal === true);
    if (str === undefined) {
        throw new BSONError(`Invalid UTF-8 string in BSON document at offset ${start}`, { code: 'ERR_BSON_CORRUPT', offset: start });
    }
    return str;
}

// As Buffer#copy: bytes copied, cut at either end; returns how many.
function copy(source, target, targetStart, sourceStart, sourceEnd) {
    const from = toLocalBufferType(source);
    const ts = targetStart ?? 0;
    const ss = sourceStart ?? 0;
    const n = Math.max(0, Math.min((sourceEnd ?? from.length) - ss, from.length - ss, target.length - ts));
    if (n > 0) target.set(from.subarray(ss, ss + n), ts);
    return n;
}

// As Buffer#write(text, offset): whole characters that fit, and their byte count.
function encodeUTF8Into(destination, source, byteOffset) {
    const out = toLocalBufferType(destination);
    const room = out.length - byteOffset;
    const bytes = P.fromUtf8(source);
    if (bytes.length <= room) {
        out.set(bytes, byteOffset);
        return bytes.length;
    }
    // cut before the first byte of a character that does not fit whole
    let n = room;
    while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
    out.set(bytes.subarray(0, n), byteOffset);
    return n;
}

const ByteUtils = Object.freeze({
    isUint8Array,
    toLocalBufferType,
    allocate: P.alloc,
    allocateUnsafe: P.allocUnsafe,
    compare: (a, b) => P.compare(toLocalBufferType(a), toLocalBufferType(b)),
    concat: (list) => P.concat(list),
    copy,
    equals: (a, b) => P.compare(toLocalBufferType(a), toLocalBufferType(b)) === 0,
    fromNumberArray: P.fromArray,
    fromBase64: P.fromBase64,
    fromUTF8: P.fromUtf8,
    toBase64: (bytes) => {
        const local = toLocalBufferType(bytes);
        return P.toBase64(local, 0, local.length);
    },
    fromISO88591: P.fromLatin1,
    toISO88591: (bytes) => {
        const local = toLocalBufferType(bytes);
        return P.latin1Slice(local, 0, local.length);
    },
    fromHex: P.fromHex,
    toHex: (bytes) => {
        const local = toLocalBufferType(bytes);
        return P.toHex(local, 0, local.length);
    },
    toUTF8,
    utf8ByteLength: P.utf8ByteLength,
    encodeUTF8Into,
    randomBytes,
    swap32: (bytes) => P.swap32(toLocalBufferType(bytes)),
});

module.exports = { ByteUtils, toLocalBufferType };
