'use strict';

// The pieces of the mutation fuzzer (test/fuzz.test.js): a seeded random source,
// a generator of valid documents, a structure walker that finds every length
// field, type byte and terminator in valid BSON, the mutations, and the contract
// every decode outcome must meet.

const fs = require('fs');
const path = require('path');
const qbson = require('../..');

const CORPUS_DIR = path.join(__dirname, '..', 'data', 'bson-corpus');

// mulberry32: small, fast and good enough to pick mutations
function makeRandom(seed) {
    let a = seed >>> 0;
    const next = () => {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const rng = {
        next,
        int: (n) => Math.floor(next() * n),
        range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
        chance: (p) => next() < p,
        pick: (list) => list[Math.floor(next() * list.length)],
        bytes: (n) => {
            const b = Buffer.allocUnsafe(n);
            for (let i = 0; i < n; i++) b[i] = Math.floor(next() * 256);
            return b;
        },
    };
    return rng;
}

// The random source of input `index` under `seed`: any one input can be rebuilt alone.
function inputRandom(seed, index) {
    let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
    h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
    return makeRandom(h ^ (h >>> 16));
}

// ---------------------------------------------------------------------------
// valid documents to start from

function corpusDocuments() {
    const out = [];
    for (const file of fs.readdirSync(CORPUS_DIR).sort()) {
        if (!file.endsWith('.json')) continue;
        const suite = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'));
        for (const c of suite.valid || []) out.push(Buffer.from(c.canonical_bson, 'hex'));
    }
    return out;
}

// the corpus's decodeErrors: already invalid, tried as they are and mutated
function corpusDecodeErrors() {
    const out = [];
    for (const file of fs.readdirSync(CORPUS_DIR).sort()) {
        if (!file.endsWith('.json')) continue;
        const suite = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8'));
        for (const c of suite.decodeErrors || []) out.push(Buffer.from(c.bson, 'hex'));
    }
    return out;
}

const KEYS = ['a', 'b', '_id', 'x', '', '0', 'é', '日本', '__proto__', 'constructor', 'prototype', '$ref', '$id', '$db', 'toString', 'hasOwnProperty', '$where', '$x', 'a.b', '.'];
const REGEXP_PATTERNS = ['a+', '^x$', '', '(', '[', '\\', 'a{2,1}', '(?<n>x)\\k<n>', '\\p{L}', 'é+'];

function setOwn(obj, key, value) {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

function randomString(rng) {
    switch (rng.int(6)) {
        case 0:
            return '';
        case 1:
            return rng.pick(['abc', 'héllo', '日本語', '\u{1f600}', 'a\u0000b', '\ud800', '\udc00x', 'function () { return 1; }']);
        case 2:
            return 'x'.repeat(rng.range(60, 140));
        default: {
            let s = '';
            const n = rng.int(12);
            for (let i = 0; i < n; i++) s += String.fromCharCode(rng.chance(0.8) ? rng.range(0x20, 0x7e) : rng.range(0x80, 0x2fff));
            return s;
        }
    }
}

function randomDocument(rng, depth) {
    const doc = {};
    const n = rng.int(depth > 2 ? 3 : 6);
    for (let i = 0; i < n; i++) setOwn(doc, rng.chance(0.7) ? rng.pick(KEYS) : randomString(rng).replace(/\u0000/g, ''), randomValue(rng, depth + 1));
    return doc;
}

function vectorBinary(rng) {
    switch (rng.int(3)) {
        case 0:
            return new qbson.Binary(Buffer.concat([Buffer.from([0x03, 0]), rng.bytes(rng.int(6))]), 9);
        case 1:
            return new qbson.Binary(Buffer.concat([Buffer.from([0x27, 0]), rng.bytes(4 * rng.int(3))]), 9);
        default: {
            const n = rng.range(1, 3);
            const padding = rng.int(8);
            const bytes = rng.bytes(n);
            bytes[n - 1] &= 0xff << padding;
            return new qbson.Binary(Buffer.concat([Buffer.from([0x10, padding]), bytes]), 9);
        }
    }
}

function randomValue(rng, depth) {
    const nested = depth < 4;
    switch (rng.int(nested ? 30 : 25)) {
        case 0:
            return rng.range(-0x80000000, 0x7fffffff);
        case 1:
            return rng.pick([0.5, -0, NaN, Infinity, -Infinity, 1e300, 2 ** 31, -(2 ** 53)]);
        case 2:
        case 3:
            return randomString(rng);
        case 4:
            return rng.chance(0.5);
        case 5:
            return null;
        case 6:
            return new Date(rng.range(-1e12, 1e13));
        case 7:
            return new qbson.ObjectId(rng.bytes(12));
        case 8:
            return BigInt.asIntN(64, BigInt('0x' + rng.bytes(8).toString('hex')));
        case 9:
            return new qbson.Timestamp({ t: rng.range(0, 0xffffffff), i: rng.range(0, 0xffffffff) });
        case 10:
            return new qbson.Decimal128(rng.bytes(16));
        case 11:
            return new qbson.Binary(rng.bytes(rng.int(40)), rng.pick([0, 1, 2, 3, 5, 6, 7, 8, 0x80]));
        case 12:
            return new qbson.UUID(rng.bytes(16));
        case 13:
            return new qbson.BSONRegExp(rng.pick(REGEXP_PATTERNS), rng.pick(['', 'i', 'ms', 'ilmsux', 'x', 'u']));
        case 14:
            return new qbson.Code(randomString(rng));
        case 15:
            return new qbson.BSONSymbol(randomString(rng));
        case 16:
            return rng.chance(0.5) ? new qbson.MinKey() : new qbson.MaxKey();
        case 17:
            return new qbson.BSONUndefined();
        case 18:
            return new qbson.DBPointer(rng.pick(['db.c', 'c', '']), new qbson.ObjectId(rng.bytes(12)));
        case 19:
            return new qbson.Int32(rng.range(-5, 5));
        case 20:
            return new qbson.Double(rng.pick([1, -0, 2.5]));
        case 21:
            return vectorBinary(rng);
        case 22:
            return new RegExp(rng.pick(['a', 'b+', '^$']), rng.pick(['', 'g', 'im']));
        case 23:
            return qbson.Long.fromBits(rng.range(-0x80000000, 0x7fffffff), rng.range(-0x80000000, 0x7fffffff));
        case 24:
            return new qbson.Binary(rng.bytes(rng.int(8)), 2);
        case 25:
        case 26:
            return randomDocument(rng, depth);
        case 27: {
            const n = rng.int(5);
            const arr = [];
            for (let i = 0; i < n; i++) arr.push(randomValue(rng, depth + 1));
            return arr;
        }
        case 28:
            return new qbson.Code(randomString(rng), randomDocument(rng, depth));
        default: {
            const fields = rng.chance(0.5) ? {} : randomDocument(rng, depth + 1);
            return new qbson.DBRef(rng.pick(['c', 'db.c', 'a.b.c']), randomValue(rng, depth + 1) || 1, rng.pick([undefined, 'db']), fields);
        }
    }
}

// A value for encode to refuse or get right: randomValue's, or one of JavaScript's
// awkward values (no BSON type, NULs, lone surrogates, cycles, getters, Maps).
function hostileValue(rng, depth) {
    if (!rng.chance(0.3)) return depth < 3 && rng.chance(0.3) ? hostileDocument(rng, depth + 1) : randomValue(rng, depth + 1);
    switch (rng.int(16)) {
        case 0:
            return Symbol('s');
        case 1:
            return function f() {
                return 1;
            };
        case 2:
            return undefined;
        case 3:
            return rng.pick([2n ** 64n + 1n, -(2n ** 70n), NaN, -0, Infinity, 2 ** 31, -(2 ** 31) - 1]);
        case 4:
            return rng.pick(['a\u0000b', '\ud800', 'x\udc00y', '\udfff\ud800', 'z'.repeat(70) + '\ud83d', '\u0000'.repeat(3)]);
        case 5:
            return new Map([[rng.pick(['a', '$x', 'a.b', 'k\u0000']), hostileValue(rng, depth + 1)]]);
        case 6:
            return rng.pick([new Set([1]), new WeakMap(), new Int16Array([1, 2]), new Date(NaN), new Error('e'), new String('s')]);
        case 7:
            return Object.defineProperty({}, 'g', { get: () => 'got', enumerable: true });
        case 8: {
            const d = { a: 1 };
            d.self = rng.chance(0.5) ? d : [d];
            return d;
        }
        case 9:
            return { [rng.pick(['$set', 'a.b', 'k\u0000', '\ud800', '$ref', '__proto__'])]: 1 };
        case 10: {
            // the same answer on every call: calculateObjectSize and encode each ask
            const answer = rng.chance(0.5) ? { t: 1 } : 'str';
            return { toBSON: () => answer };
        }
        case 11:
            return new qbson.Code(rng.pick(['a\u0000', '\ud800']), { k: '\u0000' });
        case 12:
            return new RegExp(rng.pick(['a\u0000', '\ud800', 'x'.repeat(80)]), rng.pick(['', 'gimsuy']));
        case 13:
            return Object.assign(Object.create(null), { n: 1 });
        case 14:
            return new qbson.DBRef('c', hostileValue(rng, depth + 1), undefined, { ['$f']: 1 });
        default:
            return [hostileValue(rng, depth + 1), undefined, hostileValue(rng, depth + 1)];
    }
}

function hostileDocument(rng, depth) {
    const doc = {};
    const n = rng.int(5);
    for (let i = 0; i < n; i++) setOwn(doc, rng.pick(KEYS), hostileValue(rng, depth));
    return doc;
}

// Valid documents from the seeded generator, encoded by qbson.
function generatedDocuments(seed, count) {
    const rng = makeRandom(seed ^ 0x5eed);
    const out = [];
    for (let i = 0; i < count; i++) out.push(qbson.encode(randomDocument(rng, 0)));
    return out;
}

// A chain of `depth` documents (or arrays) nested under key 'a', as bytes: the
// encoder refuses to build these, so they are written here directly.
function nestedBytes(depth, array) {
    const type = array ? 0x04 : 0x03;
    const key = array ? 0x30 : 0x61;
    // each level: length, type, key, NUL, the level inside, terminator
    const buf = Buffer.alloc(5 + 8 * depth);
    for (let level = 0; level <= depth; level++) {
        const start = 7 * level;
        buf.writeInt32LE(5 + 8 * (depth - level), start);
        if (level < depth) {
            buf[start + 4] = type;
            buf[start + 5] = key;
        }
    }
    return buf;
}

// ---------------------------------------------------------------------------
// where the fields of a valid document lie

// Lists the length fields, type bytes and terminators of the document at pos, as
// {kind, at, value}. Tolerant: stops quietly where the bytes stop making sense.
function walk(buf, pos, out) {
    if (pos < 0 || pos + 5 > buf.length) return out;
    const size = buf.readInt32LE(pos);
    if (size < 5 || pos + size > buf.length) return out;
    const end = pos + size - 1;
    out.push({ kind: 'document length', at: pos, value: size });
    out.push({ kind: 'terminator', at: end });
    let p = pos + 4;
    while (p < end) {
        const elementStart = p;
        const type = buf[p];
        out.push({ kind: 'type', at: p });
        let k = p + 1;
        while (k < end && buf[k] !== 0) k++;
        if (k >= end) return out;
        out.push({ kind: 'terminator', at: k });
        p = k + 1;
        switch (type) {
            case 0x01:
            case 0x09:
            case 0x11:
            case 0x12:
                p += 8;
                break;
            case 0x02:
            case 0x0d:
            case 0x0e:
            case 0x0c: {
                if (p + 4 > end) return out;
                const len = buf.readInt32LE(p);
                out.push({ kind: 'string length', at: p, value: len });
                out.push({ kind: 'terminator', at: p + 3 + len });
                p += 4 + len + (type === 0x0c ? 12 : 0);
                break;
            }
            case 0x03:
            case 0x04: {
                if (p + 4 > end) return out;
                walk(buf, p, out);
                p += buf.readInt32LE(p);
                break;
            }
            case 0x05: {
                if (p + 5 > end) return out;
                const len = buf.readInt32LE(p);
                out.push({ kind: 'binary length', at: p, value: len });
                out.push({ kind: 'subtype', at: p + 4 });
                if (buf[p + 4] === 2 && p + 9 <= end) out.push({ kind: 'binary length', at: p + 5, value: buf.readInt32LE(p + 5) });
                p += 5 + len;
                break;
            }
            case 0x07:
                p += 12;
                break;
            case 0x08:
                out.push({ kind: 'boolean', at: p });
                p += 1;
                break;
            case 0x0b: {
                for (let n = 0; n < 2; n++) {
                    while (p < end && buf[p] !== 0) p++;
                    out.push({ kind: 'terminator', at: p });
                    p++;
                }
                break;
            }
            case 0x0f: {
                if (p + 8 > end || buf.readInt32LE(p + 4) < 0) return out;
                const total = buf.readInt32LE(p);
                const len = buf.readInt32LE(p + 4);
                out.push({ kind: 'code with scope length', at: p, value: total });
                out.push({ kind: 'string length', at: p + 4, value: len });
                walk(buf, p + 8 + len, out);
                p += total;
                break;
            }
            case 0x10:
                p += 4;
                break;
            case 0x13:
                p += 16;
                break;
            case 0x06:
            case 0x0a:
            case 0x7f:
            case 0xff:
                break;
            default:
                return out;
        }
        // a negative length would walk backwards
        if (p <= elementStart) return out;
    }
    return out;
}

// ---------------------------------------------------------------------------
// mutations

const TYPE_BYTES = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x20, 0x7f, 0x80, 0xfe, 0xff];
const INTERESTING_BYTES = [0x00, 0x01, 0x02, 0x7f, 0x80, 0xc0, 0xed, 0xf4, 0xff];

function lengthValue(rng, old, total) {
    switch (rng.int(14)) {
        case 0:
            return 0;
        case 1:
            return -1;
        case 2:
            return 0x7fffffff;
        case 3:
            return -0x80000000;
        case 4:
            return old - 1;
        case 5:
            return old + 1;
        case 6:
            return old - 4;
        case 7:
            return old + 4;
        case 8:
            return 1;
        case 9:
            return rng.range(2, 5);
        case 10:
            return total;
        case 11:
            return 0x40000000;
        case 12:
            return old * 2;
        default:
            return rng.range(-0x80000000, 0x7fffffff);
    }
}

// One mutation of bytes (a fresh Buffer); fields are the walker's findings for the original.
function mutateOnce(rng, bytes, fields) {
    const len = bytes.length;
    const at = len ? rng.int(len) : 0;
    const structured = fields.length !== 0 && rng.chance(0.6);
    if (structured) {
        const field = rng.pick(fields);
        if (field.at + 1 > len) return bytes;
        const out = Buffer.from(bytes);
        switch (field.kind) {
            case 'type':
                out[field.at] = rng.chance(0.8) ? rng.pick(TYPE_BYTES) : rng.int(256);
                return out;
            case 'terminator':
                if (rng.chance(0.5)) return Buffer.concat([bytes.subarray(0, field.at), bytes.subarray(field.at + 1)]);
                out[field.at] = rng.range(1, 255);
                return out;
            case 'boolean':
                out[field.at] = rng.range(2, 255);
                return out;
            case 'subtype':
                out[field.at] = rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x80, 0xff]);
                return out;
            default:
                if (field.at + 4 > len) return bytes;
                out.writeInt32LE(lengthValue(rng, field.value, len) | 0, field.at);
                return out;
        }
    }
    switch (rng.int(9)) {
        case 0: {
            const out = Buffer.from(bytes);
            if (len) out[at] ^= 1 << rng.int(8);
            return out;
        }
        case 1: {
            const out = Buffer.from(bytes);
            if (len) out[at] = rng.chance(0.5) ? rng.pick(INTERESTING_BYTES) : rng.int(256);
            return out;
        }
        case 2:
            return Buffer.concat([bytes.subarray(0, at), rng.bytes(rng.range(1, 8)), bytes.subarray(at)]);
        case 3:
            return Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(len, at + rng.range(1, 8)))]);
        case 4:
            return Buffer.from(bytes.subarray(0, rng.int(len + 1)));
        case 5:
            return Buffer.concat([bytes, rng.chance(0.5) ? Buffer.alloc(rng.range(1, 16)) : rng.bytes(rng.range(1, 16))]);
        case 6: {
            // repeat a slice somewhere else
            const from = rng.int(len + 1);
            const slice = bytes.subarray(from, Math.min(len, from + rng.range(1, 32)));
            return Buffer.concat([bytes.subarray(0, at), slice, bytes.subarray(at)]);
        }
        case 7: {
            // an int32 anywhere
            const out = Buffer.from(bytes);
            if (len >= 4) out.writeInt32LE(lengthValue(rng, out.readInt32LE(Math.min(at, len - 4)), len) | 0, Math.min(at, len - 4));
            return out;
        }
        default: {
            const out = Buffer.from(bytes);
            if (len) out[at] = rng.pick(TYPE_BYTES);
            return out;
        }
    }
}

// The input numbered `index`: one to three seed documents, one to four mutations,
// and often the outer length put right again so the damage is met inside.
function makeInput(rng, seeds, special) {
    let bytes;
    const roll = rng.next();
    if (roll < 0.02 && special.length) bytes = rng.pick(special);
    else if (roll < 0.85) bytes = rng.pick(seeds);
    else {
        const parts = [];
        const n = rng.range(2, 3);
        for (let i = 0; i < n; i++) parts.push(rng.pick(seeds));
        bytes = Buffer.concat(parts);
    }
    if (rng.chance(0.03)) return Buffer.from(bytes);
    const fields = walk(bytes, 0, []);
    const n = rng.range(1, 4);
    for (let i = 0; i < n; i++) bytes = mutateOnce(rng, bytes, i === 0 ? fields : walk(bytes, 0, []));
    if (bytes.length >= 5 && rng.chance(0.5)) {
        bytes = Buffer.from(bytes);
        const first = bytes.readInt32LE(0);
        if (first < 5 || first > bytes.length || rng.chance(0.3)) bytes.writeInt32LE(bytes.length, 0);
    }
    return bytes;
}

// ---------------------------------------------------------------------------
// the contract

class ContractViolation extends Error {}

// What a decode outcome must be: a value, or a BSONError with the byte offset.
function checkError(err, input, what) {
    if (!(err instanceof qbson.BSONError)) {
        throw new ContractViolation(`${what} threw ${err && err.constructor && err.constructor.name}, not a BSONError: ${err && err.stack}`);
    }
    if (typeof err.offset !== 'number' || !Number.isInteger(err.offset) || err.offset < 0 || err.offset > input.length) {
        throw new ContractViolation(`${what} threw a BSONError without an offset inside the input: ${err.message} (offset ${err.offset})`);
    }
    if (!err.message.includes(`offset ${err.offset}`)) {
        throw new ContractViolation(`${what} threw a BSONError whose message does not name offset ${err.offset}: ${err.message}`);
    }
}

const CLASSES = [
    qbson.ObjectId, qbson.Binary, qbson.Long, qbson.Timestamp, qbson.Int32, qbson.Double, qbson.Decimal128,
    qbson.BSONRegExp, qbson.BSONSymbol, qbson.MinKey, qbson.MaxKey, qbson.DBPointer, qbson.BSONUndefined, Date, RegExp, Buffer,
];

// A decoded value holds only plain objects, arrays, primitives and type instances; no functions.
function checkValue(value, what) {
    switch (typeof value) {
        case 'function':
            throw new ContractViolation(`${what} holds a function`);
        case 'object':
            break;
        default:
            return;
    }
    if (value === null) return;
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === Array.prototype) {
        for (const key of Object.keys(value)) checkValue(value[key], what);
        return;
    }
    if (value instanceof qbson.Code) {
        if (typeof value.code !== 'string') throw new ContractViolation(`${what} holds a Code whose code is not a string`);
        if (value.scope !== null) {
            if (Object.getPrototypeOf(value.scope) !== Object.prototype) throw new ContractViolation(`${what} holds a scope that is not a plain object`);
            checkValue(value.scope, what);
        }
        return;
    }
    if (value instanceof qbson.DBRef) {
        if (Object.getPrototypeOf(value.fields) !== Object.prototype) throw new ContractViolation(`${what} holds DBRef fields that are not a plain object`);
        checkValue(value.fields, what);
        checkValue(value.oid, what);
        return;
    }
    for (const cls of CLASSES) if (value instanceof cls) return;
    throw new ContractViolation(`${what} holds an object of an unexpected kind: ${proto && proto.constructor && proto.constructor.name}`);
}

// Object.prototype and Array.prototype as they were, property for property.
function prototypeSnapshot() {
    const snap = [];
    for (const proto of [Object.prototype, Array.prototype, Function.prototype]) {
        for (const key of Reflect.ownKeys(proto)) snap.push(String(key) + ':' + typeof Object.getOwnPropertyDescriptor(proto, key).value);
    }
    return snap.join(',');
}

module.exports = {
    makeRandom,
    inputRandom,
    corpusDocuments,
    corpusDecodeErrors,
    generatedDocuments,
    randomDocument,
    randomValue,
    hostileDocument,
    nestedBytes,
    walk,
    mutateOnce,
    makeInput,
    checkError,
    checkValue,
    prototypeSnapshot,
    ContractViolation,
    CORPUS_DIR,
};
