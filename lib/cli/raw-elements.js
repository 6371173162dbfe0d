'use strict';

// Walks the elements of a document in its raw bytes, for the commands that
// print or check what the bytes say (dump's JSON and debug output, validate's
// array keys) rather than decoded values: key order, duplicate keys and array
// keys stay as stored. The document must already have passed the decoder, so
// lengths are trusted here.

const C = require('../constants');

function int32At(buf, pos) {
    return buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24);
}

// Where the value of the given type starting at pos ends.
function valueEnd(buf, type, pos) {
    const fixed = C.FIXED_VALUE_SIZE[type];
    if (fixed >= 0) return pos + fixed;
    switch (type) {
        case C.BSON_STRING:
        case C.BSON_CODE:
        case C.BSON_SYMBOL:
            return pos + 4 + int32At(buf, pos);
        case C.BSON_DOCUMENT:
        case C.BSON_ARRAY:
        case C.BSON_CODE_W_SCOPE:
            return pos + int32At(buf, pos);
        case C.BSON_BINARY:
            return pos + 5 + int32At(buf, pos);
        case C.BSON_REGEXP:
            return buf.indexOf(0, buf.indexOf(0, pos) + 1) + 1;
        case C.BSON_DBPOINTER:
            return pos + 4 + int32At(buf, pos) + 12;
        default:
            throw new Error(`BSON type 0x${type.toString(16)} has no known size`);
    }
}

// Calls each(type, keyStart, keyEnd, valueStart, valueEnd) for every element of
// the document at start (keyEnd is the key's NUL byte).
function forEachElement(buf, start, each) {
    const last = start + int32At(buf, start) - 1;
    let pos = start + 4;
    while (pos < last) {
        const type = buf[pos];
        const keyEnd = buf.indexOf(0, pos + 1);
        const end = valueEnd(buf, type, keyEnd + 1);
        each(type, pos + 1, keyEnd, keyEnd + 1, end);
        pos = end;
    }
}

module.exports = { forEachElement, valueEnd, int32At };
