'use strict';

// lazy(buf): a read-only view of a document that decodes a field when it is
// first asked for and keeps it. A document or array inside comes back as
// another view. The view holds the caller's buffer, never a copy of it, plus
// the fields read so far; toObject() is decode's full value.

const { Decoder, toBuffer, decodeElements, overflowAsBSONError } = require('./decoder');
const { readKey } = require('./key-cache');
const { BSONError } = require('./errors');

// The element walker and key paths, required by the first lazy(), which makes every view: import
// 'qbson' binds LazyDocument, so runs this module, and need not parse their 17.9 KB of source.
let walker = null;
let paths = null;

const ARRAY_KEY = /^(?:0|[1-9][0-9]{0,8})$/;
// passed by this module's own `new LazyDocument`: the class is exported for instanceof only
const MADE_BY_LAZY = Symbol('LazyDocument');

class LazyDocument {
    #dec;
    #c;
    // the first key read (a number in an array) and its value; then a Map of
    // the others: a view read for one field allocates no Map
    #firstKey = undefined;
    #firstValue = undefined;
    #cache = null;

    constructor(dec, container, token) {
        if (token !== MADE_BY_LAZY) throw new BSONError('a LazyDocument is made by lazy(buf), not by new LazyDocument()');
        this.#dec = dec;
        this.#c = container;
        Object.freeze(this);
    }

    // whether this is a view of an array (keys are indexes) rather than a document
    get isArray() {
        return this.#c.isArray;
    }

    // The value under key (an index in an array), decoded on first access;
    // a document or array is another LazyDocument. undefined when absent.
    get(key) {
        const k = this.#key(key);
        if (k === this.#firstKey) return this.#firstValue;
        if (this.#cache !== null && this.#cache.has(k)) return this.#cache.get(k);
        const at = this.#find(k);
        if (at < 0) return undefined;
        const dec = this.#dec;
        const c = this.#c;
        let value;
        try {
            const validate = walker.validationFor(dec, c, k);
            value = walker.isContainerType(dec.buf[at]) ? new LazyDocument(dec, c.child(dec, at, validate, k), MADE_BY_LAZY) : walker.readValue(dec, c, at, validate, k, true);
        } catch (err) {
            throw overflowAsBSONError(this.#dec, err, c.start);
        }
        if (this.#firstKey === undefined) {
            this.#firstKey = k;
            this.#firstValue = value;
        } else {
            if (this.#cache === null) this.#cache = new Map();
            this.#cache.set(k, value);
        }
        return value;
    }

    // Whether there is an element under key (its value is not read).
    has(key) {
        const k = this.#key(key);
        if (k === this.#firstKey || (this.#cache !== null && this.#cache.has(k))) return true;
        return this.#find(k) >= 0;
    }

    // The keys in stored order (indexes in an array); a key stored twice comes twice.
    *keys() {
        const dec = this.#dec;
        const c = this.#c;
        let pos = c.start + 4;
        for (let i = 0; pos < c.end; i++) {
            // the buffer may have changed while the caller held the iterator
            checkUnchanged(dec, c);
            walker.scanElement(dec, c, pos);
            const next = c.next;
            yield c.isArray ? i : readCheckedKey(dec, c, pos);
            pos = next;
        }
    }

    // [key, value] for each element in stored order; values read as get reads them, not kept.
    *entries() {
        const dec = this.#dec;
        const c = this.#c;
        let pos = c.start + 4;
        for (let i = 0; pos < c.end; i++) {
            checkUnchanged(dec, c);
            walker.scanElement(dec, c, pos);
            const next = c.next;
            const key = c.isArray ? i : readCheckedKey(dec, c, pos);
            const validate = walker.validationFor(dec, c, key);
            let value;
            try {
                value = walker.isContainerType(dec.buf[pos]) ? new LazyDocument(dec, c.child(dec, pos, validate, key), MADE_BY_LAZY) : walker.readValue(dec, c, pos, validate, key, false);
            } catch (err) {
                throw overflowAsBSONError(dec, err, c.start);
            }
            yield [key, value];
            pos = next;
        }
    }

    [Symbol.iterator]() {
        return this.entries();
    }

    // The whole document or array, as decode gives it (a new value on each call).
    toObject() {
        const dec = this.#dec;
        const c = this.#c;
        checkUnchanged(dec, c);
        try {
            return decodeElements(dec, c.start + 4, c.end, c.isArray, c.depth, c.validate, c.isRoot, c.rawDocs);
        } catch (err) {
            throw overflowAsBSONError(dec, err, c.start);
        }
    }

    // a key as the cache holds it: an index for an array, a string for a document
    #key(key) {
        if (!this.#c.isArray) {
            if (typeof key === 'string') return key;
            if (typeof key === 'number') return String(key);
            throw new BSONError(`a document's key must be a string, not ${typeof key}`);
        }
        if (Number.isInteger(key) && key >= 0) return key;
        if (typeof key === 'string' && ARRAY_KEY.test(key)) return Number(key);
        return -1;
    }

    #find(k) {
        const dec = this.#dec;
        const c = this.#c;
        checkUnchanged(dec, c);
        if (c.isArray) return walker.findElement(dec, c, '', null, k);
        return walker.findElement(dec, c, k, paths.utf8Bytes(k), -1);
    }
}

// Scans stop at the document's NUL, checked when the view was made; a buffer
// changed since then is refused rather than read past its document.
function checkUnchanged(dec, c) {
    if (dec.buf[c.end] !== 0) throw dec.fail('document is no longer terminated by a NUL byte: its buffer changed under the view', c.end);
}

// The key of the element at pos (scanned), checked as decode checks it.
function readCheckedKey(dec, c, pos) {
    const key = readKey(dec.buf, pos + 1, c.nul, c.validate);
    if (key === undefined) throw walker.explain(dec, c, pos, dec.fail('invalid UTF-8 in key', pos + 1));
    return key;
}

// A view of the document decode(buf, opts) would read; the same options.
function lazy(input, opts) {
    if (walker === null) {
        walker = require('./element-walker');
        paths = require('./path');
    }
    const dec = new Decoder(toBuffer(input), opts);
    return new LazyDocument(dec, walker.rootContainer(dec, opts), MADE_BY_LAZY);
}

module.exports = { lazy, LazyDocument };
