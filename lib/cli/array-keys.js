'use strict';

// validate's check of what the decoder skips by design: the keys of arrays.
// Decoding takes array elements in order and ignores their keys, as bson does;
// a file whose array keys are not 0, 1, 2, ... (or not UTF-8) decodes, but does
// not load back to the same bytes, and other readers may refuse it. The
// document must already have passed the decoder.

const { isUtf8 } = require('buffer');
const C = require('../constants');
const { BSONError } = require('../errors');
const { forEachElement } = require('./raw-elements');

function badKey(buf, keyStart, keyEnd, expected, docOffset) {
    const offset = docOffset + keyStart;
    const bytes = buf.subarray(keyStart, keyEnd);
    const where = `at offset ${offset} (byte ${keyStart} of the document at offset ${docOffset})`;
    if (!isUtf8(bytes)) return new BSONError(`array key is not valid UTF-8 ${where}`, { code: 'ERR_BSON_CORRUPT', offset });
    return new BSONError(`array key '${bytes.toString()}' should be '${expected}' ${where}`, { code: 'ERR_BSON_CORRUPT', offset });
}

// Checks every array in the document at start, at any depth; throws a BSONError
// naming the first bad key and its offset in the file (docOffset + its place).
function checkArrayKeys(buf, start, isArray, docOffset) {
    let index = 0;
    forEachElement(buf, start, (type, keyStart, keyEnd, valueStart) => {
        if (isArray) {
            const expected = String(index++);
            if (keyEnd - keyStart !== expected.length || buf.latin1Slice(keyStart, keyEnd) !== expected) {
                throw badKey(buf, keyStart, keyEnd, expected, docOffset);
            }
        }
        if (type === C.BSON_DOCUMENT || type === C.BSON_ARRAY) {
            checkArrayKeys(buf, valueStart, type === C.BSON_ARRAY, docOffset);
        } else if (type === C.BSON_CODE_W_SCOPE) {
            checkArrayKeys(buf, valueStart + 8 + buf.readInt32LE(valueStart + 4), false, docOffset);
        }
    });
}

module.exports = { checkArrayKeys };
