'use strict';

// decode and decodeAll: the options read, the document found in the buffer, then
// the whole of it decoded by the engine (lib/decoder.js), or only the fields named
// by the fields option (lib/projection.js, loaded with the first projection).

const { option, readFields } = require('./options');
const { Decoder, toBuffer, checkDocumentAt, rootIndex, checkRoot, decodeRoot, readSmallRoot, MISS, MIN_SHAPE_SIZE } = require('./decoder');

let projectionModule = null;
function projection() {
    if (projectionModule === null) projectionModule = require('./projection');
    return projectionModule;
}


// A call without options takes this Decoder when it is free rather than making
// one: {"a": 1234} decodes in 747 instructions instead of 941. It is busy when a
// setter on Object.prototype calls decode from inside decode; that call makes its own.
let idleDecoder = new Decoder(null, undefined);

// A call with options takes this one when it is free, the same way: making a
// Decoder took as long as decoding {a: 1} without options.
let idleOptionsDecoder = new Decoder(null, undefined);

function decode(input, opts) {
    const buf = toBuffer(input);
    if (opts == null && idleDecoder !== null) return decodeWithoutOptions(buf);
    if (opts != null && idleOptionsDecoder !== null) return decodeWithIdle(buf, opts);
    const dec = new Decoder(buf, opts);
    if (opts == null) return decodeRoot(dec, 0, checkRoot(dec, 0, opts));
    return decodeWithOptions(dec, opts);
}

function decodeWithIdle(buf, opts) {
    const dec = idleOptionsDecoder;
    idleOptionsDecoder = null;
    try {
        dec.buf = buf;
        dec.setOptions(opts);
        return decodeWithOptions(dec, opts);
    } finally {
        dec.buf = null;
        dec.reset();
        idleOptionsDecoder = dec;
    }
}

function decodeWithOptions(dec, opts) {
    const index = rootIndex(dec.buf, opts);
    const size = checkRoot(dec, index, opts);
    const fields = option(opts, 'fields');
    if (fields != null) return decodeFields(dec, index, size, fields);
    return decodeRoot(dec, index, size);
}

function decodeWithoutOptions(buf) {
    const dec = idleDecoder;
    idleDecoder = null;
    dec.buf = buf;
    try {
        const size = checkRoot(dec, 0, undefined);
        // from 8 bytes a root holds an element, whose type and first key bytes key its reader
        if (size < MIN_SHAPE_SIZE && size > 7) {
            const doc = readSmallRoot(dec, size);
            if (doc !== MISS) return doc;
        }
        return decodeRoot(dec, 0, size);
    } finally {
        // the input is not kept alive until the next call
        dec.buf = null;
        idleDecoder = dec;
    }
}
function decodeFields(dec, index, size, fields) {
    dec.refuseReviver('the fields option');
    return projection().decodeFields(dec, index, size, fields);
}

// Every document stored back to back in buf.
function decodeAll(input, opts) {
    const buf = toBuffer(input);
    const dec = new Decoder(buf, opts);
    // checked here too, for a buffer without documents
    const fields = option(opts, 'fields');
    if (fields != null) readFields(fields);
    const docs = [];
    let pos = 0;
    while (pos < buf.length) {
        const size = checkDocumentAt(dec, pos, buf.length, 'document');
        docs.push(fields != null ? decodeFields(dec, pos, size, fields) : decodeRoot(dec, pos, size));
        pos += size;
    }
    return docs;
}


module.exports = { decode, decodeAll };
