'use strict';

// What the code generated from a schema (lib/schema/generate.js, generate-writer.js)
// calls at run time, through H: the readers of values as decode gives them, the
// slow paths for what generated code does not read (a sub-document through decode
// and the interpreter, a wide document through a loop over a table), and FAIL, the
// answer of every fast path that cannot answer.

const { readInt32LE, readDoubleLE, readInt64AsNumberLE, copyToNewBuffer } = require('../bytes');
const { readUtf8 } = require('../utf8');
const { ObjectId } = require('../types/objectid');
const { setField } = require('../set-field');
const { standIn, canKeep, HEAP_NUMBER_STAND_IN } = require('../stand-in');
const { WideObject } = require('../wide-object');
const { decode } = require('../decode');
const { Decoder, checkRoot, decodeRoot, jsRegExpFlags, decodeNumberArray, newArray } = require('../decoder');
const { bsonTypeOf, stored, codePoints } = require('./values');
const { check, DEFAULT_CONTEXT } = require('./check');

const FAIL = Symbol('schema fast path failed');

// the type bytes the reader reads, by bsonType
const TYPE_BYTES = {
    double: 1, string: 2, object: 3, array: 4, binData: 5, undefined: 6, objectId: 7, bool: 8, date: 9, null: 10, regex: 11, javascript: 13, symbol: 14, javascriptWithScope: 15,
    int: 16, timestamp: 17, long: 18, decimal: 19, maxKey: 127, minKey: 255,
};
const READ_TYPES = Object.keys(TYPE_BYTES);
// the types H.wide reads, by their index in its masks
const WIDE_TYPES = ['double', 'string', 'object', 'array', 'binData', 'objectId', 'bool', 'date', 'null', 'int', 'long'];
const WIDE_TYPE_OF_BYTE = new Int8Array(256).fill(-1);
for (const [i, t] of WIDE_TYPES.entries()) WIDE_TYPE_OF_BYTE[TYPE_BYTES[t]] = i;


let Long = null;
let binaryTypes = null;
let rareTypes = null;
const rare = () => (rareTypes === null ? (rareTypes = require('../types')) : rareTypes);

// decode(bytes, opts) with opts read once, for the slow paths, which decode many small
// documents with the same options: reading them each time took 14% of decoding full_bson
// through its codec. When called from inside itself, it decodes with a Decoder of its own.
function presetDecode(opts) {
    let idle = new Decoder(null, opts);
    return (bytes) => {
        const dec = idle;
        if (dec === null) return decode(bytes, opts);
        idle = null;
        dec.buf = bytes;
        try {
            return decodeRoot(dec, 0, checkRoot(dec, 0, opts));
        } finally {
            dec.buf = null;
            idle = dec;
        }
    };
}

// decode with the options the slow paths read with, by maxDepth (one value per codec
// option), made on first use
const slowDecoders = new Map();
function slowDecoder(maxDepth) {
    let d = slowDecoders.get(maxDepth);
    if (d === undefined) {
        d = {
            typed: presetDecode({ promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true, preserveDeprecated: true, maxDepth }),
            value: presetDecode({ maxDepth }),
        };
        slowDecoders.set(maxDepth, d);
    }
    return d;
}

// helpers the generated code calls, through H
const H = {
    FAIL,
    i32: readInt32LE,
    f64: readDoubleLE,
    nums: decodeNumberArray,
    // an empty array from no allocation site (lib/decoder.js, generate.js's newArrayOf)
    arr: newArray,
    // what a generated constructor's kept object holds in place of a value (generate.js keepOne)
    standIn,
    // values' stand-ins, those at the indexes heap kept as HEAP_NUMBER_STAND_IN
    standIns: (values, heap) => values.map((v, k) => (heap.includes(k) ? HEAP_NUMBER_STAND_IN : standIn(v))),
    HEAP_NUMBER_STAND_IN,
    canKeep,
    utf8: readUtf8,
    cp: codePoints,
    set: setField,
    date: (buf, pos) => new Date(readInt64AsNumberLE(buf, pos)),
    // the rarer types, as decode gives them by default
    timestamp: (buf, pos) => new (rare().Timestamp)({ i: readInt32LE(buf, pos) >>> 0, t: readInt32LE(buf, pos + 4) >>> 0 }),
    decimal: (buf, pos) => new (rare().Decimal128)(copyToNewBuffer(buf, pos, pos + 16)),
    code: (str) => new (rare().Code)(str),
    minKey: () => new (rare().MinKey)(),
    undefinedValue: () => new (rare().BSONUndefined)(),
    // the Code with scope at pos (its total length checked by the caller against end) as
    // decode gives it, its scope read by decode; or FAIL
    codeWithScope(buf, pos, end, maxDepth) {
        const total = readInt32LE(buf, pos);
        if (end - pos < 8) return FAIL;
        const len = readInt32LE(buf, pos + 4);
        if (len < 1 || len > end - pos - 8 || buf[pos + 7 + len] !== 0) return FAIL;
        const code = readUtf8(buf, pos + 8, pos + 7 + len, true);
        const scopeStart = pos + 8 + len;
        if (code === undefined || end - scopeStart < 4) return FAIL;
        const size = readInt32LE(buf, scopeStart);
        if (size < 5 || size > end - scopeStart || buf[scopeStart + size - 1] !== 0 || scopeStart + size !== pos + total || maxDepth < 1) return FAIL;
        let scope;
        try {
            scope = slowDecoder(maxDepth).value(buf.subarray(scopeStart, scopeStart + size));
        } catch {
            return FAIL;
        }
        // a scope is never a DBRef; a document decoded alone can be
        if (typeof scope._bsontype === 'string') return FAIL;
        return new (rare().Code)(code, scope);
    },
    // the end of a regular expression's pattern and flags (both NUL-terminated before end), or -1
    regexEnd(buf, pos, end) {
        let p = pos;
        while (p < end && buf[p] !== 0) p++;
        if (p >= end) return -1;
        p++;
        while (p < end && buf[p] !== 0) p++;
        return p >= end ? -1 : p + 1;
    },
    // the RegExp decode gives by default (bson@7's flags: s as g, i and m kept), or FAIL
    regex(buf, pos, next) {
        let mid = pos;
        while (buf[mid] !== 0) mid++;
        const pattern = readUtf8(buf, pos, mid, true);
        const flags = readUtf8(buf, mid + 1, next - 1, true);
        if (pattern === undefined || flags === undefined) return FAIL;
        try {
            return new RegExp(pattern, jsRegExpFlags(flags));
        } catch {
            return FAIL;
        }
    },
    maxKey: () => new (rare().MaxKey)(),
    oid: (buf, pos) => ObjectId.fromBytes(buf, pos),
    long(buf, pos) {
        const high = readInt32LE(buf, pos + 4);
        // exactly representable: a number, as decode gives it
        if (high >= -0x200000 && (high < 0x200000 || (high === 0x200000 && readInt32LE(buf, pos) === 0))) return readInt64AsNumberLE(buf, pos);
        if (Long === null) Long = require('../types/long').Long;
        return Long.fromBits(readInt32LE(buf, pos), high, false);
    },
    // the binary value of len bytes after the length at pos, or FAIL
    bin(buf, pos, len) {
        const subtype = buf[pos + 4];
        let start = pos + 5;
        if (subtype === 2) {
            if (len < 4 || readInt32LE(buf, start) !== len - 4) return FAIL;
            start += 4;
            len -= 4;
        }
        if (binaryTypes === null) binaryTypes = require('../types/binary');
        if (subtype === 4 && len === 16) return binaryTypes.UUID.fromBytes(buf, start, start + len);
        return binaryTypes.Binary.fromBytes(buf, start, start + len, subtype);
    },
    // a value checked by the interpreter, typed as decode with promoteValues: false would type it
    check: (node, value, type) => check(node, value, type, '', null, DEFAULT_CONTEXT),
    long64: (v) => (typeof v === 'number' ? BigInt(v) : v),
    // a document or array the generated code does not read, taken from decode (a
    // document, or an array read as the document it is), and checked
    slow(node, buf, pos, len, isArray, maxDepth) {
        if (maxDepth < 1) return FAIL;
        const bytes = buf.subarray(pos, pos + len);
        const decoder = slowDecoder(maxDepth);
        let typed;
        let value;
        try {
            typed = decoder.typed(bytes);
            value = decoder.value(bytes);
        } catch {
            return FAIL;
        }
        if (isArray) {
            typed = asArray(typed);
            value = asArray(value);
            if (typed === null || value === null) return FAIL;
        } else if (typed === null || typeof typed !== 'object' || typeof typed._bsontype === 'string') {
            return FAIL;
        }
        return check(node, typed, isArray ? 'array' : 'object', '', null, DEFAULT_CONTEXT) ? value : FAIL;
    },
    // encode side: a value's type as encode writes it, the value as stored
    typeOf: (v) => bsonTypeOf(stored(v), DEFAULT_CONTEXT),
    checkValue(node, v) {
        const value = stored(v);
        const type = bsonTypeOf(value, DEFAULT_CONTEXT);
        return type !== null && check(node, value, type, '', null, DEFAULT_CONTEXT);
    },
    // the index of the key at pos (NUL-terminated before e) among keys (UTF-8 bytes), or -1
    keyIndex(keys, buf, pos, e) {
        let end = pos;
        while (buf[end] !== 0) end++;
        if (end === e) return -1;
        const len = end - pos;
        outer: for (let k = 0; k < keys.length; k++) {
            const key = keys[k];
            if (key.length !== len) continue;
            for (let j = 0; j < len; j++) if (key[j] !== buf[pos + j]) continue outer;
            return k;
        }
        return -1;
    },
    // A wide document (wideTable) read in the schema's order, or FAIL. A key that is
    // not the next property's is looked up (T.index), and the optional properties
    // between are skipped at once; the object is built from the properties present:
    // id_keyed_maps' documents, 20 keys each under a schema of 4,000 optional
    // properties, took 530,000 instructions each walking every property.
    wide(T, b, s, len, dv) {
        if (T.missingRequired) return FAIL;
        const e = s + len - 1;
        const present = [];
        const values = [];
        let p = s + 4;
        let i = 0;
        while (p < e) {
            let key = i < T.keys.length ? T.keys[i] : null;
            if (key === null || !H.keyAt(key, b, p + 1)) {
                const j = H.wideIndex(T, b, p + 1, e);
                // a key the schema does not name, met twice, or before the last one
                if (j < i || T.requiredBefore[j] !== T.requiredBefore[i]) return FAIL;
                i = j;
                key = T.keys[i];
            }
            const t = b[p];
            const kind = WIDE_TYPE_OF_BYTE[t];
            if (kind < 0 || (T.masks[i] & (1 << kind)) === 0) return FAIL;
            p += key.length + 2;
            const v = H.wideValue(T, i, t, b, p, e, dv);
            if (v === FAIL) return FAIL;
            present.push(i);
            values.push(v);
            p = H.wideNext;
            i++;
        }
        if (p !== e || T.requiredBefore[T.keys.length] !== T.requiredBefore[i]) return FAIL;
        const o = new H.Wide();
        for (let k = 0; k < present.length; k++) setField(o, T.names[present[k]], values[k]);
        return o;
    },
    // whether the key bytes at pos are key's, NUL-terminated
    keyAt(key, b, pos) {
        for (let j = 0; j < key.length; j++) if (b[pos + j] !== key[j]) return false;
        return b[pos + key.length] === 0;
    },
    // the index of the key at pos among T's properties, or -1
    wideIndex(T, b, pos, e) {
        let end = pos;
        while (end < e && b[end] !== 0) end++;
        if (end === e) return -1;
        const name = readUtf8(b, pos, end, true);
        const j = name === undefined ? undefined : T.index.get(name);
        return j === undefined ? -1 : j;
    },
    // the value of type t at p for property i of T, checked; its end in H.wideNext
    wideValue(T, i, t, b, p, e, dv) {
        let v;
        let l;
        switch (t) {
            case 1:
                if (e - p < 8) return FAIL;
                v = dv === null ? readDoubleLE(b, p) : dv.getFloat64(p, true);
                p += 8;
                break;
            case 2:
                if (e - p < 4) return FAIL;
                l = readInt32LE(b, p);
                if (l < 1 || l > e - p - 4 || b[p + 3 + l] !== 0) return FAIL;
                v = readUtf8(b, p + 4, p + 3 + l, true);
                if (v === undefined) return FAIL;
                p += 4 + l;
                break;
            case 3:
            case 4: {
                if (e - p < 4) return FAIL;
                l = readInt32LE(b, p);
                if (l < 5 || l > e - p || b[p + l - 1] !== 0) return FAIL;
                H.wideNext = p + l;
                // by the property's generated reader, as a generated document reads it (lib/schema/generate.js wideReaders)
                const reader = t === 3 ? T.objectReader[i] : T.arrayReader[i];
                v = reader < 0 ? FAIL : T.readers[reader](b, p, l, dv);
                return v !== FAIL ? v : H.slow(T.nodes[i], b, p, l, t === 4, T.maxDepth);
            }
            case 5:
                if (e - p < 5) return FAIL;
                l = readInt32LE(b, p);
                if (l < 0 || l > e - p - 5) return FAIL;
                v = H.bin(b, p, l);
                if (v === FAIL) return FAIL;
                p += 5 + l;
                break;
            case 7:
                if (e - p < 12) return FAIL;
                v = ObjectId.fromBytes(b, p);
                p += 12;
                break;
            case 8:
                if (e - p < 1 || b[p] > 1) return FAIL;
                v = b[p] === 1;
                p += 1;
                break;
            case 9:
                if (e - p < 8) return FAIL;
                v = H.date(b, p);
                p += 8;
                break;
            case 10:
                v = null;
                break;
            case 16:
                if (e - p < 4) return FAIL;
                v = readInt32LE(b, p);
                p += 4;
                break;
            case 18:
                if (e - p < 8) return FAIL;
                v = H.long(b, p);
                p += 8;
                break;
            default:
                return FAIL;
        }
        H.wideNext = p;
        if (T.checked[i]) {
            const type = WIDE_TYPES[WIDE_TYPE_OF_BYTE[t]];
            if (!check(T.nodes[i], type === 'long' ? H.long64(v) : v, type, '', null, DEFAULT_CONTEXT)) return FAIL;
        }
        return v;
    },
    wideNext: 0,
    // doubles are read through a DataView in documents this large, as decode reads them
    DATA_VIEW_MIN_SIZE: 2048,
    dataView: (b) => new DataView(b.buffer, b.byteOffset, b.length),
    // the object a wide document is built on (lib/wide-object.js)
    Wide: WideObject,
    OP: Object.prototype,
    proto: Object.getPrototypeOf,
    keys: Object.keys,
    isArray: Array.isArray,
};

// a decoded document whose keys are '0', '1', ... in order, as an array; else null
function asArray(doc) {
    if (doc === null || typeof doc !== 'object' || typeof doc._bsontype === 'string') return null;
    const keys = Object.keys(doc);
    const out = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== String(i)) return null;
        out[i] = doc[keys[i]];
    }
    return out;
}

module.exports = { H, FAIL, TYPE_BYTES, READ_TYPES, WIDE_TYPES, presetDecode };
