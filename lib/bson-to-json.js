'use strict';

// bsonToJSON: BSON bytes straight to JSON text, with no value tree between.
//
// One pass over the document's bytes writes UTF-8 into one growing buffer:
// strings and keys are copied byte for byte where they need no escape, numbers
// go through a digit table, ObjectIds through a hex table. The text is exactly
// what a program gets from the decoded value:
//   'json'       JSON.stringify(decode(bytes))
//   'relaxed'    EJSON.stringify(decode(bytes, LOSSLESS), { relaxed: true })
//   'canonical'  EJSON.stringify(decode(bytes, LOSSLESS), { relaxed: false })
// and, for `qbson dump`, bsondump's own format (lib/cli/bsondump-json.js).
//
// A decoded document is a JavaScript object, so three rare shapes change its
// keys: a key seen twice (the last value, at the first place), integer-like keys
// (listed first, ascending) and the {$ref, $id, $db} of a DBRef. A document that
// may have one of them is written again the long way, through an object of its
// keys (writeInObjectOrder). bsondump's format keeps the keys as stored.
//
// The bytes are checked as decode checks them; where anything is wrong, decode
// itself is run on them to throw its own error, so bsonToJSON fails exactly
// where decode fails, with the same BSONError.

const C = require('./constants');
const { BSONError, isStackOverflow } = require('./errors');
const { checkOptionsObject, optionError, listChoices, readChoice } = require('./options');
const { allocUnsafe, allocUnsafeSlow, local, view, latin1Slice, utf8Slice, utf16leSlice, fromUtf8 } = require('./platform');
const { readInt32LE, readUint32LE, readDoubleLE, readInt64AsNumberLE, readBigInt64LE, TWO_POW_32 } = require('./bytes');
const { readUtf8, asciiString, MAX_ASCII_CALL_LENGTH } = require('./utf8');
const { setField } = require('./set-field');
const { utf8SequenceEnd, COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET } = require('./json-text-reading');
const { Decoder, jsRegExpFlags } = require('./decoder');
const T = require('./json-text-writing');
const { writeDoubleText } = require('./double-text');

const { BYTE_KIND, PLAIN, QUOTE } = T;

let typesModule = null;
function types() {
    return typesModule === null ? (typesModule = require('./types')) : typesModule;
}
let decodeModule = null;
function decodeFunctions() {
    return decodeModule === null ? (decodeModule = require('./decode')) : decodeModule;
}

// the decode options under which the Extended JSON modes keep every type as stored
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };

const MODE_JSON = 0;
const MODE_RELAXED = 1;
const MODE_CANONICAL = 2;

// thrown where the bytes are not what decode takes; decode then says why
const INVALID = new Error('invalid BSON');

// the first output buffer; it doubles as needed, and one up to the kept size is reused by the next call
const FIRST_OUTPUT_SIZE = 64 * 1024;
const MAX_KEPT_OUTPUT_SIZE = 4 * 1024 * 1024;
// room for a value's fixed part: wrappers, numbers, an ObjectId, a date
const VALUE_ROOM = 160;
const MAX_SERIAL = 0x3fffffff;
// decode promotes an int64 to a number in [-2^53, 2^53]
const { INT64_SAFE_HIGH_MAX: MAX_SAFE_HIGH, INT64_SAFE_HIGH_MIN: MIN_SAFE_HIGH, ROLE_ROOT, ROLE_NESTED, ROLE_SCOPE } = C;
const MAX_DATE_MS = 8.64e15;
const YEAR_10000_MS = 253402300800000;
const UUID_LENGTH = C.UUID_BYTE_LENGTH;

const DOLLAR = 0x24;

const B = T.asciiBytes;
const TEXT = {
    null: B('null'),
    true: B('true'),
    false: B('false'),
    emptyObject: B('{}'),
    oid: B('{"$oid":"'),
    numberInt: B('{"$numberInt":"'),
    numberLong: B('{"$numberLong":"'),
    numberDouble: B('{"$numberDouble":"'),
    numberDecimal: B('{"$numberDecimal":"'),
    date: B('{"$date":'),
    binary: B('{"$binary":{"base64":"'),
    subType: B('","subType":"'),
    timestamp: B('{"$timestamp":{"t":'),
    timestampI: B(',"i":'),
    timestampJSON: B('{"$timestamp":"'),
    regularExpression: B('{"$regularExpression":{"pattern":'),
    options: B(',"options":'),
    dbPointer: B('{"$dbPointer":{"$ref":'),
    dbPointerId: B(',"$id":{"$oid":"'),
    code: B('{"$code":'),
    codeJSON: B('{"code":'),
    scope: B(',"$scope":'),
    scopeJSON: B(',"scope":'),
    symbol: B('{"$symbol":'),
    minKey: B('{"$minKey":1}'),
    maxKey: B('{"$maxKey":1}'),
    undefined: B('{"$undefined":true}'),
    ref: B('{"$ref":'),
    id: B(',"$id":'),
    db: B(',"$db":'),
    longHigh: B('{"high":'),
    longLow: B(',"low":'),
    longUnsigned: B(',"unsigned":false}'),
    quoteClose: B('"}'),
    quoteCloseTwice: B('"}}'),
    replacement: B('\\ufffd'),
};

class BSONToJSON {
    constructor() {
        this.src = null;
        this.out = allocUnsafeSlow(FIRST_OUTPUT_SIZE);
        this.pos = 0;
        // whether any byte of 0x80 or more was written (the text is then decoded as UTF-8, else as latin1)
        this.wide = false;
        this.mode = MODE_JSON;
        this.json = true;
        this.canonical = false;
        // bsondump's format: Go's doubles and dates, keys as stored, U+2028/U+2029 escaped
        this.go = false;
        // with many and an array: the document being written
        this.failedItem = 0;
        this.maxDepth = C.DEFAULT_MAX_DEPTH;
        this.validateUtf8 = true;
        this.validationKeys = null;
        // UTF-16 code units of the text, when it is not ASCII
        this.units = null;
        // the keys of the open document at each level (KeyTable)
        this.keyTables = [];
    }

    // the mode, and maxDepth and validation as decode read them (dec, a Decoder)
    setDecoder(mode, dec) {
        this.mode = mode;
        this.json = mode === MODE_JSON;
        this.canonical = mode === MODE_CANONICAL;
        this.go = false;
        this.failedItem = 0;
        this.maxDepth = dec.maxDepth;
        this.validateUtf8 = dec.validateUtf8;
        this.validationKeys = dec.validationKeys;
    }

    ensure(n) {
        if (this.pos + n > this.out.length) this.grow(n);
    }

    grow(n) {
        let size = this.out.length * 2;
        while (size < this.pos + n) size *= 2;
        const bigger = allocUnsafeSlow(size);
        bigger.set(this.out.subarray(0, this.pos), 0);
        this.out = bigger;
    }

    put(bytes) {
        this.ensure(bytes.length);
        this.pos = T.writeBytes(this.out, this.pos, bytes);
    }

    // a JavaScript string as JSON.stringify quotes it (the long ways: keys read as strings, $ref)
    putQuoted(text) {
        const bytes = fromUtf8(JSON.stringify(text));
        if (bytes.length !== text.length + 2 || this.wide) this.wide = true;
        this.put(bytes);
    }

    putAscii(text) {
        this.ensure(text.length);
        this.pos = T.writeAscii(this.out, this.pos, text);
    }

    text() {
        if (!this.wide) return this.pos <= MAX_ASCII_CALL_LENGTH ? asciiString(this.out, 0, this.pos) : latin1Slice(this.out, 0, this.pos);
        if (this.units === null || this.units.length < this.pos) this.units = new Uint16Array(Math.max(this.pos, FIRST_OUTPUT_SIZE));
        return T.utf8Text(this.out, this.pos, this.units, unitsText);
    }

    bytes() {
        const bytes = allocUnsafe(this.pos);
        bytes.set(this.out.subarray(0, this.pos), 0);
        return bytes;
    }
}

// the string of units[0, n)
function unitsText(units, n) {
    return utf16leSlice(view(units.buffer, 0, 2 * n), 0, 2 * n);
}

function bad() {
    throw INVALID;
}

// ---------------------------------------------------------------------------
// strings

// src[start, stop) as a quoted JSON string. Text that is not UTF-8 is refused
// when validated; otherwise it is written as decode reads it (each bad sequence
// a U+FFFD), or for bsondump each bad byte as the escape \ufffd.
function writeQuoted(w, start, stop, validate) {
    w.ensure(6 * (stop - start) + 2);
    const src = w.src;
    const out = w.out;
    let pos = w.pos;
    out[pos++] = QUOTE;
    let i = start;
    // the common case, copied in this short loop: no escape, nothing beyond ASCII
    while (i < stop) {
        const b = src[i];
        if (BYTE_KIND[b] !== PLAIN) break;
        out[pos++] = b;
        i++;
    }
    if (i < stop) pos = writeQuotedRest(w, start, i, stop, pos, validate);
    if (pos >= 0) {
        out[pos++] = QUOTE;
        w.pos = pos;
    }
}

// The rest of writeQuoted from src[i], out[pos]; -1 when the string was written otherwise.
function writeQuotedRest(w, start, i, stop, pos, validate) {
    const src = w.src;
    const out = w.out;
    while (i < stop) {
        const b = src[i];
        const kind = BYTE_KIND[b];
        if (kind === PLAIN) {
            out[pos++] = b;
            i++;
        } else if (kind === T.ESCAPED) {
            pos = T.writeEscape(out, pos, b);
            i++;
        } else {
            const next = utf8SequenceEnd(src, i, stop);
            if (next < 0) {
                if (validate) bad();
                if (!w.go) {
                    writeReplaced(w, start, stop);
                    return -1;
                }
                pos = T.writeBytes(out, pos, TEXT.replacement);
                i++;
                continue;
            }
            w.wide = true;
            // bsondump escapes U+2028 and U+2029 (E2 80 A8, E2 80 A9), which JavaScript allows in strings
            if (w.go && b === 0xe2 && src[i + 1] === 0x80 && (src[i + 2] === 0xa8 || src[i + 2] === 0xa9)) {
                pos = T.writeUnitEscape(out, pos, src[i + 2] === 0xa8 ? 0x2028 : 0x2029);
                i = next;
                continue;
            }
            while (i < next) out[pos++] = src[i++];
        }
    }
    return pos;
}

// text that is not UTF-8 and not validated: the string decode makes of it (U+FFFD for each bad sequence)
function writeReplaced(w, start, stop) {
    w.putQuoted(utf8Slice(w.src, start, stop));
    w.wide = true;
}

// Checks the length-prefixed string at pos as decode does; returns its length (with the NUL).
function stringLength(src, pos, end) {
    if (end - pos < 4) bad();
    const len = readInt32LE(src, pos);
    if (len < 1 || len > end - pos - 4 || src[pos + 3 + len] !== 0) bad();
    return len;
}

// the string at pos quoted; returns the offset after it
function writeString(w, pos, end, validate) {
    const len = stringLength(w.src, pos, end);
    writeQuoted(w, pos + 4, pos + 3 + len, validate);
    return pos + 4 + len;
}

function stringAt(w, start, stop, validate) {
    const text = readUtf8(w.src, start, stop, validate);
    if (text === undefined) bad();
    return text;
}

// ---------------------------------------------------------------------------
// documents and arrays

// Checks the length and NUL of the document at start as decode does; returns its size.
function documentSize(src, start, limit) {
    if (limit - start < 4) bad();
    const size = readInt32LE(src, start);
    if (size < C.MIN_DOCUMENT_SIZE || size > limit - start || src[start + size - 1] !== 0) bad();
    return size;
}

// Whether the key at [start, stop) (its first byte '$') is one of a DBRef's: $ref, $id, $db.
function isDBRefKey(src, start, stop) {
    const n = stop - start;
    const a = src[start + 1];
    const b = src[start + 2];
    if (n === 3) return (a === 0x69 && b === 0x64) || (a === 0x64 && b === 0x62);
    return n === 4 && a === 0x72 && b === 0x65 && src[start + 3] === 0x66;
}

// Whether the key at [start, stop) (its first byte a digit) is an array index,
// which a JavaScript object lists before its other keys: "0", or digits without
// a leading zero up to 2^32 - 2.
function isIndexKey(src, start, stop) {
    const n = stop - start;
    if (n > 10 || (src[start] === 0x30 && n > 1)) return false;
    let value = 0;
    for (let i = start; i < stop; i++) {
        const d = src[i] - 0x30;
        if (d < 0 || d > 9) return false;
        value = value * 10 + d;
    }
    return value < 4294967295;
}

// Each nesting level has a table of the keys of its open document, by hash with
// linear probing: a slot is taken when its stamp is that document's serial
// number. Documents open at one time sit at different levels, so none
// overwrites another's keys, and a new document needs no clearing.
class KeyTable {
    constructor(bits) {
        this.shift = 32 - bits;
        this.mask = (1 << bits) - 1;
        this.stamps = new Int32Array(1 << bits);
        this.hashes = new Int32Array(1 << bits);
        this.starts = new Int32Array(1 << bits);
        this.serial = 0;
        this.count = 0;
    }
}
const FIRST_KEY_TABLE_BITS = 6;

// The key table of a level, for a new document there; returns its serial.
function openKeyTable(w, depth) {
    while (w.keyTables.length <= depth) w.keyTables.push(new KeyTable(FIRST_KEY_TABLE_BITS));
    const table = w.keyTables[depth];
    if (table.serial === MAX_SERIAL) {
        table.stamps.fill(0);
        table.serial = 0;
    }
    table.count = 0;
    return ++table.serial;
}

// Whether the key at [start, stop) was seen before in the document of the
// table's serial; records it if not. The hash reads five of the key's bytes
// and its length, as decode's key cache does: a hash of every byte took a
// multiplication per byte for keys compared in full on a match anyway.
function isDuplicate(w, table, start, stop) {
    const src = w.src;
    const len = stop - start;
    const hash = len === 0 ? 0 : (len * 31 + src[start] * 7 + src[stop - 1] * 131 + src[len > 1 ? stop - 2 : start] * 1031 + src[start + (len >> 1)] * 17 + src[start + (len >> 2)] * 8191) | 0;
    const serial = table.serial;
    const stamps = table.stamps;
    let slot = Math.imul(hash, 0x9e3779b1) >>> table.shift;
    while (stamps[slot] === serial) {
        if (table.hashes[slot] === hash && sameKey(w.src, table.starts[slot], start, stop)) return true;
        slot = (slot + 1) & table.mask;
    }
    stamps[slot] = serial;
    table.hashes[slot] = hash;
    table.starts[slot] = start;
    if (++table.count > table.mask >> 1) growKeyTable(w, table);
    return false;
}

// twice the slots, the open document's keys placed again
function growKeyTable(w, table) {
    const old = { stamps: table.stamps, hashes: table.hashes, starts: table.starts };
    const serial = table.serial;
    const bits = 33 - table.shift;
    table.shift = 32 - bits;
    table.mask = (1 << bits) - 1;
    table.stamps = new Int32Array(1 << bits);
    table.hashes = new Int32Array(1 << bits);
    table.starts = new Int32Array(1 << bits);
    for (let i = 0; i < old.stamps.length; i++) {
        if (old.stamps[i] !== serial) continue;
        let slot = Math.imul(old.hashes[i], 0x9e3779b1) >>> table.shift;
        while (table.stamps[slot] === serial) slot = (slot + 1) & table.mask;
        table.stamps[slot] = serial;
        table.hashes[slot] = old.hashes[i];
        table.starts[slot] = old.starts[i];
    }
}

// whether the key at `other` (NUL-terminated) is src[start, stop)
function sameKey(src, other, start, stop) {
    const n = stop - start;
    for (let i = 0; i < n; i++) if (src[other + i] !== src[start + i]) return false;
    return src[other + n] === 0;
}

// Writes the document whose terminating NUL is at end, keys as stored. A key
// that may make the decoded object differ (see the header) sends the document
// to writeInObjectOrder, from its first byte of output.
function writeDocument(w, start, end, depth, validate, role) {
    if (depth > w.maxDepth) bad();
    const src = w.src;
    const outStart = w.pos;
    const checkKeys = !w.go;
    if (checkKeys) openKeyTable(w, depth);
    const table = checkKeys ? w.keyTables[depth] : null;
    w.ensure(1);
    w.out[w.pos++] = OPEN_BRACE;
    let pos = start + 4;
    while (pos < end) {
        const type = src[pos];
        const keyStart = pos + 1;
        let keyEnd = keyStart;
        let bits = 0;
        for (let b = src[keyEnd]; b !== 0; b = src[++keyEnd]) bits |= b;
        if (keyEnd === end) bad();
        if (checkKeys) {
            const first = src[keyStart];
            if ((first >= 0x30 && first <= 0x39 && isIndexKey(src, keyStart, keyEnd)) || (first === DOLLAR && isDBRefKey(src, keyStart, keyEnd)) ||
                (bits >= 0x80 && !validate && utf8Damaged(src, keyStart, keyEnd)) || isDuplicate(w, table, keyStart, keyEnd)) {
                w.pos = outStart;
                writeInObjectOrder(w, start, end, depth, validate, role);
                return;
            }
        }
        const valueValidate = role === ROLE_ROOT && w.validationKeys !== null ? rootValidation(w, keyStart, keyEnd) : validate;
        const comma = w.pos;
        if (comma !== outStart + 1) {
            w.ensure(1);
            w.out[w.pos++] = COMMA;
        }
        writeQuoted(w, keyStart, keyEnd, validate);
        w.ensure(1);
        w.out[w.pos++] = COLON;
        if (type === C.BSON_UNDEFINED && w.json) {
            // JSON.stringify leaves out a key whose value is undefined
            w.pos = comma;
            pos = keyEnd + 1;
        } else {
            pos = writeValue(w, type, keyEnd + 1, end, depth, valueValidate);
        }
    }
    w.ensure(1);
    w.out[w.pos++] = CLOSE_BRACE;
}

function utf8Damaged(src, start, stop) {
    for (let i = start; i < stop; ) {
        if (src[i] < 0x80) i++;
        else if ((i = utf8SequenceEnd(src, i, stop)) < 0) return true;
    }
    return false;
}

// validation.utf8 naming top-level keys: whether this key's value is checked
function rootValidation(w, keyStart, keyEnd) {
    const key = readUtf8(w.src, keyStart, keyEnd, false);
    return w.validationKeys.has(key) ? w.validateUtf8 : !w.validateUtf8;
}

function writeArray(w, start, end, depth, validate) {
    if (depth > w.maxDepth) bad();
    const src = w.src;
    w.ensure(1);
    w.out[w.pos++] = OPEN_BRACKET;
    const open = w.pos;
    let pos = start + 4;
    while (pos < end) {
        const type = src[pos];
        let keyEnd = pos + 1;
        while (src[keyEnd] !== 0) keyEnd++;
        if (keyEnd === end) bad();
        if (w.pos !== open) {
            w.ensure(1);
            w.out[w.pos++] = COMMA;
        }
        pos = writeValue(w, type, keyEnd + 1, end, depth, validate);
    }
    w.ensure(1);
    w.out[w.pos++] = CLOSE_BRACKET;
}

// The document as decode builds it, an object: its keys as strings set in an
// object of element numbers (the last value of a key at its first place,
// integer-like keys first), then a DBRef if it is one.
function writeInObjectOrder(w, start, end, depth, validate, role) {
    const src = w.src;
    const order = {};
    const types = [];
    const valueStarts = [];
    let dollarKeys = NO_DOLLAR_KEYS;
    for (let pos = start + 4; pos < end; ) {
        let keyEnd = pos + 1;
        while (src[keyEnd] !== 0) keyEnd++;
        if (keyEnd === end) bad();
        const key = stringAt(w, pos + 1, keyEnd, validate);
        if (src[pos + 1] === DOLLAR) dollarKeys = isDBRefKey(src, pos + 1, keyEnd) && dollarKeys !== OTHER_DOLLAR_KEYS ? ONLY_DBREF_KEYS : OTHER_DOLLAR_KEYS;
        setField(order, key, types.length);
        types.push(src[pos]);
        valueStarts.push(keyEnd + 1);
        pos = skipValue(w, src[pos], keyEnd + 1, end, depth, role === ROLE_ROOT && w.validationKeys !== null ? rootValidationOf(w, key) : validate);
    }
    const keys = Object.keys(order);
    const elements = { keys, order, types, valueStarts, end };
    if (dollarKeys === ONLY_DBREF_KEYS && role !== ROLE_SCOPE && isDBRefLike(w, elements)) {
        if (!w.json && isFalsyId(w, elements)) writeByObjects(w, start, end, validate);
        else writeDBRef(w, elements, depth, validate);
        return;
    }
    w.ensure(1);
    w.out[w.pos++] = OPEN_BRACE;
    let first = true;
    for (const key of keys) {
        const k = order[key];
        if (types[k] === C.BSON_UNDEFINED && w.json) continue;
        if (!first) w.put(COMMA_BYTES);
        first = false;
        writeMember(w, key, elements, k, depth, role === ROLE_ROOT && w.validationKeys !== null ? rootValidationOf(w, key) : validate);
    }
    w.put(CLOSE_BRACE_BYTES);
}

const COMMA_BYTES = B(',');
const CLOSE_BRACE_BYTES = B('}');
const NO_DOLLAR_KEYS = 0;
const ONLY_DBREF_KEYS = 1;
const OTHER_DOLLAR_KEYS = 2;

function rootValidationOf(w, key) {
    return w.validationKeys.has(key) ? w.validateUtf8 : !w.validateUtf8;
}

// "key": and element k's value
function writeMember(w, key, elements, k, depth, validate) {
    w.putQuoted(key);
    w.ensure(1);
    w.out[w.pos++] = COLON;
    writeValue(w, elements.types[k], elements.valueStarts[k], elements.end, depth, validate);
}

// Steps over a value, checking it as writing it would: it is written into the
// output, which the caller rewinds.
function skipValue(w, type, pos, end, depth, validate) {
    const mark = w.pos;
    const wide = w.wide;
    const next = writeValue(w, type, pos, end, depth, validate);
    w.pos = mark;
    w.wide = wide;
    return next;
}

// decode's test: $id set (not null or undefined), $ref a string, $db absent or a string
function isDBRefLike(w, elements) {
    const { order, types } = elements;
    const stringType = (t) => t === C.BSON_STRING || (t === C.BSON_SYMBOL && w.json);
    if (!('$ref' in order) || !stringType(types[order.$ref])) return false;
    if (!('$id' in order)) return false;
    const idType = types[order.$id];
    if (idType === C.BSON_NULL || (idType === C.BSON_UNDEFINED && w.json)) return false;
    return !('$db' in order) || stringType(types[order.$db]);
}

// Whether a DBRef's $id is false or '': Extended JSON then leaves its $id and
// fields as the objects they are (bson's rule), for JSON.stringify to write.
function isFalsyId(w, elements) {
    const k = elements.order.$id;
    const at = elements.valueStarts[k];
    const type = elements.types[k];
    return (type === C.BSON_BOOLEAN && w.src[at] === 0) || (type === C.BSON_STRING && readInt32LE(w.src, at) === 1);
}

// The document at start, decoded (every type kept) and given to EJSON.stringify:
// for the one shape whose text depends on its objects' own toJSON.
function writeByObjects(w, start, end, validate) {
    const { decode } = decodeFunctions();
    const { EJSON } = require('./ejson');
    const value = decode(w.src.subarray(start, end + 1), { ...LOSSLESS, validation: { utf8: validate }, maxDepth: w.maxDepth });
    const bytes = fromUtf8(EJSON.stringify(value, { relaxed: !w.canonical }));
    w.wide = true;
    w.put(bytes);
}

// A DBRef as its toJSON or its Extended JSON form has it. A collection of the
// form 'db.collection' (one dot) gives the database, as the DBRef class reads it.
function writeDBRef(w, elements, depth, validate) {
    const { keys, order, valueStarts } = elements;
    const stringOf = (k) => {
        const len = readInt32LE(w.src, valueStarts[k]);
        return stringAt(w, valueStarts[k] + 4, valueStarts[k] + 3 + len, validate);
    };
    let collection = stringOf(order.$ref);
    let db = '$db' in order ? stringOf(order.$db) : undefined;
    const parts = collection.split('.');
    if (parts.length === 2) {
        db = parts[0];
        collection = parts[1];
    }
    // the members in the order the object toJSON or toExtendedJSON returns has them
    const members = { $ref: -1, $id: order.$id };
    if (!w.json && db) members.$db = -2;
    for (const key of keys) {
        if (key.charCodeAt(0) === DOLLAR) continue;
        // toJSON copies the fields by assignment, which for __proto__ sets no key
        if (w.json) {
            if (key !== '__proto__') members[key] = order[key];
        } else {
            setField(members, key, order[key]);
        }
    }
    if (w.json && db != null) members.$db = -2;
    w.put(OPEN_BRACE_BYTES);
    let first = true;
    for (const key of Object.keys(members)) {
        const k = members[key];
        if (k >= 0 && elements.types[k] === C.BSON_UNDEFINED && w.json) continue;
        if (!first) w.put(COMMA_BYTES);
        first = false;
        if (k >= 0) {
            writeMember(w, key, elements, k, depth, validate);
        } else {
            w.putQuoted(key);
            w.put(COLON_BYTES);
            w.putQuoted(k === -1 ? collection : db);
        }
    }
    w.put(CLOSE_BRACE_BYTES);
}

const OPEN_BRACE_BYTES = B('{');
const COLON_BYTES = B(':');

// ---------------------------------------------------------------------------
// values

// Writes the value of the given type at pos (its document's NUL at end); returns the offset after it.
function writeValue(w, type, pos, end, depth, validate) {
    const src = w.src;
    switch (type) {
        case C.BSON_DOUBLE:
            if (end - pos < 8) bad();
            writeDouble(w, readDoubleLE(src, pos));
            return pos + 8;
        case C.BSON_STRING:
            return writeString(w, pos, end, validate);
        case C.BSON_DOCUMENT: {
            const size = documentSize(src, pos, end);
            writeDocument(w, pos, pos + size - 1, depth + 1, validate, ROLE_NESTED);
            return pos + size;
        }
        case C.BSON_ARRAY: {
            const size = documentSize(src, pos, end);
            writeArray(w, pos, pos + size - 1, depth + 1, validate);
            return pos + size;
        }
        case C.BSON_OBJECTID:
            if (end - pos < 12) bad();
            writeObjectId(w, pos);
            return pos + 12;
        case C.BSON_BOOLEAN:
            if (end - pos < 1 || src[pos] > 1) bad();
            w.put(src[pos] === 1 ? TEXT.true : TEXT.false);
            return pos + 1;
        case C.BSON_DATE:
            if (end - pos < 8) bad();
            writeDate(w, pos);
            return pos + 8;
        case C.BSON_NULL:
            w.put(TEXT.null);
            return pos;
        case C.BSON_INT32:
            if (end - pos < 4) bad();
            writeInt32(w, readInt32LE(src, pos));
            return pos + 4;
        case C.BSON_INT64:
            if (end - pos < 8) bad();
            writeInt64(w, pos);
            return pos + 8;
        default:
            return writeOtherValue(w, type, pos, end, depth, validate);
    }
}

function writeObjectId(w, pos) {
    w.ensure(VALUE_ROOM);
    const out = w.out;
    let p = w.pos;
    if (!w.json) p = T.writeBytes(out, p, TEXT.oid);
    else out[p++] = T.QUOTE;
    p = T.writeHex(out, p, w.src, pos, pos + 12);
    if (!w.json) p = T.writeBytes(out, p, TEXT.quoteClose);
    else out[p++] = T.QUOTE;
    w.pos = p;
}

function writeInt32(w, n) {
    w.ensure(VALUE_ROOM);
    if (!w.canonical) {
        w.pos = T.writeInteger(w.out, w.pos, n);
        return;
    }
    let p = T.writeBytes(w.out, w.pos, TEXT.numberInt);
    p = T.writeInteger(w.out, p, n);
    w.pos = T.writeBytes(w.out, p, TEXT.quoteClose);
}

// A double as JSON.stringify (json, relaxed), as EJSON's {$numberDouble}
// (canonical, and relaxed for what JSON has no number for), or in Go's form (bsondump).
function writeDouble(w, x) {
    w.ensure(VALUE_ROOM);
    const finite = x - x === 0;
    if (w.go) {
        const text = T.goDouble(x);
        if (w.canonical || !finite) writeWrapped(w, TEXT.numberDouble, text);
        else w.putAscii(text);
    } else if (finite && !w.canonical) {
        writePlainDouble(w, x);
    } else if (w.json) {
        w.put(TEXT.null);
    } else if (x === 0 && 1 / x < 0) {
        writeWrapped(w, TEXT.numberDouble, '-0.0');
    } else if (Number.isInteger(x) && x <= TWO_POW_53 && x >= -TWO_POW_53) {
        let p = T.writeBytes(w.out, w.pos, TEXT.numberDouble);
        p = T.writeInteger(w.out, p, x);
        p = T.writeAscii(w.out, p, '.0');
        w.pos = T.writeBytes(w.out, p, TEXT.quoteClose);
    } else {
        w.put(TEXT.numberDouble);
        if (Number.isInteger(x)) w.putAscii(x.toFixed(1));
        else writePlainDouble(w, x);
        w.put(TEXT.quoteClose);
    }
}

// a finite double as Number#toString writes it (room made)
function writePlainDouble(w, x) {
    if (Number.isInteger(x) && x <= TWO_POW_53 && x >= -TWO_POW_53) {
        w.pos = T.writeInteger(w.out, w.pos, x);
        return;
    }
    const end = writeDoubleText(w.out, w.pos, x);
    if (end >= 0) w.pos = end;
    else w.putAscii(String(x));
}

const TWO_POW_53 = 9007199254740992;

// {"$wrapper":"text"}; text is ASCII
function writeWrapped(w, open, text) {
    w.put(open);
    w.putAscii(text);
    w.put(TEXT.quoteClose);
}

// The int64 at pos: for json, decode's number, or its Long's fields; relaxed,
// the nearest double; otherwise its exact digits ({"$numberLong"} when canonical).
function writeInt64(w, pos) {
    w.ensure(VALUE_ROOM);
    const src = w.src;
    const low = readInt32LE(src, pos);
    const high = readInt32LE(src, pos + 4);
    const safe = high >= MIN_SAFE_HIGH && (high < MAX_SAFE_HIGH || (high === MAX_SAFE_HIGH && low === 0));
    if (w.json && !safe) {
        let p = T.writeBytes(w.out, w.pos, TEXT.longHigh);
        p = T.writeInteger(w.out, p, high);
        p = T.writeBytes(w.out, p, TEXT.longLow);
        p = T.writeInteger(w.out, p, low);
        w.pos = T.writeBytes(w.out, p, TEXT.longUnsigned);
    } else if (safe && (w.json || !w.canonical)) {
        w.pos = T.writeInteger(w.out, w.pos, high * TWO_POW_32 + (low >>> 0));
    } else if (!w.canonical && !w.go) {
        w.putAscii(String(high * TWO_POW_32 + (low >>> 0)));
    } else if (!w.canonical) {
        w.putAscii(exactInt64(src, pos, safe));
    } else {
        writeWrapped(w, TEXT.numberLong, exactInt64(src, pos, safe));
    }
}

function exactInt64(src, pos, safe) {
    return safe ? String(readInt64AsNumberLE(src, pos)) : readBigInt64LE(src, pos).toString();
}

// A datetime: for json, Date's toJSON (null out of its range); relaxed, an ISO
// string from 1970 to 9999 ({"$numberLong"} otherwise, NaN out of Date's range as
// EJSON has it); canonical, {"$numberLong"}. bsondump writes the exact int64
// and Go's ISO form.
function writeDate(w, pos) {
    w.ensure(VALUE_ROOM);
    const src = w.src;
    const ms = readInt64AsNumberLE(src, pos);
    const valid = ms <= MAX_DATE_MS && ms >= -MAX_DATE_MS;
    if (w.json) {
        if (!valid) {
            w.put(TEXT.null);
            return;
        }
        w.out[w.pos++] = T.QUOTE;
        w.pos = T.writeIsoDate(w.out, w.pos, ms, T.ISO_FULL);
        w.out[w.pos++] = T.QUOTE;
        return;
    }
    w.put(TEXT.date);
    if (!w.canonical && ms >= 0 && ms < YEAR_10000_MS) {
        w.out[w.pos++] = T.QUOTE;
        w.pos = T.writeIsoDate(w.out, w.pos, ms, w.go ? T.ISO_GO : T.ISO_EJSON);
        w.out[w.pos++] = T.QUOTE;
        w.out[w.pos++] = CLOSE_BRACE;
        return;
    }
    w.put(TEXT.numberLong);
    if (w.go) w.putAscii(exactInt64(src, pos, readInt32LE(src, pos + 4) >= MIN_SAFE_HIGH && readInt32LE(src, pos + 4) < MAX_SAFE_HIGH));
    else if (valid) w.pos = T.writeInteger(w.out, w.pos, ms);
    else w.putAscii('NaN');
    w.put(TEXT.quoteCloseTwice);
}

// The types stored data rarely holds, out of writeValue to keep it small.
function writeOtherValue(w, type, pos, end, depth, validate) {
    switch (type) {
        case C.BSON_BINARY:
            return writeBinary(w, pos, end);
        case C.BSON_UNDEFINED:
            // in an array (a document's undefined is left out before)
            w.put(w.json ? TEXT.null : TEXT.undefined);
            return pos;
        case C.BSON_REGEXP:
            return writeRegExp(w, pos, end, validate);
        case C.BSON_DBPOINTER:
            return writeDBPointer(w, pos, end, validate);
        case C.BSON_CODE:
            w.put(w.json ? TEXT.codeJSON : TEXT.code);
            pos = writeString(w, pos, end, validate);
            w.put(CLOSE_BRACE_BYTES);
            return pos;
        case C.BSON_SYMBOL:
            if (w.json) return writeString(w, pos, end, validate);
            w.put(TEXT.symbol);
            pos = writeString(w, pos, end, validate);
            w.put(CLOSE_BRACE_BYTES);
            return pos;
        case C.BSON_CODE_W_SCOPE:
            return writeCodeWithScope(w, pos, end, depth, validate);
        case C.BSON_TIMESTAMP:
            if (end - pos < 8) bad();
            writeTimestamp(w, readUint32LE(w.src, pos + 4), readUint32LE(w.src, pos));
            return pos + 8;
        case C.BSON_DECIMAL128: {
            if (end - pos < 16) bad();
            const { Decimal128 } = types();
            writeWrapped(w, TEXT.numberDecimal, new Decimal128(w.src.slice(pos, pos + 16)).toString());
            return pos + 16;
        }
        case C.BSON_MINKEY:
            w.put(w.json ? TEXT.emptyObject : TEXT.minKey);
            return pos;
        case C.BSON_MAXKEY:
            w.put(w.json ? TEXT.emptyObject : TEXT.maxKey);
            return pos;
        default:
            return bad();
    }
}

// int32 length, subtype, bytes (subtype 2 repeats the length inside, which is not data)
function writeBinary(w, pos, end) {
    const src = w.src;
    if (end - pos < 5) bad();
    const len = readInt32LE(src, pos);
    if (len < 0 || len > end - pos - 5) bad();
    const subtype = src[pos + 4];
    let start = pos + 5;
    if (subtype === C.BINARY_OLD) {
        if (len < 4 || readInt32LE(src, start) !== len - 4) bad();
        // bsondump's Go reader keeps the inner length of an empty one as data
        if (!w.go || len > 4) start += 4;
    }
    const stop = pos + 5 + len;
    w.ensure(2 * (stop - start) + VALUE_ROOM);
    const out = w.out;
    let p = w.pos;
    if (w.json && subtype === C.BINARY_UUID && stop - start === UUID_LENGTH) {
        // a UUID's toJSON: its hex digits in groups of 8-4-4-4-12
        out[p++] = T.QUOTE;
        for (let i = start; i < stop; i++) {
            const k = src[i] * 2;
            out[p++] = T.HEX_PAIRS[k];
            out[p++] = T.HEX_PAIRS[k + 1];
            const n = i - start;
            if (n === 3 || n === 5 || n === 7 || n === 9) out[p++] = 0x2d;
        }
        out[p++] = T.QUOTE;
    } else if (w.json) {
        out[p++] = T.QUOTE;
        p = T.writeBase64(out, p, src, start, stop);
        out[p++] = T.QUOTE;
    } else {
        p = T.writeBytes(out, p, TEXT.binary);
        p = T.writeBase64(out, p, src, start, stop);
        p = T.writeBytes(out, p, TEXT.subType);
        p = T.writeHex(out, p, src, pos + 4, pos + 5);
        p = T.writeBytes(out, p, TEXT.quoteCloseTwice);
    }
    w.pos = p;
    return stop;
}

// A regular expression: a RegExp for json, whose JSON is {}; a BSONRegExp
// (options sorted) for the other modes. Either one must accept it, as in decode.
function writeRegExp(w, pos, end, validate) {
    const src = w.src;
    let patternEnd = pos;
    while (patternEnd < end && src[patternEnd] !== 0) patternEnd++;
    if (patternEnd >= end) bad();
    let optionsEnd = patternEnd + 1;
    while (optionsEnd < end && src[optionsEnd] !== 0) optionsEnd++;
    if (optionsEnd >= end) bad();
    const pattern = stringAt(w, pos, patternEnd, validate);
    const options = stringAt(w, patternEnd + 1, optionsEnd, validate);
    let sorted;
    try {
        if (w.json) new RegExp(pattern, jsRegExpFlags(options));
        else sorted = new (types().BSONRegExp)(pattern, options).options;
    } catch {
        bad();
    }
    if (w.json) {
        w.put(TEXT.emptyObject);
    } else {
        w.put(TEXT.regularExpression);
        writeQuoted(w, pos, patternEnd, validate);
        w.put(TEXT.options);
        w.putQuoted(sorted);
        w.put(CLOSE_BRACE_TWICE_BYTES);
    }
    return optionsEnd + 1;
}

const CLOSE_BRACE_TWICE_BYTES = B('}}');

// A DBPointer: for json the DBRef decode makes of it, in its toJSON form; the
// deprecated type itself otherwise.
function writeDBPointer(w, pos, end, validate) {
    const len = stringLength(w.src, pos, end);
    const oid = pos + 4 + len;
    if (end - oid < 12) bad();
    if (w.json) {
        let collection = stringAt(w, pos + 4, oid - 1, validate);
        let db;
        const parts = collection.split('.');
        if (parts.length === 2) {
            db = parts[0];
            collection = parts[1];
        }
        w.put(TEXT.ref);
        w.putQuoted(collection);
        w.put(TEXT.id);
        writeObjectId(w, oid);
        if (db !== undefined) {
            w.put(TEXT.db);
            w.putQuoted(db);
        }
        w.put(CLOSE_BRACE_BYTES);
    } else {
        w.put(TEXT.dbPointer);
        writeQuoted(w, pos + 4, oid - 1, validate);
        w.put(TEXT.dbPointerId);
        w.ensure(VALUE_ROOM);
        w.pos = T.writeHex(w.out, w.pos, w.src, oid, oid + 12);
        w.put(TEXT.quoteCloseTwice);
        w.put(CLOSE_BRACE_BYTES);
    }
    return oid + 12;
}

// int32 total length, string, scope document: the total must equal its parts
function writeCodeWithScope(w, pos, end, depth, validate) {
    const src = w.src;
    if (end - pos < 4) bad();
    const total = readInt32LE(src, pos);
    if (total > end - pos) bad();
    const codeLength = stringLength(src, pos + 4, end);
    const scopeStart = pos + 8 + codeLength;
    const scopeSize = documentSize(src, scopeStart, end);
    if (scopeStart + scopeSize !== pos + total) bad();
    w.put(w.json ? TEXT.codeJSON : TEXT.code);
    writeString(w, pos + 4, end, validate);
    w.put(w.json ? TEXT.scopeJSON : TEXT.scope);
    writeDocument(w, scopeStart, scopeStart + scopeSize - 1, depth + 1, validate, ROLE_SCOPE);
    w.put(CLOSE_BRACE_BYTES);
    return pos + total;
}

// A timestamp: {"$timestamp":{"t":..,"i":..}}, or for json its toJSON, the
// unsigned 64-bit number t * 2^32 + i in decimal.
function writeTimestamp(w, t, i) {
    w.ensure(VALUE_ROOM);
    if (w.json) {
        w.put(TEXT.timestampJSON);
        if (t < MAX_SAFE_HIGH) w.pos = T.writeInteger(w.out, w.pos, t * TWO_POW_32 + i);
        else w.putAscii(((BigInt(t) << 32n) | BigInt(i)).toString());
        w.put(TEXT.quoteClose);
        return;
    }
    w.put(TEXT.timestamp);
    w.pos = T.writeInteger(w.out, w.pos, t);
    w.put(TEXT.timestampI);
    w.pos = T.writeInteger(w.out, w.pos, i);
    w.put(CLOSE_BRACE_TWICE_BYTES);
}

// ---------------------------------------------------------------------------
// the front door

const MODES = { json: MODE_JSON, relaxed: MODE_RELAXED, canonical: MODE_CANONICAL };
const MODE_CHOICES = listChoices(['relaxed', 'canonical', 'json']);
const MANY_CHOICES = ['array', 'lines'];
const OUTPUT_CHOICES = ['string', 'bytes'];


// A call takes this writer when it is free, keeping its output buffer and key
// stamps from one call to the next.
let idleWriter = null;

function takeWriter() {
    const w = idleWriter === null ? new BSONToJSON() : idleWriter;
    idleWriter = null;
    w.pos = 0;
    w.wide = false;
    return w;
}

function releaseWriter(w) {
    w.src = null;
    if (w.out.length > MAX_KEPT_OUTPUT_SIZE) w.out = allocUnsafeSlow(FIRST_OUTPUT_SIZE);
    if (w.units !== null && w.units.length > MAX_KEPT_OUTPUT_SIZE) w.units = null;
    idleWriter = w;
}

// decode's reading of maxDepth and validation when neither is given
const DEFAULT_DECODER = new Decoder(null, undefined);

// What a call was asked for. The options of most calls, a mode and nothing
// else, are read into one of these made once per mode.
class CallOptions {
    constructor(mode, many, bytes, maxDepth, validation, dec) {
        this.mode = mode;
        this.many = many;
        this.bytes = bytes;
        this.maxDepth = maxDepth;
        this.validation = validation;
        this.dec = dec;
    }

    // the options of the decode whose errors bsonToJSON gives
    decodeOptions() {
        const out = this.mode === MODE_JSON ? {} : { ...LOSSLESS };
        if (this.maxDepth !== undefined) out.maxDepth = this.maxDepth;
        if (this.validation !== undefined) out.validation = this.validation;
        return out;
    }
}
const PLAIN_OPTIONS = [MODE_JSON, MODE_RELAXED, MODE_CANONICAL].map((mode) => new CallOptions(mode, undefined, false, undefined, undefined, DEFAULT_DECODER));

const hasOwnProperty = Object.prototype.hasOwnProperty;

// value, read as opts[name], when opts has it as its own (an inherited option
// is no option). Options are read by name, as opts.mode and so on: a read by a
// computed name took a quarter of a small document's call.
function own(opts, name, value) {
    return value === undefined || hasOwnProperty.call(opts, name) ? value : undefined;
}

// The options read once: the mode, many, the output, and decode's maxDepth and
// validation (with decode's errors for bad values).
function readOptions(opts) {
    if (opts == null) return PLAIN_OPTIONS[MODE_RELAXED];
    checkOptionsObject(opts);
    const modeName = own(opts, 'mode', opts.mode);
    const mode = modeName === undefined ? MODE_RELAXED : typeof modeName === 'string' && hasOwnProperty.call(MODES, modeName) ? MODES[modeName] : -1;
    if (mode < 0) throw optionError('mode', MODE_CHOICES, modeName);
    const many = own(opts, 'many', opts.many);
    const output = own(opts, 'output', opts.output);
    const maxDepth = own(opts, 'maxDepth', opts.maxDepth);
    const validation = own(opts, 'validation', opts.validation);
    if (many === undefined && output === undefined && maxDepth === undefined && validation === undefined) return PLAIN_OPTIONS[mode];
    readChoice('many', many, MANY_CHOICES);
    readChoice('output', output, OUTPUT_CHOICES);
    const dec = maxDepth === undefined && validation === undefined ? DEFAULT_DECODER : new Decoder(null, { maxDepth, validation });
    return new CallOptions(mode, many, output === 'bytes', maxDepth, validation, dec);
}

function inputBytes(input) {
    if (input instanceof Uint8Array) return local(input);
    throw new BSONError(`bsonToJSON needs a Buffer or Uint8Array, or with many an array of them, not ${input === null ? 'null' : typeof input}`);
}

// The JSON text of one BSON document, or with `many` of documents back to back
// (or of an array of documents) as a JSON array or one a line.
function bsonToJSON(input, opts) {
    const o = readOptions(opts);
    const list = Array.isArray(input) ? input.map(inputBytes) : null;
    const buf = list === null ? inputBytes(input) : null;
    const w = takeWriter();
    try {
        w.setDecoder(o.mode, o.dec);
        if (list !== null) writeList(w, list, o.many !== 'lines');
        else if (o.many !== undefined) writeConcatenated(w, buf, o);
        else writeSingle(w, buf);
        return o.bytes ? w.bytes() : w.text();
    } catch (err) {
        throw decodeError(err, list, buf, o, w);
    } finally {
        releaseWriter(w);
    }
}

function writeRoot(w, buf, start, size) {
    w.src = buf;
    writeDocument(w, start, start + size - 1, 0, w.validateUtf8, ROLE_ROOT);
}

function writeSingle(w, buf) {
    const size = documentSize(buf, 0, buf.length);
    if (size !== buf.length) bad();
    writeRoot(w, buf, 0, size);
}

function writeConcatenated(w, buf, o) {
    const lines = o.many === 'lines';
    if (!lines) w.put(OPEN_BRACKET_BYTES);
    for (let pos = 0; pos < buf.length; ) {
        if (!lines && pos !== 0) w.put(COMMA_BYTES);
        const size = documentSize(buf, pos, buf.length);
        writeRoot(w, buf, pos, size);
        if (lines) w.put(NEWLINE_BYTES);
        pos += size;
    }
    if (!lines) w.put(CLOSE_BRACKET_BYTES);
}

function writeList(w, list, asArray) {
    const lines = !asArray;
    if (!lines) w.put(OPEN_BRACKET_BYTES);
    for (let i = 0; i < list.length; i++) {
        w.failedItem = i;
        if (!lines && i !== 0) w.put(COMMA_BYTES);
        writeSingle(w, list[i]);
        if (lines) w.put(NEWLINE_BYTES);
    }
    if (!lines) w.put(CLOSE_BRACKET_BYTES);
}

const OPEN_BRACKET_BYTES = B('[');
const CLOSE_BRACKET_BYTES = B(']');
const NEWLINE_BYTES = B('\n');

// What decode says of bytes the writer refused (or ran out of stack on): its own error.
function decodeError(err, list, buf, o, w) {
    if (err !== INVALID && !isStackOverflow(err)) return err;
    const { decode, decodeAll } = decodeFunctions();
    const decodeOptions = o.decodeOptions();
    try {
        if (list !== null) decode(list[w.failedItem], decodeOptions);
        else if (o.many !== undefined) decodeAll(buf, decodeOptions);
        else decode(buf, decodeOptions);
    } catch (decodeErr) {
        return decodeErr;
    }
    if (err !== INVALID) return new BSONError(`document nests too deeply for the call stack (maxDepth ${w.maxDepth})`, { code: 'ERR_BSON_TOO_DEEP' });
    return new BSONError('bsonToJSON refused bytes that decode takes', { code: 'ERR_BSON_RUNTIME' });
}

// ---------------------------------------------------------------------------
// bsondump's format, for qbson dump

// Documents one a line in bsondump's format (Go's writer): keys as stored,
// doubles and dates in Go's forms, U+2028 and U+2029 escaped, and with
// `lenient` each byte of malformed UTF-8 as \ufffd instead of a failure. The
// lines gather in one buffer, taken as bytes when the caller likes.
class BsondumpWriter {
    constructor(relaxed, lenient) {
        this.w = new BSONToJSON();
        this.w.setDecoder(relaxed ? MODE_RELAXED : MODE_CANONICAL, DEFAULT_DECODER);
        this.w.json = false;
        this.w.go = true;
        this.w.validateUtf8 = !lenient;
    }

    // bytes[start, start + size) (a whole document, its length checked) and a
    // newline. Throws where decode fails: `refused(err)` then says the error is to
    // be had from decode itself, and nothing of the document is kept.
    add(bytes, start, size) {
        const w = this.w;
        const mark = w.pos;
        try {
            w.src = bytes;
            writeDocument(w, start, start + size - 1, 0, w.validateUtf8, ROLE_ROOT);
            w.put(NEWLINE_BYTES);
        } catch (err) {
            w.pos = mark;
            throw err;
        } finally {
            w.src = null;
        }
    }

    get size() {
        return this.w.pos;
    }

    // the lines so far, as new bytes; the writer starts again
    take() {
        const bytes = this.w.bytes();
        this.w.pos = 0;
        return bytes;
    }

    // the lines so far as a string; the writer starts again
    takeText() {
        const text = this.w.text();
        this.w.pos = 0;
        this.w.wide = false;
        return text;
    }
}

// Whether a writer's failure means the bytes are not what decode takes (decode then says why).
function refused(err) {
    return err === INVALID || isStackOverflow(err);
}

module.exports = { bsonToJSON, BsondumpWriter, refused };
