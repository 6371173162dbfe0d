'use strict';

// The element scanner: walks one document level over its bytes, finding each
// element's type, key and value span without decoding anything. Every length is
// checked against the end of the document, as the decoder checks it, and bad
// bytes are a BSONOffsetError at the offset where they are.
//
// The building blocks, for anything that reads documents in place:
//   documentSize(bytes, start, limit, what) -> size of the document at start
//   keyEnd(bytes, elementStart, end)        -> offset of the key's NUL (the type byte checked)
//   valueEnd(bytes, type, valueStart, end)  -> offset after the value
// where `end` is the offset of the document's terminating NUL. One level is
// (valueEnd never returns past end, so the loop ends exactly there):
//   for (let pos = start + 4; pos < end; ) {
//       const type = bytes[pos];
//       const nul = keyEnd(bytes, pos, end);   // key: bytes[pos + 1, nul)
//       pos = valueEnd(bytes, type, nul + 1, end);
//   }
// parseToElements (bson's onDemand API) is that loop, collecting bson's tuples;
// checkDocumentTree is that loop at every level (decode's check of raw documents).

const C = require('./constants');
const { BSONOffsetError } = require('./errors');
const { readInt32LE } = require('./bytes');

const FIXED_VALUE_SIZE = C.FIXED_VALUE_SIZE;
// 1 for every type byte BSON defines
const KNOWN_TYPE = new Uint8Array(256);
for (let type = C.BSON_DOUBLE; type <= C.BSON_DECIMAL128; type++) KNOWN_TYPE[type] = 1;
KNOWN_TYPE[C.BSON_MINKEY] = 1;
KNOWN_TYPE[C.BSON_MAXKEY] = 1;
// code with scope: int32 total, string (int32 length, at least a NUL), 5-byte scope
const MIN_CODE_W_SCOPE_SIZE = 14;

function corrupt(message, offset) {
    return new BSONOffsetError(message, offset, { code: 'ERR_BSON_CORRUPT' });
}

// bson's words for a failure its parseToElements also finds, which programs
// match, before qbson's detail
const NEGATIVE_SIZE = 'BSON size cannot be negative: ';
const PAST_DOCUMENT = 'value reports length larger than document: ';
const NO_NUL = 'Null terminator not found: ';

function badLengthWords(len) {
    return len < 0 ? NEGATIVE_SIZE : '';
}

// bson's words for a top-level document that does not fit the input
function topLevelWords(bytes, start, size, what) {
    if (what !== 'document') return size < 0 ? NEGATIVE_SIZE : '';
    if (bytes.length - start < C.MIN_DOCUMENT_SIZE) return `Input must be at least 5 bytes, got ${bytes.length} bytes: `;
    if (size < 0) return NEGATIVE_SIZE;
    return size > bytes.length - start ? `Parsed documentSize (${size} bytes) does not match input length (${bytes.length} bytes): ` : '';
}

// Checks the length word and terminating NUL of the document at start, which
// must fit in bytes[start, limit); returns its size.
function documentSize(bytes, start, limit, what) {
    const size = limit - start < 4 ? -1 : readInt32LE(bytes, start);
    if (size < C.MIN_DOCUMENT_SIZE || size > limit - start || bytes[start + size - 1] !== 0) throw badDocument(bytes, start, limit, what);
    return size;
}

// what is wrong with the document at start that documentSize refused
function badDocument(bytes, start, limit, what) {
    if (limit - start < 4) {
        const words = topLevelWords(bytes, start, 0, what);
        return new BSONOffsetError(`${words}${what} needs a 4-byte length but only ${limit - start} bytes remain`, start, { code: 'ERR_BSON_TRUNCATED' });
    }
    const size = readInt32LE(bytes, start);
    const words = topLevelWords(bytes, start, size, what);
    if (size < C.MIN_DOCUMENT_SIZE) return corrupt(`${words}${what} length ${size} is less than the minimum of 5`, start);
    if (size > limit - start) {
        const code = limit === bytes.length ? 'ERR_BSON_TRUNCATED' : 'ERR_BSON_CORRUPT';
        const past = what === 'document' ? words : PAST_DOCUMENT;
        return new BSONOffsetError(`${past}${what} length ${size} runs past the ${limit - start} bytes that remain`, start, { code });
    }
    const end = what === 'document' ? 'BSON documents must end in 0x00: ' : '';
    return corrupt(`${end}${what} is not terminated by a NUL byte`, start + size - 1);
}

// Checks the type byte of the element at elementStart and returns the offset of
// the NUL ending its key. bytes[end] is the document's NUL, so the scan stops
// there at the latest.
function keyEnd(bytes, elementStart, end) {
    if (KNOWN_TYPE[bytes[elementStart]] === 0) throw unknownType(bytes, elementStart);
    let pos = elementStart + 1;
    while (bytes[pos] !== 0) pos++;
    if (pos === end) throw corrupt(`${NO_NUL}element key is not terminated inside its document`, elementStart);
    return pos;
}

function unknownType(bytes, elementStart) {
    const type = hex(bytes[elementStart]);
    return corrupt(`Invalid 0x${type} type byte: unknown BSON type 0x${type}`, elementStart);
}

// The offset just after the value of the given type starting at pos.
function valueEnd(bytes, type, pos, end) {
    const fixed = FIXED_VALUE_SIZE[type];
    if (fixed >= 0) {
        if (end - pos < fixed) throw fixedTooShort(type, pos, end);
        if (type === C.BSON_BOOLEAN && bytes[pos] > 1) throw badBoolean(bytes, pos);
        return pos + fixed;
    }
    // the common variable-size types here, the rest in a call: small enough to inline
    if (type === C.BSON_STRING) return stringEnd(bytes, pos, end, 'string');
    if (type === C.BSON_DOCUMENT) return pos + documentSize(bytes, pos, end, 'embedded document');
    if (type === C.BSON_ARRAY) return pos + documentSize(bytes, pos, end, 'array');
    return otherValueEnd(bytes, type, pos, end);
}

function otherValueEnd(bytes, type, pos, end) {
    switch (type) {
        case C.BSON_CODE:
        case C.BSON_SYMBOL:
            return stringEnd(bytes, pos, end, 'string');
        case C.BSON_BINARY:
            return binaryEnd(bytes, pos, end);
        case C.BSON_REGEXP:
            return cStringEnd(bytes, cStringEnd(bytes, pos, end, 'regular expression pattern'), end, 'regular expression flags');
        case C.BSON_DBPOINTER: {
            const oid = stringEnd(bytes, pos, end, 'DBPointer namespace');
            if (end - oid < 12) throw corrupt(`DBPointer ObjectId needs 12 bytes but only ${end - oid} remain in its document`, oid);
            return oid + 12;
        }
        case C.BSON_CODE_W_SCOPE:
            return codeWithScopeEnd(bytes, pos, end);
        default:
            // keyEnd refuses unknown types first; this guards callers that skip it
            throw corrupt(`value of unknown BSON type 0x${hex(type)}`, pos);
    }
}

// error paths kept out of valueEnd so it stays small enough to inline
function fixedTooShort(type, pos, end) {
    return corrupt(`value of type 0x${hex(type)} needs ${FIXED_VALUE_SIZE[type]} bytes but only ${end - pos} remain in its document`, pos);
}

function badBoolean(bytes, pos) {
    return corrupt(`boolean byte must be 0 or 1, not ${bytes[pos]}`, pos);
}

function hex(type) {
    return type.toString(16).padStart(2, '0');
}

// int32 length (counting the NUL), the bytes, a NUL
function stringEnd(bytes, pos, end, what) {
    const len = end - pos < 4 ? -1 : readInt32LE(bytes, pos);
    if (len < 1 || len > end - pos - 4 || bytes[pos + 3 + len] !== 0) throw badString(bytes, pos, end, what);
    return pos + 4 + len;
}

// what is wrong with the string at pos that stringEnd refused
function badString(bytes, pos, end, what) {
    if (end - pos < 4) return corrupt(`${what} length needs 4 bytes but only ${end - pos} remain in its document`, pos);
    const len = readInt32LE(bytes, pos);
    if (len < 1) return corrupt(`${badLengthWords(len)}${what} length ${len} must be at least 1`, pos);
    if (len > end - pos - 4) return corrupt(`${PAST_DOCUMENT}${what} length ${len} runs past the end of its document`, pos);
    return corrupt(`${what} is not terminated by a NUL byte`, pos + 3 + len);
}

function cStringEnd(bytes, pos, end, what) {
    let nul = pos;
    while (nul < end && bytes[nul] !== 0) nul++;
    if (nul >= end) throw corrupt(`${NO_NUL}${what} is not terminated inside its document`, pos);
    return nul + 1;
}

// int32 length, subtype, bytes; subtype 2 repeats the length inside
function binaryEnd(bytes, pos, end) {
    if (end - pos < 5) throw corrupt(`binary length and subtype need 5 bytes but only ${end - pos} remain in its document`, pos);
    const len = readInt32LE(bytes, pos);
    if (len < 0) throw corrupt(`${NEGATIVE_SIZE}binary length ${len} is negative`, pos);
    if (len > end - pos - 5) throw corrupt(`${PAST_DOCUMENT}binary length ${len} runs past the end of its document`, pos);
    if (bytes[pos + 4] === C.BINARY_OLD) {
        if (len < 4) throw corrupt(`binary subtype 2 length ${len} has no room for its inner length`, pos);
        const inner = readInt32LE(bytes, pos + 5);
        if (inner !== len - 4) throw corrupt(`binary subtype 2 inner length ${inner} disagrees with outer length ${len}`, pos + 5);
    }
    return pos + 5 + len;
}

// int32 total length, string, scope document: the total must equal its parts
function codeWithScopeEnd(bytes, pos, end) {
    if (end - pos < 4) throw corrupt(`code with scope length needs 4 bytes but only ${end - pos} remain in its document`, pos);
    const total = readInt32LE(bytes, pos);
    if (total < MIN_CODE_W_SCOPE_SIZE) throw corrupt(`${badLengthWords(total)}code with scope length ${total} is less than the minimum of 14`, pos);
    if (total > end - pos) throw corrupt(`${PAST_DOCUMENT}code with scope length ${total} runs past the end of its document`, pos);
    const scopeEnd = pos + total;
    const scopeStart = stringEnd(bytes, pos + 4, scopeEnd, 'code with scope string');
    if (scopeStart + documentSize(bytes, scopeStart, scopeEnd, 'code with scope scope') !== scopeEnd) {
        throw corrupt(`code with scope length ${total} disagrees with its parts`, pos);
    }
    return scopeEnd;
}

// Checks the whole document of `size` bytes at start (its own length word
// already checked), every level as decode would, without decoding anything.
// depthLeft is how many levels may still nest below it.
function checkDocumentTree(bytes, start, size, depthLeft) {
    if (depthLeft < 0) throw new BSONOffsetError('document nests deeper than maxDepth', start, { code: 'ERR_BSON_TOO_DEEP' });
    const end = start + size - 1;
    let pos = start + 4;
    while (pos < end) {
        const type = bytes[pos];
        const valueStart = keyEnd(bytes, pos, end) + 1;
        pos = valueEnd(bytes, type, valueStart, end);
        checkValueTree(bytes, type, valueStart, pos, depthLeft - 1);
    }
}

// Checks the documents inside a value whose extent [valueStart, valueEnd) valueEnd
// has found, as checkDocumentTree does: a document's or array's, a code's scope.
function checkValueTree(bytes, type, valueStart, end, depthLeft) {
    if (type === C.BSON_DOCUMENT || type === C.BSON_ARRAY) {
        checkDocumentTree(bytes, valueStart, end - valueStart, depthLeft);
    } else if (type === C.BSON_CODE_W_SCOPE) {
        const scopeStart = valueStart + 8 + readInt32LE(bytes, valueStart + 4);
        checkDocumentTree(bytes, scopeStart, end - scopeStart, depthLeft);
    }
}

// bson@7's onDemand.parseToElements: the elements of the document at
// startOffset (which may end before bytes does) as
// [type, nameOffset, nameLength, valueOffset, valueLength] tuples.
function parseToElements(bytes, startOffset) {
    const start = startOffset == null ? 0 : startOffset;
    if (!Number.isInteger(start) || start < 0 || start > bytes.length) {
        throw new BSONOffsetError(`startOffset ${start} is outside the ${bytes.length} bytes given`, start, { code: 'ERR_BSON' });
    }
    const end = start + documentSize(bytes, start, bytes.length, 'document') - 1;
    const elements = [];
    let pos = start + 4;
    while (pos < end) {
        const type = bytes[pos];
        const nameOffset = pos + 1;
        const nul = keyEnd(bytes, pos, end);
        const valueOffset = nul + 1;
        pos = valueEnd(bytes, type, valueOffset, end);
        elements.push([type, nameOffset, nul - nameOffset, valueOffset, pos - valueOffset]);
    }
    return elements;
}

module.exports = { parseToElements, checkDocumentTree, checkValueTree, documentSize, keyEnd, valueEnd };
