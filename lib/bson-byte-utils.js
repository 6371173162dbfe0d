'use strict';

// bson@7's ByteUtils: the byte helpers it exposes (and the MongoDB driver uses),
// on Node's Buffer, with qbson's UTF-8 reader behind toUTF8.

const { Buffer } = require('buffer');
const { randomBytes } = require('./random');
const { isUint8Array } = require('util').types;
const { BSONError } = require('./errors');
const { readUtf8 } = require('./utf8');

// A Buffer over the same memory as any view or ArrayBuffer, without copying.
function toLocalBufferType(bytes) {
    if (Buffer.isBuffer(bytes)) return bytes;
    if (ArrayBuffer.isView(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tag = Object.prototype.toString.call(bytes);
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return Buffer.from(bytes);
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

function copy(source, target, targetStart, sourceStart, sourceEnd) {
    return toLocalBufferType(source).copy(target, targetStart ?? 0, sourceStart ?? 0, sourceEnd ?? source.length);
}

const ByteUtils = Object.freeze({
    isUint8Array,
    toLocalBufferType,
    allocate: (size) => Buffer.alloc(size),
    allocateUnsafe: (size) => Buffer.allocUnsafe(size),
    compare: (a, b) => toLocalBufferType(a).compare(b),
    concat: (list) => Buffer.concat(list),
    copy,
    equals: (a, b) => toLocalBufferType(a).equals(b),
    fromNumberArray: (array) => Buffer.from(array),
    fromBase64: (base64) => Buffer.from(base64, 'base64'),
    fromUTF8: (text) => Buffer.from(text, 'utf8'),
    toBase64: (bytes) => toLocalBufferType(bytes).toString('base64'),
    fromISO88591: (codePoints) => Buffer.from(codePoints, 'latin1'),
    toISO88591: (bytes) => toLocalBufferType(bytes).toString('latin1'),
    fromHex: (hex) => Buffer.from(hex, 'hex'),
    toHex: (bytes) => toLocalBufferType(bytes).toString('hex'),
    toUTF8,
    utf8ByteLength: (text) => Buffer.byteLength(text, 'utf8'),
    encodeUTF8Into: (destination, source, byteOffset) => toLocalBufferType(destination).write(source, byteOffset, 'utf8'),
    randomBytes,
    swap32: (bytes) => toLocalBufferType(bytes).swap32(),
});

module.exports = { ByteUtils, toLocalBufferType };
