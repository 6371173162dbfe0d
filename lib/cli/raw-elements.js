'use strict';

// Walks the elements of a document in its raw bytes, for the commands that
// print or check what the bytes say (dump's JSON and debug output, validate's
// array keys) rather than decoded values: key order, duplicate keys and array
// keys stay as stored. The document must already have passed the decoder; the
// element scanner (lib/elements.js) steps from one element to the next.

const { keyEnd, valueEnd } = require('../elements');

function int32At(buf, pos) {
    return buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24);
}

// Calls each(type, keyStart, keyEnd, valueStart, valueEnd) for every element of
// the document at start (keyEnd is the key's NUL byte).
function forEachElement(buf, start, each) {
    const last = start + int32At(buf, start) - 1;
    let pos = start + 4;
    while (pos < last) {
        const type = buf[pos];
        const nul = keyEnd(buf, pos, last);
        const end = valueEnd(buf, type, nul + 1, last);
        each(type, pos + 1, nul, nul + 1, end);
        pos = end;
    }
}

module.exports = { forEachElement, int32At };
