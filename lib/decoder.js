'use strict';

// The decoding engine: a switch on the type byte over integer offsets. Every
// length is checked against the end of its enclosing document before anything is
// read, so bad input is a BSONError naming the byte offset. Values follow bson@7's
// deserialize. decode and decodeAll (lib/decode.js) are its front door; the
// readers that work in place (lib/element-walker.js and above) read values with it.

const C = require('./constants');
const { BSONError, BSONOffsetError, isStackOverflow } = require('./errors');
const { option, readDecodeOptions, readIndex, refuseOption } = require('./options');
const { readInt32LE, readUint32LE, readDoubleFrom, dataViewOf, readInt64AsNumberLE, readBigInt64LE, copyToNewBuffer, valueBytes } = require('./bytes');
const { readUtf8, readUtf8Native, COLD_STRINGS } = require('./utf8');
const { local } = require('./platform');
const { readKey, openKeySequence, closeKeySequence } = require('./key-cache');
const { ObjectId } = require('./types/objectid');
const { setField } = require('./set-field');
const { stage, MAX_SHAPE_FIELDS } = require('./shapes');
const shapeReader = require('./shape-reader');
const { readByShape, MISS, MIN_SHAPE_SIZE } = shapeReader;
// Documents nested deeper are left to the decoder: in a chain of hundreds of
// one-key documents (the fuzzer's), a reader of 8 levels that met a bad byte far
// below returned MISS at every level and the chain was read again from each.
const MAX_SHAPE_DEPTH = 32;

// Modules the decoder needs only now and then, loaded when first needed and kept
// (require() takes about a microsecond): the element scanner checks raw
// documents; lib/types holds the classes of the types stored data rarely holds.
// Binary, Long, Int32 and Double are loaded alone, with their first value.
// require('qbson') loads none of them.
function loadWhenNeeded(load) {
    let loaded = null;
    return () => (loaded === null ? (loaded = load()) : loaded);
}
const elements = loadWhenNeeded(() => require('./elements'));
const rare = loadWhenNeeded(() => require('./types'));
const binaryTypes = loadWhenNeeded(() => require('./types/binary'));
const longType = loadWhenNeeded(() => require('./types/long').Long);
const int32Type = loadWhenNeeded(() => require('./types/int32').Int32);
const doubleType = loadWhenNeeded(() => require('./types/double').Double);
const mapping = loadWhenNeeded(() => require('./value-mapping'));

// An int64 decodes to a number when it is exactly representable (bson's rule).
const { INT64_SAFE_HIGH_MAX: MAX_SAFE_HIGH, INT64_SAFE_HIGH_MIN: MIN_SAFE_HIGH, UUID_BYTE_LENGTH, ROLE_ROOT, ROLE_NESTED, ROLE_SCOPE } = C;
// V8 enters code compiled on the stack (OSR) at a loop's back edge, and a function
// whose calls all go through OSR code is never optimized again. After a long array
// got decodeDocument on-stack replaced and its regular code was later dropped,
// small documents decoded 10x slower for good. Runs of 16 elements keep documents
// of up to 16 fields off the OSR back edge, and longer ones take enough back edges
// inside runs for V8 to optimize decodeDocument again. Instructions per decode
// moved by -1% to +2% (object, nested-array, flat, deep, full).
// A document still going after its first run is staged from there and built at
// its end (lib/shapes.js): {} takes 16 fields one key at a time before V8 makes it
// a dictionary, and past that a constructor compiled for its keys is quicker.
const ELEMENTS_PER_RUN = 16;
// Making a DataView costs ~70 ns, the cost of ten doubles read without one; from
// this size up it is at most 1.5% of a decode with no doubles at all.
const DATA_VIEW_MIN_SIZE = 2048;
// bson@7's words for these failures, which programs match; qbson's detail follows
const BSON_INVALID_UTF8 = 'Invalid UTF-8 string in BSON document';
const BSON_LENGTH_WORDING = {
    'embedded document': 'bad embedded document length in bson',
    array: 'bad embedded array length in bson',
    'code with scope scope': 'bad scope document size in code_w_scope',
};

class Decoder {
    constructor(buf, opts) {
        this.buf = buf;
        this.reset();
        if (opts != null) this.setOptions(opts);
    }

    // Every option at its default (decode keeps a Decoder for calls with options and
    // resets it after each), and nothing of the last call's kept alive.
    reset() {
        this.promoteLongs = true;
        this.promoteValues = true;
        this.promoteBuffers = false;
        this.useBigInt64 = false;
        this.bsonRegExp = false;
        this.preserveDeprecated = false;
        // bson's raw options: every embedded document as its bytes, or those in the named arrays
        this.raw = false;
        this.fieldsAsRaw = null;
        this.maxDepth = C.DEFAULT_MAX_DEPTH;
        // the values option, per type: 0 for decode's own form, else a code of lib/value-mapping.js
        this.objectIdAs = 0;
        this.dateAs = 0;
        this.int64As = 0;
        this.decimal128As = 0;
        this.binaryAs = 0;
        this.uuidAs = 0;
        this.timestampAs = 0;
        this.regexAs = 0;
        this.reviver = null;
        // arrays of numbers read by decodeNumberArray (not with a reviver, which sees every element)
        this.numberArrays = true;
        // utf8 validation: true/false for every key, or a per-top-level-key set
        this.validateUtf8 = true;
        this.validationKeys = null;
        // where a reader that cannot return it says the next element starts (regex)
        this.nextPos = 0;
        // a DataView over buf while a document of DATA_VIEW_MIN_SIZE or more decodes
        this.view = null;
        // documents of repeated shapes are read by readers made for them (lib/shape-reader.js)
        this.shapeReaders = true;
        // values a shape reader left to the decoder while it read its document
        this.shapeFallbacks = 0;
        // the root that decodeRoot looked up and found no reader for, while it decodes
        this.lookedAt = -1;
    }

    // Reads decode's options (lib/options.js checks them).
    setOptions(opts) {
        readDecodeOptions(this, opts);
        // The readers build plain objects of every field, and read doubles, int32s,
        // ObjectIds and Dates in decode's own forms; the other types' options are read
        // by the decoder's helpers they call.
        this.shapeReaders = this.promoteValues && !this.raw && this.fieldsAsRaw === null && this.reviver === null && this.objectIdAs === 0 && this.dateAs === 0;
    }

    // The forms the values option names take over from promoteLongs, useBigInt64,
    // promoteBuffers, promoteValues and bsonRegExp for their types.
    setValues(values) {
        const m = mapping();
        const codes = m.readValuesOption(values);
        this.objectIdAs = codes.objectId;
        this.dateAs = codes.date;
        this.decimal128As = codes.decimal128;
        this.timestampAs = codes.timestamp;
        if (codes.int64 === m.AS_BIGINT) this.useBigInt64 = true;
        else if (codes.int64 !== 0) {
            this.useBigInt64 = false;
            this.int64As = codes.int64;
        }
        // Binary itself is decode's form unless promoteBuffers is on
        if (codes.binary === m.AS_BINARY) this.promoteBuffers = false;
        else this.binaryAs = codes.binary;
        // a UUID not named goes with the other binaries; named 'uuid', it stays one
        this.uuidAs = codes.uuid === 0 ? this.binaryAs : codes.uuid;
        if (codes.regex === m.AS_STRING) this.regexAs = codes.regex;
        else if (codes.regex !== 0) this.bsonRegExp = codes.regex === m.AS_BSON_REGEXP;
    }

    // as bson reads them: raw when truthy; fieldsAsRaw names (as own keys with truthy values) the arrays
    // whose documents, at any depth below them, stay raw
    setRaw(raw, fields) {
        this.raw = Boolean(raw);
        // the MongoDB driver passes {} by default: that keeps the plain path
        if (fields != null && Object.keys(fields).length !== 0) this.fieldsAsRaw = fields;
    }

    isRawField(key) {
        return Boolean(option(this.fieldsAsRaw, key));
    }

    // validation.utf8 as checked by readValidationUtf8: a boolean (undefined is
    // true), or with `keys` the top-level keys it names, all true or all false
    setValidation(utf8, keys) {
        if (keys === null) {
            this.validateUtf8 = utf8 !== false;
            return;
        }
        this.validateUtf8 = utf8[keys[0]];
        this.validationKeys = new Set(keys);
    }

    // A reviver's last call is on the whole document: readers that take part of one
    // (get, has, lazy, the fields option) cannot make it.
    refuseReviver(reader) {
        if (this.reviver !== null) refuseOption('reviver', 'decode, decodeAll and decodeStream', reader);
    }

    fail(message, offset, code) {
        return new BSONError(`${message} at offset ${offset}`, { code: code || 'ERR_BSON_CORRUPT', offset });
    }
}

// The input as the runtime's bytes (a Buffer over the same memory on Node).
function toBuffer(buf) {
    if (buf instanceof Uint8Array) return local(buf);
    throw new BSONError('decode needs a Buffer or Uint8Array');
}

// Checks the outer length word of the document at start and returns its size.
function checkDocumentAt(dec, start, limit, what) {
    const buf = dec.buf;
    if (limit - start < 4) {
        throw dec.fail(`${lengthWording(what)}${what} needs a 4-byte length but only ${limit - start} bytes remain`, start, 'ERR_BSON_TRUNCATED');
    }
    const size = readInt32LE(buf, start);
    if (size < C.MIN_DOCUMENT_SIZE) throw dec.fail(`${lengthWording(what)}${what} length ${size} is less than the minimum of 5`, start);
    if (size > limit - start) {
        const code = limit === buf.length ? 'ERR_BSON_TRUNCATED' : 'ERR_BSON_CORRUPT';
        // bson calls an array that fits the input but not its parent corrupted
        const wording = what === 'array' && size <= buf.length - start ? 'corrupted array bson: ' : lengthWording(what);
        throw dec.fail(`${wording}${what} length ${size} runs past the ${limit - start} bytes that remain`, start, code);
    }
    if (buf[start + size - 1] !== 0) throw dec.fail(`${what} is not terminated by a NUL byte`, start + size - 1);
    return size;
}

function lengthWording(what) {
    const wording = BSON_LENGTH_WORDING[what];
    return wording === undefined ? '' : wording + ': ';
}

// Where the document starts: the index option, checked against the buffer.
function rootIndex(buf, opts) {
    const index = option(opts, 'index');
    return index ? readIndex(index, buf.length) : 0;
}

// Checks the document at index as decode takes it and returns its size.
function checkRoot(dec, index, opts) {
    const size = checkDocumentAt(dec, index, dec.buf.length, 'document');
    const allowSmaller = option(opts, 'allowObjectSmallerThanBufferSize') === true;
    if (!allowSmaller && index + size !== dec.buf.length) {
        throw dec.fail(`document length ${size} does not match the ${dec.buf.length - index} bytes given`, index);
    }
    return size;
}

// Decodes a top-level document; running out of stack is a BSONError like too deep a nesting.
// A document of DATA_VIEW_MIN_SIZE bytes or more reads its doubles through a DataView.
// A root of a shape with a reader is read by it here, not through decodeStaged and
// decodeDocument: {a: [1, 2, 3, 4, 5]} then decoded in 7-11% fewer instructions
// (1,655 -> 1,539) and in 62 ns against 70. A root it misses is not looked up
// again there (dec.lookedAt).
function decodeRoot(dec, start, size) {
    dec.view = size >= DATA_VIEW_MIN_SIZE ? dataViewOf(dec.buf) : null;
    try {
        if (size >= MIN_SHAPE_SIZE && dec.shapeReaders && (documentsBeforeShapes === 0 || size >= LOOKS_AT_ONCE_SIZE)) {
            // (no reviver: shapeReaders is false with one)
            const doc = readByShape(dec, start, size, 0);
            if (doc !== MISS) return doc;
            dec.lookedAt = start;
        }
        const doc = decodeStaged(dec, start, size, false, 0, dec.validateUtf8, ROLE_ROOT, dec.raw);
        return dec.reviver === null ? doc : mapping().reviveRoot(dec.reviver, doc);
    } catch (err) {
        throw overflowAsBSONError(dec, err, start);
    } finally {
        dec.view = null;
        dec.lookedAt = -1;
    }
}

// For decode without options: a root of fewer than MIN_SHAPE_SIZE bytes, which
// decodeDocument does not look up, read by the reader of its shape when it has one
// (and learnt from), else MISS. Once a process has decoded documents of a few shapes,
// decodeDocument's store of a field is megamorphic, about 25 ns against 10: {a: 1234}
// took 1,928 instructions by the decoder after every data set had been decoded (57 ns),
// 701 before; by its reader, 721 and 611 (37 and 30 ns). After a look that finds no
// reader the next SMALL_ROOT_SAMPLE - 1 small roots do not look: roots of a new shape
// each time cost 9% more instructions when every one looked, 2.4% so. A process's first
// SMALL_ROOT_SAMPLE do not look either (documentsBeforeShapes, below).
function readSmallRoot(dec, size) {
    if (smallRootSkips !== 0) {
        smallRootSkips--;
        return MISS;
    }
    const doc = readByShape(dec, 0, size, 0);
    if (doc === MISS) smallRootSkips = SMALL_ROOT_SAMPLE - 1;
    return doc;
}
const SMALL_ROOT_SAMPLE = 16;
let smallRootSkips = SMALL_ROOT_SAMPLE;
// Documents and arrays a process decodes before the shape readers (lib/shape-reader.js) look
// at any: a reader takes COMPILE_AFTER documents of one fingerprint anyway, and a process that
// decodes a few documents does not compile the table's code. A document of 4 kB or more, which
// counts as more than one sighting there, looks at once. (Building those documents on {} past
// 16 fields as well, not staged, spared a first decode 7 more functions but cost wide_1k_fields
// and wide_10k_fields 5% and 15% more instructions per decode ever after.)
let documentsBeforeShapes = 16;
const LOOKS_AT_ONCE_SIZE = 4096;

// err, or for running out of stack, the BSONError saying so for the document at start
function overflowAsBSONError(dec, err, start) {
    if (isStackOverflow(err)) return dec.fail(`document nests too deeply for the call stack (maxDepth ${dec.maxDepth})`, start, 'ERR_BSON_TOO_DEEP');
    return err;
}

// For readers that find elements themselves (lib/element-walker.js): the
// elements in [from, to) decoded as decodeDocument decodes them in a document or
// array at `depth`. `to` is the NUL ending their document, or the end of one
// element the element scanner has checked; then result[0] is its value.
function decodeElements(dec, from, to, isArray, depth, validate, isRoot, rawDocs) {
    return decodeStaged(dec, from - 4, to - from + 5, isArray, depth, validate, isRoot ? ROLE_ROOT : ROLE_NESTED, rawDocs);
}

// Every way into decodeDocument from outside it: the field stage is left as it
// was found, also when the decode fails or was started by a program's code in the
// middle of another (a setter on Object.prototype, Array[Symbol.species]).
function decodeStaged(dec, start, size, isArray, depth, validate, role, rawDocs) {
    const mark = stage.mark();
    try {
        return decodeDocument(dec, start, size, isArray, depth, validate, role, rawDocs);
    } catch (err) {
        stage.release(mark);
        closeKeySequence();
        throw err;
    }
}

// Decodes the document or array of `size` bytes at start; with rawDocs, the
// documents in it stay bytes (bson's raw and fieldsAsRaw). Elements go in runs
// of ELEMENTS_PER_RUN (see there): a document no longer than one run never takes
// the outer loop's back edge; a longer one stages its fields (lib/shapes.js).
// It is longer than a screen because the key read and the switch on the common
// types stay in its loop: with them in functions of their own, V8 did not inline
// them and a decode took 15% more instructions (flat_bson 214,822 -> 246,805,
// object 3,455 -> 3,991).
function decodeDocument(dec, start, size, isArray, depth, validate, role, rawDocs) {
    if (documentsBeforeShapes !== 0) documentsBeforeShapes--;
    if (!isArray && size >= MIN_SHAPE_SIZE && depth <= MAX_SHAPE_DEPTH && dec.shapeReaders && (documentsBeforeShapes === 0 || size >= LOOKS_AT_ONCE_SIZE) && start !== dec.lookedAt) {
        const doc = readByShape(dec, start, size, depth);
        if (doc !== MISS) return doc;
    }
    if (depth > dec.maxDepth) throw tooDeep(dec, start);
    const buf = dec.buf;
    const end = start + size - 1; // the terminating NUL, already checked
    let out = isArray ? newArray() : {};
    let pastFirstRun = isArray;
    // past its first run a document's fields are staged from base, and out is null
    let base = 0;
    let dollarKeys = NO_DOLLAR_KEYS;
    // past MAX_SHAPE_FIELDS a document's keys are read in sequence (lib/key-cache.js)
    let inKeySequence = false;
    let opensKeySequence = false;
    let pos = start + 4;
    if (pos < end) do {
        let left = ELEMENTS_PER_RUN;
        do {
            const elementStart = pos;
            // the key: buf[end] is NUL so the scan stops at the latest there
            let keyEnd = pos + 1;
            while (buf[keyEnd] !== 0) keyEnd++;
            if (keyEnd === end) throw dec.fail('element key is not terminated inside its document', elementStart);
            // an array's keys are not read: its elements are taken in order
            let key;
            let valueValidate = validate;
            if (!isArray) {
                key = readKey(buf, pos + 1, keyEnd, validate, inKeySequence);
                if (key === undefined) throw dec.fail(`${BSON_INVALID_UTF8}: invalid UTF-8 in key`, pos + 1);
                if (role === ROLE_ROOT && dec.validationKeys !== null) valueValidate = dec.validationKeys.has(key) ? dec.validateUtf8 : !dec.validateUtf8;
                if (buf[pos + 1] === DOLLAR) dollarKeys = withDollarKey(dollarKeys, key);
            }
            const type = buf[pos];
            pos = keyEnd + 1;
            let value;
            switch (type) {
                case C.BSON_DOUBLE:
                    if (end - pos < 8) throw truncatedValue(dec, 'double', pos, 8, end);
                    value = readDoubleFrom(buf, dec.view, pos);
                    if (!dec.promoteValues) value = new (doubleType())(value);
                    pos += 8;
                    break;
                case C.BSON_STRING: {
                    const len = checkStringAt(dec, pos, end, 'string');
                    value = readString(dec, pos + 4, pos + 3 + len, valueValidate);
                    pos += 4 + len;
                    break;
                }
                case C.BSON_DOCUMENT: {
                    const len = checkDocumentAt(dec, pos, end, 'embedded document');
                    value = rawDocs ? rawDocument(dec, pos, len, depth) : decodeDocument(dec, pos, len, false, depth + 1, valueValidate, ROLE_NESTED, false);
                    pos += len;
                    break;
                }
                case C.BSON_ARRAY: {
                    const len = checkDocumentAt(dec, pos, end, 'array');
                    // an array is one level down whatever it holds: checked here for the number fast path
                    if (depth >= dec.maxDepth) throw tooDeep(dec, pos);
                    // its elements run from pos + 4 to its NUL
                    value = dec.numberArrays && startsWithNumbers(buf, pos + 4, pos + len - 1) ? decodeNumberArray(buf, dec.view, pos + 4, pos + len - 1) : null;
                    if (value === null) {
                        // bson names an array's element by its position, not its stored key
                        const rawItems = rawDocs || (dec.fieldsAsRaw !== null && dec.isRawField(isArray ? String(out.length) : key));
                        value = decodeDocument(dec, pos, len, true, depth + 1, valueValidate, ROLE_NESTED, rawItems);
                    }
                    pos += len;
                    break;
                }
                case C.BSON_BINARY:
                    value = readBinary(dec, pos, end);
                    pos += 5 + readInt32LE(buf, pos);
                    break;
                case C.BSON_OBJECTID:
                    if (end - pos < 12) throw truncatedValue(dec, 'ObjectId', pos, 12, end);
                    value = dec.objectIdAs === 0 ? ObjectId.fromBytes(buf, pos) : mapping().objectIdAs(buf, pos);
                    pos += 12;
                    break;
                case C.BSON_BOOLEAN:
                    value = readBoolean(dec, pos, end);
                    pos += 1;
                    break;
                case C.BSON_DATE:
                    if (end - pos < 8) throw truncatedValue(dec, 'date', pos, 8, end);
                    value = dec.dateAs === 0 ? new Date(readInt64AsNumberLE(buf, pos)) : mapping().dateAs(readInt64AsNumberLE(buf, pos), dec.dateAs, pos);
                    pos += 8;
                    break;
                case C.BSON_NULL:
                    value = null;
                    break;
                case C.BSON_INT32:
                    if (end - pos < 4) throw truncatedValue(dec, 'int32', pos, 4, end);
                    value = readInt32LE(buf, pos);
                    if (!dec.promoteValues) value = new (int32Type())(value);
                    pos += 4;
                    break;
                case C.BSON_INT64:
                    if (end - pos < 8) throw truncatedValue(dec, 'int64', pos, 8, end);
                    value = readInt64(dec, buf, pos);
                    pos += 8;
                    break;
                default:
                    value = readOtherValue(dec, type, pos, end, depth, valueValidate, elementStart, key);
                    pos = dec.nextPos;
            }
            if (isArray) out.push(value);
            else if (out !== null) setField(out, key, value);
            else stage.add(key, value);
        } while (pos < end && --left !== 0);
        if (pos < end && !pastFirstRun) {
            pastFirstRun = true;
            base = stage.addAll(out);
            out = null;
        } else if (pos < end && out === null && stage.countFrom(base) >= MAX_SHAPE_FIELDS) {
            // too many fields for a shape: the rest go on in the object built so far
            out = stage.build(base);
            opensKeySequence = openKeySequence();
            inKeySequence = true;
        }
    } while (pos < end);
    if (pos !== end) throw dec.fail(`last element runs past the end of its ${isArray ? 'array' : 'document'}`, pos);
    if (out === null) out = stage.build(base);
    if (opensKeySequence) closeKeySequence();
    if (dollarKeys === ONLY_DBREF_KEYS && role !== ROLE_SCOPE && isDBRefLike(out)) return toDBRef(out);
    // a reviver sees a DBRef or a Code scope as a value, as JSON.parse's sees class instances
    if (dec.reviver !== null && role !== ROLE_SCOPE) mapping().reviveFields(dec.reviver, out, isArray);
    return out;
}

// What a document's $-keys say so far: a document whose $-keys are only $ref,
// $id and $db may be a DBRef.
const NO_DOLLAR_KEYS = 0;
const ONLY_DBREF_KEYS = 1;
const OTHER_DOLLAR_KEYS = 2;
const DOLLAR = 0x24;

function withDollarKey(dollarKeys, key) {
    if (dollarKeys === OTHER_DOLLAR_KEYS || (key !== '$ref' && key !== '$id' && key !== '$db')) return OTHER_DOLLAR_KEYS;
    return ONLY_DBREF_KEYS;
}

function readBoolean(dec, pos, end) {
    if (end - pos < 1) throw truncatedValue(dec, 'boolean', pos, 1, end);
    const b = dec.buf[pos];
    if (b > 1) throw dec.fail(`boolean byte must be 0 or 1, not ${b}`, pos);
    return b === 1;
}

// Decoded arrays are an empty rest parameter rather than `[]` literals: a
// literal's allocation site, once V8 has seen the arrays of a large document
// survive a scavenge, allocates every later array in old space (pretenuring),
// where each small decode then adds to the major GCs (test/pretenuring.test.js).
// Objects from `{}` and `new` have no such site, nor have rest parameters, which
// V8 allocates inline as it does a literal. (Object.keys of an empty object, as
// before, is a call: deepkit_cursor took 3.1% more instructions. EMPTY.slice()
// goes through Array[Symbol.species]: once any program gives an array its own
// `constructor`, V8 takes slice's slow path, 10x the cost.)
const newArray = (...none) => none;

function isNumberType(type) {
    return type === C.BSON_DOUBLE || type === C.BSON_INT32;
}

// Whether the array whose first element is at `first` (its NUL at end) looks like
// one of numbers: its first two elements are, if key "0" is where it should be. A
// guess that saves arrays like [1, [2, ...]] a try; decodeNumberArray checks it all.
function startsWithNumbers(buf, first, end) {
    const type = buf[first];
    if (!isNumberType(type)) return false;
    // type byte, key "0" and its NUL, value
    const second = first + 3 + (type === C.BSON_DOUBLE ? 8 : 4);
    return second >= end || isNumberType(buf[second]);
}

// An array of only doubles and int32s (GeoJSON coordinates, vectors, series), from
// its first element at pos to its terminating NUL at end; null if anything else is
// in it, or anything is out of place, for decodeDocument to decode it (and report
// what is wrong). The numbers gather in numberScratch and the array is one copy of
// them: exactly its size, its doubles unboxed, and from no allocation site (see
// newArray). The copy is slice's, so it depends on Array[Symbol.species] as
// newArray's arrays do not; an array from newArray would hold the doubles boxed
// (a [lon, lat] pair in 52 ns against 36). The scratch grows to the longest array
// read, up to 65,536 numbers (512 KB); a longer array goes on in the copy. Arrays
// over 128 KB cost their allocation each time they grow: double_array's 25,000
// doubles took 22 ns each with a scratch of 4,096, 14 ns with one that holds them.
// A schema's codec names the types it takes (-1 for none of one kind).
function decodeNumberArray(buf, view, pos, end, doubleType = C.BSON_DOUBLE, int32Type = C.BSON_INT32) {
    let out = numberScratch;
    let count = 0;
    while (pos < end) {
        if (count === MAX_NUMBER_SCRATCH && out === numberScratch) out = arraySlice.call(numberScratch, 0, count);
        const type = buf[pos++];
        while (buf[pos] !== 0) pos++;
        pos++;
        if (type === doubleType) {
            if (end - pos < 8) return null;
            out[count++] = readDoubleFrom(buf, view, pos);
            pos += 8;
        } else if (type === int32Type) {
            if (end - pos < 4) return null;
            out[count++] = readInt32LE(buf, pos);
            pos += 4;
        } else {
            return null;
        }
    }
    if (pos !== end) return null;
    return out === numberScratch ? arraySlice.call(numberScratch, 0, count) : out;
}
// 4,096 unboxed doubles to start with (a double literal makes it that kind of array; it stays one)
const numberScratch = [0.5];
while (numberScratch.length < 4096) numberScratch.push(0.5);
const MAX_NUMBER_SCRATCH = 65536;
// taken now, so that a program replacing Array.prototype.slice later does not reach here
const arraySlice = Array.prototype.slice;

// The types that are rare in stored data, out of decodeDocument so that its
// compiled code stays small: fewer branches to have no type feedback for, and a
// shorter compile each time V8 optimizes it again. Sets dec.nextPos to the next element.
function readOtherValue(dec, type, pos, end, depth, valueValidate, elementStart, key) {
    const buf = dec.buf;
    let value;
    switch (type) {
        case C.BSON_UNDEFINED:
            value = dec.preserveDeprecated ? new (rare().BSONUndefined)() : undefined;
            break;
        case C.BSON_REGEXP:
            value = readRegExp(dec, pos, end, valueValidate);
            pos = dec.nextPos;
            break;
        case C.BSON_DBPOINTER: {
            const len = checkStringAt(dec, pos, end, 'DBPointer namespace');
            const ns = readString(dec, pos + 4, pos + 3 + len, valueValidate);
            pos += 4 + len;
            if (end - pos < 12) throw truncatedValue(dec, 'DBPointer ObjectId', pos, 12, end);
            const oid = dec.objectIdAs === 0 ? ObjectId.fromBytes(buf, pos) : mapping().objectIdAs(buf, pos);
            pos += 12;
            value = dec.preserveDeprecated ? new (rare().DBPointer)(ns, oid) : new (rare().DBRef)(ns, oid);
            break;
        }
        case C.BSON_CODE: {
            const len = checkStringAt(dec, pos, end, 'code');
            value = new (rare().Code)(readString(dec, pos + 4, pos + 3 + len, valueValidate));
            pos += 4 + len;
            break;
        }
        case C.BSON_SYMBOL: {
            const len = checkStringAt(dec, pos, end, 'symbol');
            value = readString(dec, pos + 4, pos + 3 + len, valueValidate);
            if (!dec.promoteValues || dec.preserveDeprecated) value = new (rare().BSONSymbol)(value);
            pos += 4 + len;
            break;
        }
        case C.BSON_CODE_W_SCOPE:
            value = readCodeWithScope(dec, pos, end, depth, valueValidate);
            pos += readInt32LE(buf, pos);
            break;
        case C.BSON_TIMESTAMP:
            if (end - pos < 8) throw truncatedValue(dec, 'timestamp', pos, 8, end);
            value = dec.timestampAs === 0 ? new (rare().Timestamp)({ i: readUint32LE(buf, pos), t: readUint32LE(buf, pos + 4) }) : mapping().timestampAs(buf, pos, dec.timestampAs);
            pos += 8;
            break;
        case C.BSON_DECIMAL128:
            if (end - pos < 16) throw truncatedValue(dec, 'Decimal128', pos, 16, end);
            value = dec.decimal128As === 0 ? new (rare().Decimal128)(copyToNewBuffer(buf, pos, pos + 16)) : mapping().decimal128As(buf, pos, dec.decimal128As);
            pos += 16;
            break;
        case C.BSON_MINKEY:
            value = new (rare().MinKey)();
            break;
        case C.BSON_MAXKEY:
            value = new (rare().MaxKey)();
            break;
        default:
            throw dec.fail(`unknown BSON type 0x${type.toString(16).padStart(2, '0')} for key '${key === undefined ? '' : key}'`, elementStart);
    }
    dec.nextPos = pos;
    return value;
}

function tooDeep(dec, start) {
    return dec.fail(`nesting deeper than maxDepth ${dec.maxDepth}`, start, 'ERR_BSON_TOO_DEEP');
}

function truncatedValue(dec, what, pos, need, end) {
    return dec.fail(`${what} needs ${need} bytes but only ${end - pos} remain in its document`, pos);
}

// Checks a length-prefixed string (int32 length counting the NUL) at pos; returns the length.
function checkStringAt(dec, pos, end, what) {
    if (end - pos < 4) throw truncatedValue(dec, `${what} length`, pos, 4, end);
    const len = readInt32LE(dec.buf, pos);
    if (len < 1) throw dec.fail(`${what} length ${len} must be at least 1`, pos);
    if (len > end - pos - 4) throw dec.fail(`${what} length ${len} runs past the end of its document`, pos);
    if (dec.buf[pos + 3 + len] !== 0) throw dec.fail(`${what} is not terminated by a NUL byte`, pos + 3 + len);
    return len;
}

// a process's first strings are made by the native method (lib/utf8.js says why)
let coldStrings = COLD_STRINGS;

function readString(dec, start, end, validate) {
    let str;
    if (coldStrings !== 0) {
        coldStrings--;
        str = readUtf8Native(dec.buf, start, end, validate);
    } else {
        str = readUtf8(dec.buf, start, end, validate);
    }
    if (str === undefined) throw dec.fail(`${BSON_INVALID_UTF8}: invalid UTF-8 in string`, start);
    return str;
}

function readInt64(dec, buf, pos) {
    if (dec.useBigInt64) return readBigInt64LE(buf, pos);
    if (dec.int64As !== 0) return mapping().int64As(buf, pos, dec.int64As);
    const high = readInt32LE(buf, pos + 4);
    if (dec.promoteLongs && dec.promoteValues && high >= MIN_SAFE_HIGH && (high < MAX_SAFE_HIGH || (high === MAX_SAFE_HIGH && readInt32LE(buf, pos) === 0))) {
        return readInt64AsNumberLE(buf, pos);
    }
    return longType().fromBits(readInt32LE(buf, pos), high, false);
}

function readBinary(dec, pos, end) {
    const buf = dec.buf;
    if (end - pos < 5) throw truncatedValue(dec, 'binary length and subtype', pos, 5, end);
    let len = readInt32LE(buf, pos);
    if (len < 0) throw dec.fail(`binary length ${len} is negative`, pos);
    if (len > end - pos - 5) throw dec.fail(`binary length ${len} runs past the end of its document`, pos);
    const subtype = buf[pos + 4];
    let start = pos + 5;
    if (subtype === C.BINARY_OLD) {
        if (len < 4) throw dec.fail(`binary subtype 2 length ${len} has no room for its inner length`, pos);
        const inner = readInt32LE(buf, start);
        if (inner !== len - 4) throw dec.fail(`binary subtype 2 inner length ${inner} disagrees with outer length ${len}`, start);
        start += 4;
        len = inner;
    }
    const isUUID = subtype === C.BINARY_UUID && len === UUID_BYTE_LENGTH;
    const as = isUUID ? dec.uuidAs : dec.binaryAs;
    if (as !== 0) return mapping().bytesAs(buf, start, start + len, as);
    if (dec.promoteBuffers && dec.promoteValues) return valueBytes(buf, start, start + len);
    const { Binary, UUID } = binaryTypes();
    if (isUUID) return UUID.fromBytes(buf, start, start + len);
    return Binary.fromBytes(buf, start, start + len, subtype);
}

function readRegExp(dec, pos, end, validate) {
    const buf = dec.buf;
    let patternEnd = pos;
    while (patternEnd < end && buf[patternEnd] !== 0) patternEnd++;
    if (patternEnd >= end) throw dec.fail('regular expression pattern is not terminated inside its document', pos);
    let flagsEnd = patternEnd + 1;
    while (flagsEnd < end && buf[flagsEnd] !== 0) flagsEnd++;
    if (flagsEnd >= end) throw dec.fail('regular expression flags are not terminated inside its document', patternEnd + 1);
    const pattern = readString(dec, pos, patternEnd, validate);
    const flags = readString(dec, patternEnd + 1, flagsEnd, validate);
    dec.nextPos = flagsEnd + 1;
    // values: {regex: 'string'} checks and orders the flags as BSONRegExp does
    if (dec.bsonRegExp || dec.regexAs !== 0) {
        try {
            const regex = new (rare().BSONRegExp)(pattern, flags);
            return dec.regexAs === 0 ? regex : `/${regex.pattern}/${regex.options}`;
        } catch (err) {
            throw dec.fail(`regular expression options ${JSON.stringify(flags)} are not valid (${err.message})`, patternEnd + 1, 'ERR_BSON_REGEXP');
        }
    }
    try {
        return new RegExp(pattern, jsRegExpFlags(flags));
    } catch (err) {
        throw dec.fail(`regular expression /${pattern}/${flags} is not valid in JavaScript (decode with bsonRegExp: true to keep it as a BSONRegExp)`, pos, 'ERR_BSON_REGEXP');
    }
}

// int32 total length, string, scope document: the total must equal its parts. The
// parts are checked against the enclosing document first, as bson does, so that a
// bad scope length is reported as such (with bson's words) and not as a bad total.
function readCodeWithScope(dec, pos, end, depth, validate) {
    const buf = dec.buf;
    if (end - pos < 4) throw truncatedValue(dec, 'code with scope length', pos, 4, end);
    const total = readInt32LE(buf, pos);
    if (total > end - pos) throw dec.fail(`code with scope length ${total} runs past the end of its document`, pos);
    const codeLen = checkStringAt(dec, pos + 4, end, 'code with scope string');
    const code = readString(dec, pos + 8, pos + 7 + codeLen, validate);
    const scopeStart = pos + 8 + codeLen;
    const scopeSize = checkDocumentAt(dec, scopeStart, end, 'code with scope scope');
    // the smallest parts (empty code, empty scope) make 14 bytes, so a total below that disagrees too
    if (scopeStart + scopeSize !== pos + total) {
        throw dec.fail(`code with scope length ${total} disagrees with its parts (${8 + codeLen + scopeSize} bytes)`, pos);
    }
    return new (rare().Code)(code, decodeDocument(dec, scopeStart, scopeSize, false, depth + 1, validate, ROLE_SCOPE, dec.raw));
}

// A document kept as its bytes: a Buffer sharing the input's memory, as bson gives
// it. Its structure is checked all the way down by the element scanner.
function rawDocument(dec, pos, len, depth) {
    try {
        elements().checkDocumentTree(dec.buf, pos, len, dec.maxDepth - (depth + 1));
    } catch (err) {
        throw rawCheckError(dec, err);
    }
    return dec.buf.subarray(pos, pos + len);
}

// The element scanner's error for bytes decode keeps raw, in decode's words: the
// scanner's message with "at offset N" (its own ends ". offset: N", as bson's
// parseToElements words it), and decode's for a nesting too deep.
function rawCheckError(dec, err) {
    if (!(err instanceof BSONOffsetError)) return err;
    if (err.code === 'ERR_BSON_TOO_DEEP') return tooDeep(dec, err.offset);
    const suffix = `. offset: ${err.offset}`;
    const message = err.message.endsWith(suffix) ? err.message.slice(0, -suffix.length) : err.message;
    return dec.fail(message, err.offset, err.code);
}

function isDBRefLike(doc) {
    return doc.$id != null && typeof doc.$ref === 'string' && (!('$db' in doc) || typeof doc.$db === 'string');
}

function toDBRef(doc) {
    const fields = {};
    for (const k of Object.keys(doc)) {
        if (k !== '$ref' && k !== '$id' && k !== '$db') setField(fields, k, doc[k]);
    }
    return new (rare().DBRef)(doc.$ref, doc.$id, doc.$db, fields);
}

// BSON's regular expression flags as JavaScript's, as bson@7 maps them: s -> g; others but i and m dropped
function jsRegExpFlags(flags) {
    let jsFlags = '';
    for (let i = 0; i < flags.length; i++) {
        const f = flags[i];
        if (f === 'i' || f === 'm') jsFlags += f;
        else if (f === 's') jsFlags += 'g';
    }
    return jsFlags;
}

// The value of the element from elementStart to elementEnd (its key already
// checked by a shape reader), as decodeDocument reads it in an array at depth;
// MISS where decodeDocument throws (the document is then decoded from its start,
// and throws that).
function readValueForShape(dec, elementStart, elementEnd, depth) {
    try {
        return decodeElements(dec, elementStart, elementEnd, true, depth, true, false, false)[0];
    } catch {
        return MISS;
    }
}

shapeReader.init({ oid: (buf, pos) => ObjectId.fromBytes(buf, pos), i64: readInt64, bin: readBinary, nums: decodeNumberArray, value: readValueForShape, newArray });

module.exports = { jsRegExpFlags, Decoder, decodeNumberArray, newArray, toBuffer, checkDocumentAt, rootIndex, checkRoot, decodeRoot, readSmallRoot, MISS, MIN_SHAPE_SIZE, decodeElements, overflowAsBSONError, rawCheckError };
