'use strict';

// The encoder: one pass over the value into a growable byte array, each document's
// length back-patched when its terminator is written. Type and value rules follow
// bson@7's serializer so the bytes are identical.

const C = require('./constants');
const { BSONError, isStackOverflow, withArticle } = require('./errors');
const { readEncodeOptions } = require('./options');
const { ContainerStack } = require('./container-stack');
const { writeInt32ViewLE, writeDoubleViewLE, writeInt64FromNumberLE, writeBigInt64LE, copyBytes, dataViewOf } = require('./bytes');
const { allocUnsafe, allocUnsafeSlow, view: bufferView } = require('./platform');
const { writeUtf8, writeCString } = require('./utf8');
const { restartKeys, writeKey, openKeyTable } = require('./key-table');
const { StringBatch } = require('./string-batch');
const { setField } = require('./set-field');
const { isAnyArrayBuffer: hasArrayBufferSlot } = require('./brands');
const { writeLongIndexKey } = require('./index-keys');
const { storesAsInt32, writeLeadingNumbers, writeShortNumberArray, MIN_NUMBER_RUN } = require('./number-runs');
const shapeWriter = require('./shape-writer');

// Documents are encoded into a slab and every output is a view of it, as
// Buffer.allocUnsafe hands out its pool; the next document goes after it, so no
// later call writes into bytes an output holds. A slab is replaced by a fresh one
// when the room left is less than the last output took, and is made four times
// that size: outputs of 300-400 KB then take neither a copy nor a growth, where
// copying each into memory of its own took 20-40% of geojson_polygons' encode.
// The first slab and those after small outputs are SLAB_SIZE.
const SLAB_SIZE = 64 * 1024;
// the least room a document starts with
const MIN_ROOM = 16 * 1024;
const SLAB_ROOMS = 4;
// Outputs of a slab grown past this (by one huge document) are copied into bytes
// of their own and the slab is not kept: a view holds at most this much memory.
const MAX_SLAB_SIZE = 4 * 1024 * 1024;
// outputs are placed at multiples of 8, as in Buffer's pool
const VIEW_ALIGNMENT = 8;
// keys bson lets through checkKeys (they carry DBRef and cluster metadata)
const CHECK_KEYS_EXEMPT = new Set(['$db', '$ref', '$id', '$clusterTime']);
// the mark of the major version on bson@7's and qbson's type instances
const VERSION_MARK = C.BSON_VERSION_SYMBOL;
const FOR_IN_MIN_KEYS = 2;
const FOR_IN_MAX_KEYS = 19;
const hasOwnProperty = Object.prototype.hasOwnProperty;
const { writeByShape, MISS, MAX_KEYS: MAX_SHAPE_KEYS, isDocument: isShapeDocument } = shapeWriter;

class Encoder extends ContainerStack {
    constructor(buf) {
        super('ERR_BSON_ENCODE');
        this.buf = null;
        // buf's bytes as a DataView, for word-sized writes
        this.view = null;
        // buf's memory, for the views handed out as outputs
        this.arrayBuffer = null;
        this.byteOffset = 0;
        this.setBuffer(buf);
        // where the document being encoded starts in buf
        this.base = 0;
        this.checkKeys = false;
        this.serializeFunctions = false;
        this.ignoreUndefined = true;
        this.maxDocumentSize = 0;
        // long strings whose room is reserved but whose bytes are not yet written
        this.strings = new StringBatch();
        // the end of the last document encoded
        this.end = 0;
        // the room a document is to find left in the slab: the last output's length, at least MIN_ROOM
        this.room = MIN_ROOM;
        // whether a toBSON on a primitive's prototype is to be called (see primitivesHaveToBSON)
        this.primitiveToBSON = false;
        // how many numbers writeLeadingNumbers wrote
        this.numbersWritten = 0;
        this.shapeWriters = true;
        // this encode's place in the key table's sequence of keys: keyAt, keyLastNumber
        restartKeys(this);
    }

    setOptions(opts) {
        this.checkKeys = false;
        this.serializeFunctions = false;
        this.ignoreUndefined = true;
        this.maxDepth = C.DEFAULT_MAX_DEPTH;
        this.maxDocumentSize = 0;
        if (opts != null) readEncodeOptions(this, opts);
        // objects of repeated shapes are written by writers made for them (lib/shape-writer.js),
        // which do not check keys
        this.shapeWriters = !this.checkKeys;
    }

    setBuffer(buf) {
        this.buf = buf;
        this.arrayBuffer = buf.buffer;
        this.byteOffset = buf.byteOffset;
        this.view = dataViewOf(buf);
    }

    // Encodes from the start of a fresh slab; the old one lives on in its outputs.
    // After a document too large for any kept slab, the next starts small again.
    startSlab() {
        const room = this.room;
        // rounded up to whole slabs, which leaves room for the outputs' alignment
        const size = room > MIN_ROOM && room <= MAX_SLAB_SIZE ? Math.min(SLAB_ROOMS * room + SLAB_SIZE - ((SLAB_ROOMS * room) % SLAB_SIZE), MAX_SLAB_SIZE) : SLAB_SIZE;
        this.setBuffer(allocUnsafeSlow(size));
        this.base = 0;
    }

    // Makes room for n more bytes at pos; small enough to inline, growth is out of line.
    ensure(pos, n) {
        if (pos + n > this.buf.length) this.grow(pos, n);
    }

    // Grows by copying only the live region, to the same offsets: callers hold positions.
    grow(pos, n) {
        // a process's first encode that outgrows its slab holds what the key table is for
        if (encodesBegun <= FIRST_ENCODES) openKeyTable();
        const need = pos + n;
        if (this.maxDocumentSize && need - this.base > this.maxDocumentSize + n) this.tooLarge(pos - this.base);
        let size = this.buf.length * 2;
        while (size < need) size *= 2;
        const grown = allocUnsafeSlow(size);
        grown.set(this.buf.subarray(this.base, pos), this.base);
        this.setBuffer(grown);
    }

    tooLarge(size) {
        throw new BSONError(`document of ${size} bytes or more exceeds maxDocumentSize ${this.maxDocumentSize}`, {
            code: 'ERR_BSON_TOO_LARGE',
        });
    }
}

// A process's first encodes enter no keys in the key table, which pays only once
// keys repeat (lib/key-table.js keyTableOpen).
const FIRST_ENCODES = 1;
let encodesBegun = 0;
let idleEncoder = new Encoder(allocUnsafeSlow(SLAB_SIZE));

// The shared encoder when free; a fresh one when encode is re-entered (from a toBSON).
function acquireEncoder(opts) {
    let enc = idleEncoder;
    if (enc === null) enc = new Encoder(allocUnsafeSlow(SLAB_SIZE));
    else idleEncoder = null;
    if (enc.buf.length - enc.base < enc.room) enc.startSlab();
    if (encodesBegun <= FIRST_ENCODES && ++encodesBegun > FIRST_ENCODES) openKeyTable();
    enc.setOptions(opts);
    enc.primitiveToBSON = primitivesHaveToBSON();
    restartKeys(enc);
    return enc;
}

// bson calls a toBSON that a number, string, boolean, bigint, symbol or function
// inherits (from its prototype or Object.prototype). Almost no program defines one,
// so this is asked once per call and the primitive writers test only the answer.
function primitivesHaveToBSON() {
    return (
        typeof Function.prototype.toBSON === 'function' ||
        typeof Number.prototype.toBSON === 'function' ||
        typeof String.prototype.toBSON === 'function' ||
        typeof Boolean.prototype.toBSON === 'function' ||
        typeof BigInt.prototype.toBSON === 'function' ||
        typeof Symbol.prototype.toBSON === 'function'
    );
}

function releaseEncoder(enc) {
    if (enc.buf.length > MAX_SLAB_SIZE) enc.startSlab();
    idleEncoder = enc;
}

// After a failed encode the container stack is left as it was at the throw.
function abandonEncoder(enc) {
    enc.clear();
    enc.strings.clear();
    releaseEncoder(enc);
}

// Encodes doc into the encoder's buffer from enc.base; returns the offset after it.
function encodeWith(enc, doc) {
    const root = checkRoot(doc);
    const base = enc.base;
    let end;
    try {
        end = root === null ? writeEmptyDocument(enc, base) : writeDocument(enc, base, root, '');
    } catch (err) {
        if (isStackOverflow(err)) {
            throw new BSONError(`document nests too deeply for the call stack (maxDepth ${enc.maxDepth})`, { code: 'ERR_BSON_TOO_DEEP' });
        }
        throw err;
    }
    if (enc.strings.count !== 0) end = enc.strings.finish(enc, base, end);
    if (enc.maxDocumentSize && end - base > enc.maxDocumentSize) enc.tooLarge(end - base);
    return end;
}

// Encodes doc into a free encoder's buffer; returns that encoder, whose bytes
// [enc.base, enc.end) are the document, for the caller to take and release.
function encodeToScratch(doc, opts) {
    const enc = acquireEncoder(opts);
    try {
        enc.end = encodeWith(enc, doc);
    } catch (err) {
        abandonEncoder(enc);
        throw err;
    }
    return enc;
}

function encode(doc, opts) {
    const enc = encodeToScratch(doc, opts);
    const start = enc.base;
    const end = enc.end;
    const length = end - start;
    let out;
    if (enc.buf.length <= MAX_SLAB_SIZE) {
        out = bufferView(enc.arrayBuffer, enc.byteOffset + start, length);
        enc.base = end + VIEW_ALIGNMENT - 1 - ((end + VIEW_ALIGNMENT - 1) % VIEW_ALIGNMENT);
    } else {
        out = allocUnsafe(length);
        copyBytes(enc.buf, start, end, out, 0);
    }
    enc.room = length > MIN_ROOM ? length : MIN_ROOM;
    releaseEncoder(enc);
    return out;
}

// Writes the encoding into buf at offset; returns the offset just past it. Nothing
// outside [offset, offset + size) is written, and nothing at all when it does not fit.
function encodeInto(doc, buf, offset, opts) {
    if (!(buf instanceof Uint8Array)) throw new BSONError('encodeInto needs a Buffer or Uint8Array to write into');
    if (offset === undefined) offset = 0;
    if (!Number.isInteger(offset) || offset < 0 || offset > buf.length) {
        throw new BSONError(`offset ${offset} is outside the buffer of ${buf.length} bytes`);
    }
    const enc = encodeToScratch(doc, opts);
    const length = enc.end - enc.base;
    if (length > buf.length - offset) {
        releaseEncoder(enc);
        throw new BSONError(`document of ${length} bytes does not fit in the ${buf.length - offset} bytes after offset ${offset}`, {
            code: 'ERR_BSON_BUFFER_TOO_SMALL',
        });
    }
    copyBytes(enc.buf, enc.base, enc.end, buf, offset);
    releaseEncoder(enc);
    return offset + length;
}

// What encode accepts at the top, as bson@7 does: null is an empty document.
// The messages start with bson's words, which programs match.
function checkRoot(doc) {
    if (doc == null) return null;
    if (typeof doc !== 'object') {
        throw new BSONError(`serialize does not support non-object as the root input: encode needs an object as the document, not ${typeof doc}`);
    }
    if (Array.isArray(doc)) throw new BSONError('serialize does not support an array as the root input');
    if (typeof doc._bsontype === 'string') {
        throw new BSONError(`BSON types cannot be serialized as a document: ${withArticle(doc._bsontype)} cannot be encoded as a document`);
    }
    // none of the kinds below has Object.prototype for its prototype (or none)
    const proto = Object.getPrototypeOf(doc);
    if (proto === Object.prototype || proto === null) return doc;
    const kind = nonDocumentKind(doc);
    if (kind !== null) throw new BSONError(`date, regexp, typedarray, and arraybuffer cannot be BSON documents: encode was given a ${kind}`);
    return doc;
}

function nonDocumentKind(doc) {
    if (doc instanceof Date) return 'Date';
    if (doc instanceof RegExp) return 'RegExp';
    if (doc instanceof Uint8Array) return 'typed array';
    return isAnyArrayBuffer(doc) ? 'ArrayBuffer' : null;
}

// A real ArrayBuffer or SharedArrayBuffer of this realm. instanceof answers no
// cheaply for every nested document; the slot check then refuses an object merely
// given ArrayBuffer.prototype, which is written as the document it is (as bson writes it).
function isAnyArrayBuffer(value) {
    return (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) && hasArrayBufferSlot(value);
}

function writeEmptyDocument(enc, pos) {
    enc.ensure(pos, C.MIN_DOCUMENT_SIZE);
    writeInt32ViewLE(enc.view, pos, C.MIN_DOCUMENT_SIZE);
    enc.buf[pos + 4] = 0;
    return pos + C.MIN_DOCUMENT_SIZE;
}

// Writes obj (plain object, Map or array) as a document at pos; returns the next pos.
// `self` stands for obj on the stack when obj is built afresh (a DBRef's document).
// `toBSONChecked` says the caller has already found no toBSON on obj: the load
// is megamorphic where documents of many shapes pass, and without the second one
// deep_bson and full_bson encode in 3-4% fewer instructions.
function writeDocument(enc, pos, obj, key, self, toBSONChecked) {
    const start = pos;
    enc.ensure(pos, 4);
    pos += 4;
    // chosen per container: a test in writeElement itself costs deep_bson 10% more instructions
    const write = enc.primitiveToBSON ? writeConvertedElement : writeElement;
    if (Array.isArray(obj)) {
        // The numbers an array starts with (GeoJSON coordinates, vectors, series) go
        // straight to their writer, with the array not yet on the container stack: an
        // array that holds only numbers cannot be inside itself, so a [lon, lat] pair
        // skips the cycle check (geojson_polygons encodes in 19-21% fewer instructions).
        // A long run (16 or more) goes a range of keys at a time (lib/number-runs.js).
        // What follows a value of another type goes through write.
        enc.checkDepth(key);
        let i = 0;
        if (write === writeElement) {
            if (obj.length >= MIN_NUMBER_RUN && typeof obj[0] === 'number') {
                pos = writeLeadingNumbers(enc, pos, obj);
                i = enc.numbersWritten;
            }
            for (let value; i < obj.length && typeof (value = obj[i]) === 'number'; i++) pos = writeIndexedNumber(enc, pos, i, value);
        }
        if (i < obj.length) {
            enc.enter(obj, key);
            for (; i < obj.length; i++) {
                const value = obj[i];
                pos = write === writeElement && isPlainArray(value) ? writeIndexedArray(enc, pos, i, value) : write(enc, pos, i, value, true);
            }
            enc.leave();
        }
    } else if (obj instanceof Map) {
        enc.enter(self === undefined ? obj : self, key);
        for (const entry of obj) {
            const k = entry[0];
            if (typeof k !== 'string') throw enc.fail('a Map key must be a string, not ' + typeof k, String(k));
            pos = write(enc, pos, k, entry[1], false);
        }
        enc.leave();
    } else {
        enc.enter(self === undefined ? obj : self, key);
        if (!toBSONChecked && typeof obj.toBSON === 'function') {
            obj = obj.toBSON();
            if (obj != null && typeof obj !== 'object') throw enc.fail('toBSON() did not return an object', key);
            if (obj == null) obj = {};
        }
        const keys = Object.keys(obj);
        if (keys.length >= FOR_IN_MIN_KEYS && keys.length <= MAX_SHAPE_KEYS) {
            pos = writeFewFields(enc, pos, obj, keys, write);
        } else {
            // in a function of its own, this loop cost wide_1k_fields to wide_100k_fields 5% more instructions
            for (let i = 0; i < keys.length; i++) {
                const k = keys[i];
                pos = write(enc, pos, k, obj[k], false);
            }
        }
        enc.leave();
    }
    enc.ensure(pos, 1);
    enc.buf[pos++] = 0;
    writeInt32ViewLE(enc.view, start, pos - start);
    return pos;
}

// Writes the NUL that ends the document begun at start, and its length; returns the pos after it.
function closeDocument(enc, start, pos) {
    enc.ensure(pos, 1);
    enc.buf[pos++] = 0;
    writeInt32ViewLE(enc.view, start, pos - start);
    return pos;
}

// The fields of an object of up to MAX_SHAPE_KEYS keys: by the writer of its shape
// (lib/shape-writer.js) if it has one, else by for-in or by its keys. Out of
// writeDocument, which otherwise grew and cost flat_bson's 145 fields 2-5% more
// instructions to encode.
function writeFewFields(enc, pos, obj, keys, write) {
    if (enc.shapeWriters && write === writeElement) {
        const end = writeByShape(enc, pos, obj, keys);
        if (end !== MISS) return end;
    }
    if (keys.length <= FOR_IN_MAX_KEYS) return writeFieldsForIn(enc, pos, obj, write);
    return writeKeyedFields(enc, pos, obj, keys, write);
}

function writeKeyedFields(enc, pos, obj, keys, write) {
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        pos = write(enc, pos, k, obj[k], false);
    }
    return pos;
}

// The fields of an object with a few keys, by for-in: V8 then reads each value by
// its field index instead of looking its key up (batch1000 and mixed encode in 11%
// fewer instructions). Setting up a for-in costs about one lookup, so a single key
// goes by Object.keys; so do 20 keys or more: an object built key by key is a
// dictionary by then, where for-in costs 1.4x what Object.keys does.
function writeFieldsForIn(enc, pos, obj, write) {
    for (const k in obj) {
        // for-in goes on to inherited keys; on the fast path this check is free
        if (!hasOwnProperty.call(obj, k)) continue;
        pos = write(enc, pos, k, obj[k], false);
    }
    return pos;
}

// An array in an array (a GeoJSON ring's [lon, lat] pairs, a matrix's rows) is
// recognised here rather than in writeElement: these loads then meet only arrays,
// where in writeElement they meet every shape and are slow lookups
// (geojson_polygons encodes in 20% fewer instructions). Same tests as writeElement's.
function isPlainArray(value) {
    return Array.isArray(value) && value.constructor === Array && value._bsontype == null && typeof value.toBSON !== 'function';
}

function writeIndexedArray(enc, pos, index, value) {
    pos = writeIndexHeader(enc, pos, C.BSON_ARRAY, index, 0);
    const end = writeShortNumberArray(enc, pos, value, index);
    return end >= 0 ? end : writeDocument(enc, pos, value, index, undefined, true);
}

// Writes the type byte and the key; returns the pos of the value. `room` is the
// most bytes the value itself can take.
function writeElementHeader(enc, pos, type, key, isArrayIndex, room) {
    if (isArrayIndex) return writeIndexHeader(enc, pos, type, key, room);
    // 3 more than the key can take: a cached key is written in whole words
    enc.ensure(pos, 5 + 3 * key.length + room);
    const buf = enc.buf;
    buf[pos] = type;
    const next = writeKey(enc, buf, enc.view, pos + 1, key);
    if (next < 0) throw enc.fail('a key must not contain null bytes', key);
    if (enc.checkKeys) checkKey(enc, key);
    return next;
}

function writeIndexHeader(enc, pos, type, index, room) {
    enc.ensure(pos, 12 + room);
    const buf = enc.buf;
    buf[pos] = type;
    if (index < 10) {
        buf[pos + 1] = 0x30 + index;
        buf[pos + 2] = 0;
        return pos + 3;
    }
    return writeLongIndexKey(buf, enc.view, pos + 1, index);
}

function checkKey(enc, key) {
    if (CHECK_KEYS_EXEMPT.has(key)) return;
    if (key.charCodeAt(0) === 0x24) throw enc.fail(`key '${key}' must not start with '$'`, key);
    if (key.indexOf('.') !== -1) throw enc.fail(`key '${key}' must not contain '.'`, key);
}

function writeElement(enc, pos, key, value, isArrayIndex) {
    // an if-chain of typeof tests, not a switch: V8 turns each test into an inline
    // type check, where a switch calls its Typeof builtin for every element
    if (typeof value === 'string') return writeStringElement(enc, pos, C.BSON_STRING, key, value, isArrayIndex);
    if (typeof value === 'number') {
        if (storesAsInt32(value)) {
            pos = writeElementHeader(enc, pos, C.BSON_INT32, key, isArrayIndex, 4);
            return writeInt32ViewLE(enc.view, pos, value);
        }
        pos = writeElementHeader(enc, pos, C.BSON_DOUBLE, key, isArrayIndex, 8);
        return writeDoubleViewLE(enc.view, pos, value);
    }
    if (typeof value === 'object') {
        if (value === null) return writeElementHeader(enc, pos, C.BSON_NULL, key, isArrayIndex, 0);
        // the tag first (read once: on bson's classes it is a prototype getter); a
        // typed value's toBSON is looked for in the writer of its type
        const tag = value._bsontype;
        if (tag != null) return writeTypedElement(enc, pos, key, value, tag, isArrayIndex, false);
        if (typeof value.toBSON === 'function') return writeToBSONResult(enc, pos, key, value.toBSON(), isArrayIndex);
        return writeObjectElement(enc, pos, key, value, isArrayIndex, true);
    }
    if (typeof value === 'boolean') {
        pos = writeElementHeader(enc, pos, C.BSON_BOOLEAN, key, isArrayIndex, 1);
        enc.buf[pos] = value ? 1 : 0;
        return pos + 1;
    }
    return writeOtherElement(enc, pos, key, value, isArrayIndex);
}

// A number an array starts with, from writeDocument's loop, which calls this
// directly rather than through writeElement's chain of typeof tests: double_array
// and int32_array encode 1.2-1.3x faster. (Called from writeElement too, the call
// was not inlined once other shapes had run: object encode lost 4-7%.)
function writeIndexedNumber(enc, pos, index, value) {
    if (storesAsInt32(value)) {
        pos = writeIndexHeader(enc, pos, C.BSON_INT32, index, 4);
        return writeInt32ViewLE(enc.view, pos, value);
    }
    pos = writeIndexHeader(enc, pos, C.BSON_DOUBLE, index, 8);
    return writeDoubleViewLE(enc.view, pos, value);
}

// undefined, bigint, function and symbol
function writeOtherElement(enc, pos, key, value, isArrayIndex) {
    switch (typeof value) {
        case 'undefined':
            if (isArrayIndex || !enc.ignoreUndefined) return writeElementHeader(enc, pos, C.BSON_NULL, key, isArrayIndex, 0);
            return skipElement(enc, pos, key, isArrayIndex);
        case 'bigint':
            pos = writeElementHeader(enc, pos, C.BSON_INT64, key, isArrayIndex, 8);
            return writeBigInt64LE(enc.buf, pos, value);
        case 'function':
            if (enc.serializeFunctions) return writeStringElement(enc, pos, C.BSON_CODE, key, value.toString(), isArrayIndex);
            return skipElement(enc, pos, key, isArrayIndex);
        default:
            // a Symbol has no BSON form: skipped, as bson@7 does
            return skipElement(enc, pos, key, isArrayIndex);
    }
}

// What a value's toBSON() returned, written in its place (its own toBSON is not called).
function writeToBSONResult(enc, pos, key, value, isArrayIndex) {
    if (typeof value !== 'object' || value === null) return writePlainPrimitive(enc, pos, key, value, isArrayIndex);
    const tag = value._bsontype;
    if (tag == null) return writeObjectElement(enc, pos, key, value, isArrayIndex, false);
    return writeTypedElement(enc, pos, key, value, tag, isArrayIndex, true);
}

// Any value when a primitive's prototype has a toBSON: whatever has one (primitive
// or not) is written as what it returns, as bson does; the rest as it is. Out of
// writeElement, which then costs one test of the flag.
function writeConvertedElement(enc, pos, key, value, isArrayIndex) {
    if (value != null && typeof value.toBSON === 'function') return writeToBSONResult(enc, pos, key, value.toBSON(), isArrayIndex);
    return writeToBSONResult(enc, pos, key, value, isArrayIndex);
}

// A primitive written as it is, its prototype's toBSON not called: a primitive
// holds no elements, so the flag can be off while it is written.
function writePlainPrimitive(enc, pos, key, value, isArrayIndex) {
    const primitiveToBSON = enc.primitiveToBSON;
    enc.primitiveToBSON = false;
    pos = writeElement(enc, pos, key, value, isArrayIndex);
    enc.primitiveToBSON = primitiveToBSON;
    return pos;
}

// A value with no BSON form is left out, but its key is checked as bson checks it.
function skipElement(enc, pos, key, isArrayIndex) {
    if (!isArrayIndex) {
        if (key.indexOf('\u0000') !== -1) throw enc.fail('a key must not contain null bytes', key);
        if (enc.checkKeys) checkKey(enc, key);
    }
    return pos;
}

// string, code and symbol: int32 byte length (with the NUL), UTF-8, NUL
function writeStringElement(enc, pos, type, key, str, isArrayIndex) {
    pos = writeElementHeader(enc, pos, type, key, isArrayIndex, 5 + 3 * str.length);
    return writeLengthPrefixedString(enc, pos, str);
}

function writeLengthPrefixedString(enc, pos, str) {
    if (enc.strings.takes(enc, str)) return reserveBatchedString(enc, pos, str);
    const end = writeUtf8(enc.buf, pos + 4, str);
    enc.buf[end] = 0;
    writeInt32ViewLE(enc.view, pos, end + 1 - (pos + 4));
    return end + 1;
}

// A long string's room is reserved as for ASCII; its bytes are written with its
// batch, which fixes the lengths if it was not ASCII.
function reserveBatchedString(enc, pos, str) {
    const len = str.length;
    enc.strings.add(pos + 4, str);
    enc.buf[pos + 4 + len] = 0;
    writeInt32ViewLE(enc.view, pos, len + 1);
    return pos + 5 + len;
}

// Objects without a _bsontype: an array, Date, binary data, RegExp, or a nested
// document. Plain arrays first, found by Array.isArray and their constructor (a
// load V8 answers from the map) where each instanceof walks the prototype chain:
// geojson_polygons encodes 11% faster, nested-array 12%. An array of another
// prototype (a subclass, or one given a Date's) goes the long way, as in bson.
function writeObjectElement(enc, pos, key, value, isArrayIndex, toBSONChecked) {
    if (Array.isArray(value) && value.constructor === Array) {
        pos = writeElementHeader(enc, pos, C.BSON_ARRAY, key, isArrayIndex, 0);
        return writeDocument(enc, pos, value, key, undefined, toBSONChecked);
    }
    if (value instanceof Date) {
        pos = writeElementHeader(enc, pos, C.BSON_DATE, key, isArrayIndex, 8);
        return writeInt64FromNumberLE(enc.buf, pos, value.getTime());
    }
    if (value instanceof Uint8Array) return writeBinary(enc, pos, key, value, value.length, C.BINARY_GENERIC, isArrayIndex);
    if (value instanceof RegExp) return writeRegExp(enc, pos, key, value.source, regExpFlags(value), isArrayIndex);
    if (isAnyArrayBuffer(value)) {
        const bytes = new Uint8Array(value);
        return writeBinary(enc, pos, key, bytes, bytes.length, C.BINARY_GENERIC, isArrayIndex);
    }
    pos = writeElementHeader(enc, pos, Array.isArray(value) ? C.BSON_ARRAY : C.BSON_DOCUMENT, key, isArrayIndex, 0);
    return writeDocument(enc, pos, value, key, undefined, toBSONChecked);
}

// An array of strings only, which lib/shape-writer.js has checked, written as
// writeDocument writes it (an array of strings cannot hold itself).
function writeStringArray(enc, pos, arr, key) {
    enc.checkDepth(key);
    const start = pos;
    enc.ensure(pos, 4);
    pos += 4;
    for (let i = 0; i < arr.length; i++) pos = writeStringElement(enc, pos, C.BSON_STRING, i, arr[i], true);
    return closeDocument(enc, start, pos);
}

// A document of a shape writer's (lib/shape-writer.js has checked it is one:
// what writeDocument's caller checks), its element's header written: by `writer`
// if it is of its shape, else as writeDocument writes it.
function writeShapedDocument(enc, pos, obj, key, writer) {
    const start = pos;
    enc.ensure(pos, 4);
    pos += 4;
    enc.enter(obj, key);
    const keys = Object.keys(obj);
    // a document of another shape has its fields written as writeDocument writes them
    const end = writer(enc, pos, obj, keys);
    if (end !== MISS) pos = end;
    else if (keys.length >= FOR_IN_MIN_KEYS && keys.length <= MAX_SHAPE_KEYS) pos = writeFewFields(enc, pos, obj, keys, writeElement);
    else pos = writeKeyedFields(enc, pos, obj, keys, writeElement);
    enc.leave();
    return closeDocument(enc, start, pos);
}

// A plain array whose documents are written by `writer` when they are of its
// shape; every other item as writeDocument writes it.
function writeShapedDocuments(enc, pos, arr, key, writer) {
    enc.checkDepth(key);
    const start = pos;
    enc.ensure(pos, 4);
    pos += 4;
    if (arr.length !== 0) {
        enc.enter(arr, key);
        for (let i = 0; i < arr.length; i++) {
            const item = arr[i];
            if (isShapeDocument(item)) {
                pos = writeIndexHeader(enc, pos, C.BSON_DOCUMENT, i, 0);
                pos = writeShapedDocument(enc, pos, item, i, writer);
            } else {
                pos = writeElement(enc, pos, i, item, true);
            }
        }
        enc.leave();
    }
    return closeDocument(enc, start, pos);
}

// bson@7 stores the global flag as 's' and drops the others it does not know
function regExpFlags(re) {
    let flags = '';
    if (re.ignoreCase) flags += 'i';
    if (re.global) flags += 's';
    if (re.multiline) flags += 'm';
    return flags;
}

function writeRegExp(enc, pos, key, pattern, flags, isArrayIndex) {
    pos = writeElementHeader(enc, pos, C.BSON_REGEXP, key, isArrayIndex, 2 + 3 * (pattern.length + flags.length));
    pos = writeCString(enc.buf, pos, pattern);
    if (pos < 0) throw enc.fail('a regular expression pattern must not contain null bytes', key);
    pos = writeCString(enc.buf, pos, flags);
    if (pos < 0) throw enc.fail('regular expression flags must not contain null bytes', key);
    return pos;
}

function writeBinary(enc, pos, key, bytes, length, subtype, isArrayIndex) {
    const isOld = subtype === C.BINARY_OLD;
    pos = writeElementHeader(enc, pos, C.BSON_BINARY, key, isArrayIndex, 9 + length);
    // subtype 2 repeats the length inside the payload
    pos = writeInt32ViewLE(enc.view, pos, isOld ? length + 4 : length);
    enc.buf[pos++] = subtype;
    if (isOld) pos = writeInt32ViewLE(enc.view, pos, length);
    return copyBytes(bytes, 0, length, enc.buf, pos);
}

// Instances of qbson's or bson@7's type classes, recognised by their tag. An
// ObjectId, the type most documents hold, is written here and the rest by
// writeOtherTyped: a first encode of a document with an id then compiles 3 kB less
// (small_doc's took 12% fewer instructions). The common types first look for a
// toBSON (unless the value came from one) and check the version mark in their own
// case rather than once above the switch: there each read meets at most four
// classes (bson's and qbson's of one or two types) instead of all of them, and
// full_bson encodes in 10% fewer instructions. The rest, and any value that fails
// the check, go through writeCheckedTyped.
function writeTypedElement(enc, pos, key, value, tag, isArrayIndex, converted) {
    if (tag !== 'ObjectId' || (!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
        return writeOtherTyped(enc, pos, key, value, tag, isArrayIndex, converted);
    }
    pos = writeElementHeader(enc, pos, C.BSON_OBJECTID, key, isArrayIndex, 12);
    if (typeof value.writeTo === 'function') return value.writeTo(enc.buf, pos);
    return writeForeignObjectId(enc.buf, pos, value);
}

// The other types, and an ObjectId with a toBSON or another version's mark.
function writeOtherTyped(enc, pos, key, value, tag, isArrayIndex, converted) {
    switch (tag) {
        case 'Long':
        case 'Timestamp':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            pos = writeElementHeader(enc, pos, tag === 'Long' ? C.BSON_INT64 : C.BSON_TIMESTAMP, key, isArrayIndex, 8);
            writeInt32ViewLE(enc.view, pos, value.low);
            return writeInt32ViewLE(enc.view, pos + 4, value.high);
        case 'Double':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            pos = writeElementHeader(enc, pos, C.BSON_DOUBLE, key, isArrayIndex, 8);
            return writeDoubleViewLE(enc.view, pos, value.value);
        case 'Int32':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            pos = writeElementHeader(enc, pos, C.BSON_INT32, key, isArrayIndex, 4);
            return writeInt32ViewLE(enc.view, pos, value.value);
        case 'Binary':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            if (value.sub_type === C.BINARY_VECTOR) require('./types/binary').validateBinaryVector(value);
            return writeBinary(enc, pos, key, value.buffer, value.position, value.sub_type, isArrayIndex);
        case 'Code':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            if (value.scope && typeof value.scope === 'object') return writeCodeWithScope(enc, pos, key, value, isArrayIndex);
            return writeStringElement(enc, pos, C.BSON_CODE, key, String(value.code), isArrayIndex);
        case 'MinKey':
        case 'MaxKey':
            if ((!converted && typeof value.toBSON === 'function') || value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
                return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
            }
            return writeElementHeader(enc, pos, tag === 'MinKey' ? C.BSON_MINKEY : C.BSON_MAXKEY, key, isArrayIndex, 0);
        default:
            return writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex);
    }
}

// Another library's ObjectId (bson's): bson@7.3's serializeInto, which bson's own
// serializer calls, writes the 12 bytes in place and returns 12; the id getter
// makes a Buffer each time, and 200 ObjectIds encoded at 0.55x bson's speed.
function writeForeignObjectId(buf, pos, value) {
    if (typeof value.serializeInto === 'function' && value.serializeInto(buf, pos) === 12) return pos + 12;
    return copyBytes(value.id, 0, 12, buf, pos);
}

// The less common types, with the toBSON and version checks made here; and any
// typed value with a toBSON (written as what it returns), from another major
// version of bson, or with a tag no type has.
function writeCheckedTyped(enc, pos, key, value, tag, converted, isArrayIndex) {
    if (!converted && typeof value.toBSON === 'function') return writeToBSONResult(enc, pos, key, value.toBSON(), isArrayIndex);
    if (value[VERSION_MARK] !== C.BSON_MAJOR_VERSION) {
        throw enc.versionError(tag, key);
    }
    switch (tag) {
        case 'Decimal128':
            pos = writeElementHeader(enc, pos, C.BSON_DECIMAL128, key, isArrayIndex, 16);
            return copyBytes(value.bytes, 0, 16, enc.buf, pos);
        case 'BSONSymbol':
            return writeStringElement(enc, pos, C.BSON_SYMBOL, key, value.value, isArrayIndex);
        case 'BSONRegExp':
            return writeRegExp(enc, pos, key, value.pattern, value.options.split('').sort().join(''), isArrayIndex);
        case 'DBRef':
            return writeDBRef(enc, pos, key, value, isArrayIndex);
        case 'DBPointer': {
            const ns = value.namespace;
            pos = writeElementHeader(enc, pos, C.BSON_DBPOINTER, key, isArrayIndex, 17 + 3 * ns.length);
            pos = writeLengthPrefixedString(enc, pos, ns);
            return copyBytes(value.oid.id, 0, 12, enc.buf, pos);
        }
        case 'Undefined':
            return writeElementHeader(enc, pos, C.BSON_UNDEFINED, key, isArrayIndex, 0);
        default:
            throw enc.fail(`Unrecognized or invalid _bsontype: ${String(tag)}`, key);
    }
}

// int32 total length, the code as a string, the scope as a document
function writeCodeWithScope(enc, pos, key, value, isArrayIndex) {
    const code = String(value.code);
    pos = writeElementHeader(enc, pos, C.BSON_CODE_W_SCOPE, key, isArrayIndex, 9 + 3 * code.length);
    const start = pos;
    pos = writeLengthPrefixedString(enc, pos + 4, code);
    pos = writeDocument(enc, pos, value.scope, key);
    writeInt32ViewLE(enc.view, start, pos - start);
    return pos;
}

// A DBRef is the document {$ref, $id, $db?, ...fields}, written with bson's fixed
// options for it: keys inside unchecked, undefined values dropped. Its own key is
// checked like any other.
function writeDBRef(enc, pos, key, value, isArrayIndex) {
    const doc = dbrefDocument(value);
    pos = writeElementHeader(enc, pos, C.BSON_DOCUMENT, key, isArrayIndex, 0);
    const checkKeys = enc.checkKeys;
    const ignoreUndefined = enc.ignoreUndefined;
    enc.checkKeys = false;
    enc.ignoreUndefined = true;
    pos = writeDocument(enc, pos, doc, key, value);
    enc.checkKeys = checkKeys;
    enc.ignoreUndefined = ignoreUndefined;
    return pos;
}

// {$ref, $id, $db?, ...fields}, each field an own key: Object.assign would make a
// '__proto__' field the prototype and lose it.
function dbrefDocument(value) {
    const doc = Object.assign({ $ref: value.collection, $id: value.oid }, value.db != null ? { $db: value.db } : null);
    const fields = value.fields;
    if (fields != null) {
        for (const k of Object.keys(fields)) setField(doc, k, fields[k]);
    }
    return doc;
}

// Long strings are batched from the next one on, even after a batch that was not
// ASCII: the tests check the fix-up for that case every time.
function resumeStringBatching() {
    if (idleEncoder !== null) idleEncoder.strings.resume();
}

shapeWriter.init({
    write: writeElement,
    i32: writeInt32ViewLE,
    f64: writeDoubleViewLE,
    date: writeInt64FromNumberLE,
    str: writeLengthPrefixedString,
    strs: writeStringArray,
    doc: writeShapedDocument,
    docs: writeShapedDocuments,
    isDate: shapeWriter.isDate,
    isObjectId: shapeWriter.isObjectId,
    isDocument: isShapeDocument,
    isArray: shapeWriter.isArray,
    isStrings: shapeWriter.isStrings,
});

module.exports = { encode, encodeInto, storesAsInt32, checkRoot, regExpFlags, isAnyArrayBuffer, dbrefDocument, resumeStringBatching, primitivesHaveToBSON };
