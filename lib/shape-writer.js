'use strict';

// Writers generated for the shapes of objects the encoder keeps meeting (the
// same own keys in the same order): each writes every key as byte literals and
// each value by the type it had when the shape was learnt, without looking the
// key up or testing the value against every other type. An object whose keys
// differ in any way makes the writer return MISS before it writes anything, and
// the encoder (lib/encode.js) writes it as if no writer existed. A value of
// another type than the writer's is written by the encoder's own element writer
// at that place, so the bytes, the toBSON calls and the errors are its own.
//
// Shapes are learnt in a table keyed by the first key, or the second where the
// first is _id (every collection's documents begin with it: users and orders
// written in turn, 100 of each, shared its slot and recompiled their writers at
// every turn): once COMPILE_AFTER objects in a row had the same keys, a writer is
// compiled for them, with the types of the values of the last one, if they came
// among the last COMPILE_WITHIN objects the encoder wrote by shape at their level
// (documents themselves, or documents inside them). A writer that
// misses too often is dropped and its shape learnt again. The table holds at most
// SLOTS keys, and is emptied when full.
//
// Keys enter the generated source only as JSON.stringify literals and as numeric
// byte literals; nothing else from the input does.

const { writeCString } = require('./utf8');
const { allocUnsafe } = require('./platform');
const C = require('./constants');
const { compileFunction } = require('./shapes');

// the writer's answer for an object not of its shape
const MISS = -1;
const SLOTS = 256;
const COMPILE_AFTER = 8;
// Shapes rarer than 1 in 32 objects of their level get no writer: 200 maps of 20 keys of
// their own, encoded over and over, compiled 200 writers (150-250 ms at once, 1.2 ms per
// map) and then encoded at 2.2 ms per pass of the 200 against 1.4 ms without them. Roots
// count apart from the documents inside them: a cursor reply is 1 object in 10,002, and
// its writer, which holds its items' writer, took 5% fewer instructions per reply.
const COMPILE_WITHIN = 32 * COMPILE_AFTER;
// Objects with more keys are rarely repeated wholesale; they go straight to the
// encoder, as do those of one key (lib/encode.js, writeDocument).
const MAX_KEYS = 64;
// bounds of one compiled writer: fields over all its levels, levels, and the
// items of an array whose keys are compared when it is learnt
const MAX_FIELDS = 256;
const MAX_LEVELS = 8;
const SAMPLED_ITEMS = 16;
// a writer's score: +1 a hit up to MAX_SCORE, -MISS_COST a miss, dropped below 0
const START_SCORE = 16;
const MAX_SCORE = 64;
const MISS_COST = 8;
// keys up to this many bytes are written as byte literals, longer ones copied from an array
const LITERAL_KEY_BYTES = 24;

class Slot {
    constructor(keys, count) {
        // the keys of the last object seen, and how many in a row had them
        this.keys = keys;
        this.same = 1;
        // the objects written by shape at its level when this run of the same keys began
        this.since = count;
        this.writer = null;
        this.score = 0;
    }
}
const slots = new Map();
// the roots, and the documents inside them, the encoder has asked writeByShape for,
// modulo 2^30 (a small integer to V8)
let rootsWritten = 0;
let nestedWritten = 0;
const WRITTEN_MASK = 0x3fffffff;

// what generated code calls: set by lib/encode.js (init), which owns the values' forms
let helpers = null;

function init(h) {
    helpers = Object.freeze(Object.assign({ MISS }, h));
}

// Writes the fields of obj (whose own keys are `keys`) at pos with the writer of
// its shape if there is one; returns the pos after them, or MISS after learning
// from it. The caller passes objects of 2 to MAX_KEYS keys.
function writeByShape(enc, pos, obj, keys) {
    const count = enc.depth === 1 ? (rootsWritten = (rootsWritten + 1) & WRITTEN_MASK) : (nestedWritten = (nestedWritten + 1) & WRITTEN_MASK);
    const name = slotName(keys);
    const slot = slots.get(name);
    if (slot === undefined) {
        if (slots.size === SLOTS) slots.clear();
        slots.set(name, new Slot(keys, count));
        return MISS;
    }
    if (slot.writer !== null) {
        const end = slot.writer(enc, pos, obj, keys);
        if (end !== MISS) {
            if (slot.score < MAX_SCORE) slot.score++;
            return end;
        }
        slot.score -= MISS_COST;
        if (slot.score >= 0) return MISS;
        slot.writer = null;
    }
    learn(slot, obj, keys, count);
    return MISS;
}

function learn(slot, obj, keys, count) {
    if (sameKeys(slot.keys, keys)) slot.same++;
    else {
        slot.keys = keys;
        slot.same = 1;
        slot.since = count;
    }
    if (slot.same !== COMPILE_AFTER) return;
    if (((count - slot.since) & WRITTEN_MASK) > COMPILE_WITHIN) {
        // too rare to pay for its writer: count again from here
        slot.same = 1;
        slot.since = count;
    } else {
        slot.writer = writerFor(obj, keys);
        slot.score = START_SCORE;
    }
}

function sameKeys(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i]) return false;
    }
    return true;
}

// The writer of obj's shape, or null when one cannot be made (a key with a NUL,
// which the encoder refuses, or a host that compiles no code). Documents and
// arrays of documents in it get writers of their own, within `room` (fields left
// to compile over all levels) and MAX_LEVELS.
function writerFor(obj, keys, room = { fields: MAX_FIELDS }, level = 0) {
    room.fields -= keys.length;
    if (room.fields < 0) return null;
    const keyBytes = [];
    const subs = [];
    const guard = [`keys.length !== ${keys.length}`];
    const lines = [];
    for (let i = 0; i < keys.length; i++) {
        const name = JSON.stringify(keys[i]);
        const bytes = cStringBytes(keys[i]);
        if (bytes === null) return null;
        guard.push(`keys[${i}] !== ${name}`);
        let key = `buf.set(keyBytes[${keyBytes.length}], pos + 1);`;
        if (bytes.length <= LITERAL_KEY_BYTES) key = Array.from(bytes, (b, j) => `buf[pos + ${j + 1}] = ${b};`).join(' ');
        else keyBytes.push(bytes);
        const value = obj[keys[i]];
        let kind = kindOf(value);
        let sub = null;
        if (kind === KIND_DOCUMENT || kind === KIND_DOCUMENTS) {
            const sample = kind === KIND_DOCUMENT ? value : value[0];
            if (level + 1 < MAX_LEVELS) sub = writerFor(sample, Object.keys(sample), room, level + 1);
            if (sub === null) kind = KIND_OTHER;
            else subs.push(sub);
        }
        const at = `subs[${subs.length - 1}]`;
        lines.push(`v = obj[${name}];`, fieldSource(kind, name, key, 1 + bytes.length, 5 + 3 * keys[i].length, at));
    }
    const body = `if (${guard.join(' || ')}) return h.MISS;\nlet buf, v;\n${lines.join('\n')}\nreturn pos;`;
    const make = compileFunction('h, keyBytes, subs', `return function writeShape(enc, pos, obj, keys) {\n${body}\n};`);
    return make === null ? null : make(helpers, keyBytes, subs);
}

function cStringBytes(key) {
    const bytes = allocUnsafe(3 * key.length + 1);
    const end = writeCString(bytes, 0, key);
    return end < 0 ? null : bytes.subarray(0, end);
}

// the kinds of value a writer writes itself; any other goes to the encoder
const KIND_OTHER = 0;
const KIND_NUMBER = 1;
const KIND_STRING = 2;
const KIND_BOOLEAN = 3;
const KIND_NULL = 4;
const KIND_DATE = 5;
const KIND_STRINGS = 6;
const KIND_OBJECTID = 7;
const KIND_DOCUMENT = 8;
const KIND_DOCUMENTS = 9;

function kindOf(value) {
    switch (typeof value) {
        case 'number':
            return KIND_NUMBER;
        case 'string':
            return KIND_STRING;
        case 'boolean':
            return KIND_BOOLEAN;
        case 'object':
            if (value === null) return KIND_NULL;
            if (isDate(value)) return KIND_DATE;
            if (isObjectId(value)) return KIND_OBJECTID;
            if (isDocument(value)) return fieldCount(value) ? KIND_DOCUMENT : KIND_OTHER;
            if (!isArray(value) || value.length === 0) return KIND_OTHER;
            if (value.every((item) => typeof item === 'string')) return KIND_STRINGS;
            return sameDocuments(value) ? KIND_DOCUMENTS : KIND_OTHER;
        default:
            return KIND_OTHER;
    }
}

// whether doc has as many keys as a writer takes
function fieldCount(doc) {
    const count = Object.keys(doc).length;
    return count >= 2 && count <= MAX_KEYS;
}

// whether the first SAMPLED_ITEMS items of an array are documents with the same keys
function sameDocuments(items) {
    if (!isDocument(items[0]) || !fieldCount(items[0])) return false;
    const keys = Object.keys(items[0]);
    for (let i = 1; i < items.length && i < SAMPLED_ITEMS; i++) {
        if (!isDocument(items[i]) || !sameKeys(keys, Object.keys(items[i]))) return false;
    }
    return true;
}

// The source writing one field at pos: `key` writes the key's bytes after the
// type byte, `header` is the type byte and the key's bytes, and `room` the
// bytes the encoder's element writer makes room for before the value's own
// (so that growth, and a maxDocumentSize error, come where they come there).
// Each test is the one that writer makes before it writes that type, so what
// passes is written as it would write it; what does not goes to it.
function fieldSource(kind, name, key, header, room, sub) {
    const other = `pos = h.write(enc, pos, ${name}, v, false);`;
    // enc.ensure(pos, n) inline, and buf after it
    const fit = (n) => `if (pos + ${n} > enc.buf.length) enc.grow(pos, ${n}); buf = enc.buf;`;
    switch (kind) {
        case KIND_NUMBER:
            return `if (typeof v === "number") {
                if ((v | 0) === v && (v !== 0 || 1 / v > 0)) { ${fit(room + 4)} buf[pos] = 16; ${key} pos = h.i32(enc.view, pos + ${header}, v); }
                else { ${fit(room + 8)} buf[pos] = 1; ${key} pos = h.f64(enc.view, pos + ${header}, v); }
            } else ${other}`;
        case KIND_STRING:
            return `if (typeof v === "string") { ${fit(`${room + 5} + 3 * v.length`)}
                buf[pos] = 2; ${key} pos = h.str(enc, pos + ${header}, v); } else ${other}`;
        case KIND_BOOLEAN:
            return `if (typeof v === "boolean") { ${fit(room + 1)}
                buf[pos] = 8; ${key} buf[pos + ${header}] = v ? 1 : 0; pos += ${header + 1}; } else ${other}`;
        case KIND_NULL:
            return `if (v === null) { ${fit(room)} buf[pos] = 10; ${key} pos += ${header}; } else ${other}`;
        case KIND_DATE:
            return `if (h.isDate(v)) { ${fit(room + 8)}
                buf[pos] = 9; ${key} pos = h.date(buf, pos + ${header}, v.getTime()); } else ${other}`;
        case KIND_OBJECTID:
            return `if (h.isObjectId(v)) { ${fit(room + 12)} buf[pos] = 7; ${key} pos = v.writeTo(buf, pos + ${header}); } else ${other}`;
        case KIND_DOCUMENT:
            return `if (h.isDocument(v)) { ${fit(room)}
                buf[pos] = 3; ${key} pos = h.doc(enc, pos + ${header}, v, ${name}, ${sub}); } else ${other}`;
        case KIND_DOCUMENTS:
            return `if (h.isArray(v)) { ${fit(room)}
                buf[pos] = 4; ${key} pos = h.docs(enc, pos + ${header}, v, ${name}, ${sub}); } else ${other}`;
        case KIND_STRINGS:
            return `if (h.isStrings(v)) { ${fit(room)}
                buf[pos] = 4; ${key} pos = h.strs(enc, pos + ${header}, v, ${name}); } else ${other}`;
        default:
            return other;
    }
}

// The tests the encoder's element writer makes of a value, in its order, before
// it writes it as the type each names.

// a plain Date
function isDate(value) {
    return value instanceof Date && !Array.isArray(value) && value._bsontype == null && typeof value.toBSON !== 'function';
}

// an ObjectId of this major version, written by its writeTo
function isObjectId(value) {
    return typeof value === 'object' && value !== null && value._bsontype === 'ObjectId' && typeof value.toBSON !== 'function' &&
        value[C.BSON_VERSION_SYMBOL] === C.BSON_MAJOR_VERSION && typeof value.writeTo === 'function';
}

// an object of Object.prototype written as a document (one of another prototype goes the encoder's way)
function isDocument(value) {
    return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Array.isArray(value) &&
        value._bsontype == null && typeof value.toBSON !== 'function';
}

// a plain array
function isArray(value) {
    return Array.isArray(value) && value.constructor === Array && value._bsontype == null && typeof value.toBSON !== 'function';
}

// a plain array of strings only
function isStrings(value) {
    if (!isArray(value)) return false;
    for (let i = 0; i < value.length; i++) {
        if (typeof value[i] !== 'string') return false;
    }
    return true;
}

// the name of the slot of objects with these own keys
function slotName(keys) {
    return keys[0] === '_id' ? keys[1] : keys[0];
}

module.exports = { init, writeByShape, writerFor, isDate, isObjectId, isDocument, isArray, isStrings, MISS, SLOTS, COMPILE_AFTER, COMPILE_WITHIN, MAX_KEYS, slots, slotName };
