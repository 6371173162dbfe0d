'use strict';

// The walker the readers that work in place share (get and has in lib/lookup.js,
// projections in lib/projection.js, lazy views in lib/lazy.js): a Container is a
// document or array in the buffer, whose elements are stepped over by their
// length prefixes (the element scanner, lib/elements.js) and whose keys are
// compared as bytes, never decoded. A value found is read by the decoding engine
// itself (decodeElements), so it is what decode gives it.
//
// Strictness: every element stepped over has its type byte, key terminator and
// lengths checked; where the scanner finds damage, the decoder is asked to read
// that element and its error is thrown, so the error is the one decode meets
// there. Bytes not stepped over are not looked at.

const C = require('./constants');
const { BSONError } = require('./errors');
const { keyEnd, valueEnd, checkValueTree } = require('./elements');
const { rootIndex, checkRoot, decodeElements, overflowAsBSONError, rawCheckError } = require('./decoder');
const { keyIs } = require('./path');

// A document or array in the buffer, its elements in [start + 4, end) (end is
// its NUL), `depth` levels down as decode counts them, strings checked for UTF-8
// when validate. nul and next say where the element last scanned has its key's
// NUL and where it ends.
class Container {
    constructor(start, end, isArray, depth, validate, isRoot, rawDocs, inRaw) {
        this.start = start;
        this.end = end;
        this.isArray = isArray;
        this.depth = depth;
        this.validate = validate;
        this.isRoot = isRoot;
        // whether decode keeps the documents in it as bytes (bson's raw, fieldsAsRaw)
        this.rawDocs = rawDocs;
        // whether it lies inside bytes decode keeps: read as decode reads those
        // bytes with raw in force (as bson decodes below a raw array), and its
        // damage is what decode's check of the raw bytes reports
        this.inRaw = inRaw;
        this.nul = 0;
        this.next = 0;
    }

    // The container holding the value of the element at `at` (a document or
    // array), under `key` (its position in an array).
    child(dec, at, validate, key) {
        const c = new Container(0, 0, false, 0, validate, false, false, false);
        c.enter(dec, at, validate, this, key);
        return c;
    }

    // Moves this container down to the value of the element at `at` of parent
    // (this container itself, by default), as child() would give it.
    enter(dec, at, validate, parent = this, key) {
        const isArray = dec.buf[at] === C.BSON_ARRAY;
        // a document decode keeps as bytes: all below it is bytes too
        const intoRaw = parent.inRaw || (!isArray && parent.rawDocs);
        this.rawDocs = intoRaw || (isArray && parent.rawItems(dec, key));
        this.inRaw = intoRaw;
        this.start = parent.nul + 1;
        this.end = parent.next - 1;
        this.isArray = isArray;
        this.depth = checkDepth(dec, parent.depth + 1, this.start);
        this.validate = validate;
        this.isRoot = false;
    }

    // whether decode keeps the documents of its array under key (a position in an array) as bytes
    rawItems(dec, key) {
        return this.rawDocs || (dec.fieldsAsRaw !== null && dec.isRawField(String(key)));
    }
}

// depth, if decode would go that deep to read the document at start
function checkDepth(dec, depth, start) {
    if (depth > dec.maxDepth) throw dec.fail(`nesting deeper than maxDepth ${dec.maxDepth}`, start, 'ERR_BSON_TOO_DEEP');
    return depth;
}

// The top-level document decode(buf, opts) would read.
function rootContainer(dec, opts) {
    dec.refuseReviver('get, has or lazy');
    const index = rootIndex(dec.buf, opts);
    const size = checkRoot(dec, index, opts);
    return new Container(index, index + size - 1, false, 0, dec.validateUtf8, true, dec.raw, false);
}

// Scans the element at pos in c: sets c.nul and c.next, or throws decode's error for it.
function scanElement(dec, c, pos) {
    const buf = dec.buf;
    try {
        c.nul = keyEnd(buf, pos, c.end);
        c.next = valueEnd(buf, buf[pos], c.nul + 1, c.end);
    } catch (err) {
        throw explain(dec, c, pos, err);
    }
}

// The scanner found damage in the element at pos: decode's own error for it,
// read from there to the end of its container, or else the scanner's.
function explain(dec, c, pos, scannerError) {
    if (!(scannerError instanceof BSONError)) return scannerError;
    if (c.inRaw) return rawCheckError(dec, scannerError);
    try {
        decodeElements(dec, pos, c.end, c.isArray, c.depth, c.validate, c.isRoot, c.rawDocs);
    } catch (err) {
        return overflowAsBSONError(dec, err, c.start);
    }
    return scannerError;
}

// The offset of the first element of c under `key` (for an array, its element
// number `index`), -1 if there is none; c.nul and c.next describe it.
function findElement(dec, c, key, bytes, index) {
    const end = c.end;
    let pos = c.start + 4;
    if (c.isArray) {
        if (index < 0) return -1;
        for (let i = 0; pos < end; i++) {
            scanElement(dec, c, pos);
            if (i === index) return pos;
            pos = c.next;
        }
        return -1;
    }
    const buf = dec.buf;
    while (pos < end) {
        scanElement(dec, c, pos);
        if (keyIs(buf, pos + 1, c.nul, key, bytes)) return pos;
        pos = c.next;
    }
    return -1;
}

// How strings under the top-level key are checked (validation.utf8 may name keys).
function validationFor(dec, c, key) {
    if (!c.isRoot || dec.validationKeys === null) return c.validate;
    return dec.validationKeys.has(key) ? dec.validateUtf8 : !dec.validateUtf8;
}

// The value of the element at `at` in c (just found or scanned), under name
// (its position in an array), as decode reads it: the element alone, read as the
// one element of an array (whose key is not read: it was compared as bytes
// already). 136 ns for {level: 'info'} against 227 ns read as a one-field
// document, which allocates about 100 bytes less: readers that keep what they
// read (lazy views) ask for that with `keep`.
function readValue(dec, c, at, validate, name, keep) {
    if (c.inRaw) checkAsRaw(dec, c, at);
    if (dec.fieldsAsRaw !== null && dec.buf[at] === C.BSON_ARRAY) {
        // decode takes an array's raw setting from its name, which a one-element read would lose
        return decodeElements(dec, c.nul + 5, c.next - 1, true, c.depth + 1, validate, false, c.rawItems(dec, name));
    }
    if (!keep || c.isArray) return decodeElements(dec, at, c.next, true, c.depth, validate, false, c.rawDocs)[0];
    return decodeElements(dec, at, c.next, false, c.depth, validate, false, c.rawDocs)[name];
}

// Inside bytes decode keeps, decode checked the element's documents with the
// element scanner: the reader checks them the same way first, so that damage
// there is reported as decode reports it, not as the decoder would word it.
function checkAsRaw(dec, c, at) {
    try {
        checkValueTree(dec.buf, dec.buf[at], c.nul + 1, c.next, dec.maxDepth - (c.depth + 1));
    } catch (err) {
        throw rawCheckError(dec, err);
    }
}

function isContainerType(type) {
    return type === C.BSON_DOCUMENT || type === C.BSON_ARRAY;
}

// Follows steps from the top-level document, moving c (the top-level
// container) down: the offset of the last step's element in c, or -1 when the
// path leads nowhere. Returns how strings in the value are checked in c.validate.
function locate(dec, c, steps) {
    for (let i = 0; ; i++) {
        const step = steps[i];
        const at = findElement(dec, c, step.key, step.bytes, step.index);
        if (at < 0) return -1;
        const validate = validationFor(dec, c, step.key);
        if (i === steps.length - 1) {
            c.validate = validate;
            return at;
        }
        if (!isContainerType(dec.buf[at])) return -1;
        c.enter(dec, at, validate, c, c.isArray ? step.index : step.key);
    }
}

module.exports = { Container, rootContainer, scanElement, explain, findElement, validationFor, readValue, isContainerType, locate };
