'use strict';

// Readers generated for the shapes that documents keep arriving in (same keys,
// types and order): each compares every key's bytes in place, reads each value
// by its expected type and builds the object with all its fields at once, with
// nested documents and arrays of documents read by readers of their own. A
// document that differs in a key, the order, a length or the end, or holds a
// value the decoder would refuse, makes the reader return MISS, and the decoder
// (lib/decoder.js) decodes that document from its start as if no reader existed,
// so values, errors and offsets are its own. A value of another type or shape
// than the reader's is read by the decoder in place (dec.shapeFallbacks counts
// them). A reader has no effect but allocation and never throws.
//
// Shapes are learnt in a table of SLOTS slots, each keyed by a fingerprint of
// the document's first element (type byte, first two key bytes), size class and root-ness.
// From the COMPILE_AFTER-th document of a fingerprint on (a document counts once
// more for every 4 kB it holds), each has its bytes walked to derive its shape,
// and a reader is compiled once CONFIRM in a row had the same one (or
// CONFIRM_COMMON in a row keys in one order, some left out by some: mergeShapes); a slot whose
// documents do not agree, or whose reader misses or falls back too often, is
// given up, and waits twice as long before it tries again. A document whose
// fingerprint is new only takes the slot.
//
// Keys enter the generated source only as JSON.stringify literals and as numeric
// byte literals; nothing else from the input does.

const C = require('./constants');
const { readUtf8 } = require('./utf8');
const { readInt32LE, readInt64AsNumberLE, readDoubleFrom } = require('./bytes');
const { compileFunction } = require('./shapes');
const { standIn, canKeep, HEAP_NUMBER_STAND_IN } = require('./stand-in');

// the element scanner, loaded with the first shape learnt (require('qbson') loads none of it)
let elementsModule = null;
function elements() {
    if (elementsModule === null) elementsModule = require('./elements');
    return elementsModule;
}

// the reader's answer for a document not of its shape
const MISS = Symbol('miss');

const SLOTS = 256;
const COMPILE_AFTER = 16;
// A compile costs the same for every document of a shape, so large ones earn it
// sooner: a 300 kB document had its reader from its 18th decode, and V8
// optimised that reader only after a further 20 or so (binary_heavy, +54%
// instructions per decode while it did).
const BYTES_PER_SIGHTING_SHIFT = 12;
// Documents in a row of one shape before it is compiled: a compile costs tens of
// microseconds, and a fingerprint shared by shapes (statuses with and without a
// retweet) compiled, missed and was dropped again and again
const CONFIRM = 4;
// documents in a row whose keys merge into one shape, not their types (mergeShapes)
const CONFIRM_COMMON = 6;
// recompiles of a reader for the documents it left values to the decoder in
const MAX_WIDEN = 3;
// A value left to the decoder costs about what reading a small document does:
// a document may leave one for every FALLBACK_BYTES of its size and still count as
// read (statuses of about 300 bytes whose number is an int32 in some, a double in others)
const FALLBACK_BYTES = 256;
// A reader that leaves a nested document to the decoder (its documents had nested
// parts of different shapes when it was compiled) looks at CONFIRM documents in a
// row after REFINE_AFTER hits; if they have one shape with fewer such parts, it is
// compiled for that shape. Each look doubles the wait, up to REFINE_AFTER <<
// MAX_REFINE_SHIFT. (mixed's root, {a: {...}} like object's and nested-object's,
// kept a reader of {a} alone in a process that had decoded all three, and decoded
// in 229 ns against 176 with a reader of its own.)
const REFINE_AFTER = 64;
const MAX_REFINE_SHIFT = 10;
// a reader's score: +1 a hit up to MAX_SCORE, -MISS_COST a miss, dropped below 0
const START_SCORE = 16;
const MAX_SCORE = 64;
const MISS_COST = 8;
const MAX_BACKOFF = 12;
// bounds of one compiled shape: fields over all its levels, levels, fields in one
// object (V8 keeps a constructor's objects fast up to about 250 fields), array
// elements whose shapes are compared when it is derived
const MAX_FIELDS = 512;
const MAX_LEVELS = 8;
const MAX_OBJECT_FIELDS = 128;
const SAMPLED_ELEMENTS = 16;
// Smaller documents are left to the decoder without a look at the table: they
// decode in under 40 ns, of which the look took 8 ({a: 1234.5}, 16 bytes). A root
// decoded without options is the exception (lib/decoder.js readSmallRoot).
const MIN_SHAPE_SIZE = 32;
// an array's items, when they are numbers (doubles and int32s, read by the decoder's number reader)
const ITEMS_NUMBERS = -1;
// a field's type where documents held values of different types (mergeShapes): any type, read by the decoder
const ANY_TYPE = -2;
// optional fields in one document of a shape: its reader marks those present in the bits of one int
const MAX_OPTIONAL = 30;
// a field's types whose values may be heap numbers: a constructor keeps null for them
// (lib/stand-in.js). An int32 field too: a double the decoder reads there in place
// (fallback) is one.
const MAY_BE_HEAP_NUMBER = [C.BSON_DOUBLE, C.BSON_INT32, C.BSON_INT64, C.BSON_NULL, ANY_TYPE];

class Slot {
    constructor() {
        this.take(-1, 0);
    }

    // the slot for documents of fingerprint fp, seen `count` times so far
    take(fp, count) {
        this.fp = fp;
        // sightings of fp; negative while backing off
        this.count = count;
        // documents whose shapes were derived since the slot was taken or dropped
        this.tries = 0;
        this.score = 0;
        this.backoff = 0;
        this.reader = null;
        // the shape of the last document derived, and how many in a row had it
        this.sig = '';
        this.same = 0;
        // what the documents derived in a row have in common (mergeShapes), and how many
        this.common = null;
        this.alike = 0;
        // the reader's shape, and how often it was widened (widen)
        this.shape = null;
        this.widened = 0;
        // the hits until a reader that leaves nested documents to the decoder looks for fewer (refine)
        this.refineAfter = REFINE_AFTER;
        this.refineIn = REFINE_AFTER;
    }
}
const slots = [];
for (let i = 0; i < SLOTS; i++) slots.push(new Slot());

// what generated code calls: set by lib/decoder.js (init), which owns the values' forms
let helpers = null;

function init(h) {
    helpers = Object.freeze(Object.assign({ MISS, any: readAnyValue, fall: readFallbackValue, i32: readInt32LE, i64n: readInt64AsNumberLE, dbl: readDoubleFrom, utf8: readUtf8, standIn, canKeep }, h));
}

// The first element's type byte and first two key bytes, the size class, and
// whether the document is the root: nested-object's root and its field a, both
// {a: {...}} of 32-63 bytes, took one slot without it, whose reader missed one of
// them in every decode and was dropped. (The depth itself cost api_statuses 3.6%
// more instructions: a tweet's user, at two depths, then took two readers.)
// Every collection's documents begin with _id: keyed by it, users and orders of one
// size class read in turn shared a slot that neither kept a reader in. Where the
// first key is _id, the element after it stands in for it (taking any element after
// the first cost small_docs_array 6% more instructions, 10 ns a look).
function fingerprint(buf, start, size, depth) {
    let p = start + 4;
    if (buf[p + 1] === 95 && buf[p + 2] === 105 && buf[p + 3] === 100 && buf[p + 4] === 0) p = afterId(buf, p, start + size - 1);
    return (buf[p] | (buf[p + 1] << 8) | (buf[p + 2] << 16) | ((31 - Math.clz32(size)) << 24) | (depth === 0 ? 0 : 1 << 29)) >>> 0;
}

// where the element after an _id at p begins, if it and two more bytes lie before end; else p
function afterId(buf, p, end) {
    const type = buf[p];
    const fixed = C.FIXED_VALUE_SIZE[type];
    const q = p + 5 + (fixed >= 0 ? fixed : type === C.BSON_STRING ? 4 + readInt32LE(buf, p + 5) : end);
    return q > p && q + 2 < end ? q : p;
}

// The document of `size` bytes at start (at nesting depth), read by the reader of
// its shape if there is one; else MISS, after learning from it. The caller
// checks size >= MIN_SHAPE_SIZE. Called for every such document, it does only
// the look at the table itself; reading and learning are out of line.
function readByShape(dec, start, size, depth) {
    const buf = dec.buf;
    const fp = fingerprint(buf, start, size, depth);
    const slot = slots[(fp ^ (fp >>> 9) ^ (fp >>> 17) ^ (fp >>> 24)) & (SLOTS - 1)];
    if (slot.fp === fp) {
        if (slot.reader !== null) return readWith(slot, dec, start, size, depth);
        slot.count += sightings(size);
        if (slot.count < COMPILE_AFTER) return MISS;
    }
    sighted(slot, fp, buf, start, size);
    return MISS;
}

function readWith(slot, dec, start, size, depth) {
    const buf = dec.buf;
    // decodeElements (lib/decoder.js) passes elements without their document's length word
    const outer = dec.shapeFallbacks;
    dec.shapeFallbacks = 0;
    const doc = readInt32LE(buf, start) === size ? slot.reader(dec, buf, start, start + size, depth) : MISS;
    const fallbacks = dec.shapeFallbacks;
    dec.shapeFallbacks = outer;
    // a document with values left to the decoder, or missed (it may hold a key the
    // reader's documents left out): the reader is compiled again for both, a few times
    // (unless a document nested in this one, of the same fingerprint, had the reader dropped)
    if ((fallbacks !== 0 || doc === MISS) && slot.widened < MAX_WIDEN && slot.shape !== null) widen(slot, buf, start, size);
    // a value the reader left to the decoder costs it a point, past one in FALLBACK_BYTES; a miss MISS_COST
    if (doc === MISS) slot.score -= MISS_COST;
    else if (fallbacks !== 0 && fallbacks * FALLBACK_BYTES > size) slot.score -= fallbacks < MISS_COST ? fallbacks : MISS_COST;
    else if (slot.score < MAX_SCORE) slot.score++;
    if (slot.score < 0) drop(slot, size);
    else if (slot.shape.open !== 0 && doc !== MISS && --slot.refineIn <= 0) refine(slot, buf, start, size);
    return doc;
}

// a document without a reader: it takes a slot of another fingerprint, or is learnt from
function sighted(slot, fp, buf, start, size) {
    if (slot.fp === fp) learn(slot, buf, start, size);
    // a reader in use keeps its slot until other fingerprints wear its score down
    else if (slot.reader === null || --slot.score < 0) slot.take(fp, sightings(size));
}

function sightings(size) {
    return 1 + (size >>> BYTES_PER_SIGHTING_SHIFT);
}


// The slot waits twice as many documents as last time (of this size) before it learns again.
// What the dropped reader took stays for the documents learnt next to add to: the
// fields that documents leave out one at a time come together over a few drops.
function drop(slot, size) {
    slot.common = slot.shape;
    slot.reader = null;
    slot.shape = null;
    slot.widened = 0;
    slot.sig = '';
    slot.same = 0;
    slot.alike = 0;
    slot.tries = 0;
    if (slot.backoff < MAX_BACKOFF) slot.backoff++;
    slot.count = COMPILE_AFTER - (COMPILE_AFTER << slot.backoff) * sightings(size);
}

function learn(slot, buf, start, size) {
    const shape = deriveShape(buf, start, size);
    slot.tries++;
    if (shape !== null && shape.sig === slot.sig) {
        if (++slot.same >= CONFIRM) return compile(slot, shape, size);
    } else if (shape !== null) {
        slot.sig = shape.sig;
        slot.same = 1;
    }
    // documents whose keys agree but whose types, nested documents or arrays do
    // not (tweets whose entities hold more or fewer hashtags) get a reader of what
    // they have in common: every tweet of a cursor batch was read by the decoder
    // before, its user and entities by readers of their own
    const common = shape === null ? null : slot.common === null ? shape : mergeShapes(slot.common, shape);
    slot.common = common === null ? shape : common;
    slot.alike = common === null ? 1 : slot.alike + 1;
    if (slot.alike >= CONFIRM_COMMON) return compile(slot, slot.common, size);
    if (shape !== null && slot.tries <= 2 * CONFIRM) return;
    // not a shape a reader can take, or not one shape: the slot waits as after a drop
    if (slot.reader === null) drop(slot, size);
}

function compile(slot, shape, size) {
    slot.reader = compileReader(shape);
    slot.shape = shape;
    slot.score = START_SCORE;
    slot.common = null;
    if (slot.reader === null) drop(slot, size);
}

// A document its reader read with values left to the decoder (a field whose type
// differs from the learnt one, nested parts of another shape): the reader is
// compiled again for what the two have in common, at most MAX_WIDEN times.
function widen(slot, buf, start, size) {
    slot.widened++;
    const shape = deriveShape(buf, start, size);
    const wider = shape === null ? null : mergeShapes(slot.shape, shape, true);
    if (wider === null || wider.sig === slot.shape.sig) return;
    const reader = compileReader(wider);
    if (reader === null) return;
    slot.reader = reader;
    slot.shape = wider;
}

// A document its reader read, CONFIRM in a row once refineIn hits fell to 0: when
// they have one shape that leaves fewer nested documents to the decoder than the
// reader's, the reader is compiled for it. Whatever the outcome, the next look waits twice as long.
function refine(slot, buf, start, size) {
    const shape = deriveShape(buf, start, size);
    if (shape !== null && shape.open < slot.shape.open) {
        if (slot.same === 0 || shape.sig === slot.sig) {
            slot.sig = shape.sig;
            if (++slot.same < CONFIRM) return;
            const reader = compileReader(shape);
            if (reader !== null) {
                slot.reader = reader;
                slot.shape = shape;
            }
        }
    }
    slot.sig = '';
    slot.same = 0;
    if (slot.refineAfter < REFINE_AFTER << MAX_REFINE_SHIFT) slot.refineAfter *= 2;
    slot.refineIn = slot.refineAfter;
}

// ---- deriving a shape from one document's bytes ----
//
// A shape is { fields: [{ key, type, doc, items }], sig }: doc, a nested
// document's shape (null: read it by the decoder); items, an array's: a shape
// (documents of one shape), a type byte (strings), ITEMS_NUMBERS, or null (read
// by the decoder).
// null for anything a reader does not take: keys that begin with '$' (a DBRef is
// recognised by them), a repeated key, '__proto__', invalid UTF-8, too many fields.

function deriveShape(buf, start, size) {
    return deriveDocument(buf, start, size, { fields: MAX_FIELDS }, MAX_LEVELS);
}

function deriveDocument(buf, start, size, budget, levels) {
    if (levels === 0 || size < 5 || start + size > buf.length || buf[start + size - 1] !== 0) return null;
    const end = start + size - 1;
    const fields = [];
    const seen = new Set();
    let p = start + 4;
    while (p < end) {
        const type = buf[p];
        let keyEnd = p + 1;
        while (buf[keyEnd] !== 0) keyEnd++;
        if (keyEnd >= end) return null;
        const key = readUtf8(buf, p + 1, keyEnd, true);
        if (key === undefined || key === '' || key[0] === '$' || key === '__proto__' || seen.has(key)) return null;
        if (fields.length === MAX_OBJECT_FIELDS || --budget.fields < 0) return null;
        seen.add(key);
        const bytes = [];
        for (let i = p + 1; i < keyEnd; i++) bytes.push(buf[i]);
        p = keyEnd + 1;
        const len = valueLength(buf, type, p, end);
        if (len < 0) return null;
        // (empty: an array without elements, whose items say nothing)
        const field = { key, bytes, type, doc: null, items: null, empty: type === C.BSON_ARRAY && len === 5, optional: false };
        if (type === C.BSON_DOCUMENT) field.doc = deriveDocument(buf, p, len, budget, levels - 1);
        else if (type === C.BSON_ARRAY) field.items = deriveItems(buf, p, len, budget, levels - 1);
        fields.push(field);
        p += len;
    }
    if (p !== end) return null;
    return shapeOf(fields);
}

// a shape of these fields, with its signature and the nested documents, at every
// level, that its reader leaves to the decoder
function shapeOf(fields) {
    let sig = '{';
    let open = 0;
    for (const f of fields) {
        if (f.type === C.BSON_DOCUMENT) open += f.doc === null ? 1 : f.doc.open;
        else if (f.items !== null && typeof f.items === 'object') open += f.items.open;
        sig += (f.optional ? '?' : '') + f.type + JSON.stringify(f.key) + (f.doc !== null ? f.doc.sig : '') + (f.items === null ? '' : typeof f.items === 'number' ? f.items : '[' + f.items.sig + ']') + ',';
    }
    return { fields, sig: sig + '}', open };
}

// What shapes a and b have in common, or null when their keys come in orders
// that differ. A key in one only is an optional field of the merged shape, in the
// place it has there (documents that leave out fields they have no value for:
// sparse_fields decodes in 37% fewer instructions than when only the same keys merged).
// A field that is null in one takes the other's type (a reader takes null for any
// type); one whose types differ otherwise takes ANY_TYPE (read by the decoder);
// nested documents and arrays' items are merged in turn, an empty array taking the
// other's items.
// (keepTypes, when a reader is widened: a typed field keeps its type, whose
// values of other types stay fallbacks: large's prices, a double in most items and
// an int32 in some, took 17% more instructions read as any type)
function mergeShapes(a, b, keepTypes = false) {
    if (a.sig === b.sig) return a;
    const af = a.fields, bf = b.fields;
    const steps = mergeKeyLists(af.map((f) => f.key), bf.map((g) => g.key));
    if (steps === null) return null;
    // documents of other keys (a step with one side only) share a reader only where their shared fields agree in type
    const strict = steps.length !== af.length || af.length !== bf.length;
    const fields = [];
    let optional = 0;
    for (const [i, j] of steps) {
        const field = i < 0 ? { ...bf[j], optional: true } : j < 0 ? { ...af[i], optional: true } : mergeField(af[i], bf[j], keepTypes, strict);
        if (field === null) return null;
        if (field.optional && ++optional > MAX_OPTIONAL) return null;
        fields.push(field);
    }
    return shapeOf(fields);
}

// How two lists of keys fit into one list that holds each in its own order, as
// steps [i, j]: i the key's index in a, j in b, -1 in the list without it; null
// where the two put shared keys in different orders. Two keys at one place, each
// in one list only, go a's first. Also the schema codecs' (lib/schema/key-orders.js).
function mergeKeyLists(a, b) {
    const steps = [];
    // (lists of at most MAX_OBJECT_FIELDS keys, merged while shapes are learnt: includes, not Sets)
    for (let i = 0, j = 0; i < a.length || j < b.length;) {
        if (i < a.length && j < b.length && a[i] === b[j]) steps.push([i++, j++]);
        else if (i < a.length && !b.includes(a[i])) steps.push([i++, -1]);
        else if (j < b.length && !a.includes(b[j])) steps.push([-1, j++]);
        // each holds the other's next key further on
        else return null;
    }
    return steps;
}

// the field two shapes have under one key; null, if strict, where their types differ
function mergeField(f, g, keepTypes, strict) {
    const optional = f.optional || g.optional;
    if (f.type === g.type) {
        const doc = f.doc !== null && g.doc !== null ? mergeShapes(f.doc, g.doc, keepTypes) : null;
        return { key: f.key, bytes: f.bytes, type: f.type, doc, items: mergeItems(f, g, keepTypes), empty: f.empty && g.empty, optional };
    }
    if ((f.type === C.BSON_NULL || g.type === C.BSON_NULL) && f.type !== ANY_TYPE && g.type !== ANY_TYPE) {
        return { ...(f.type === C.BSON_NULL ? g : f), optional };
    }
    if (strict) return null;
    if (keepTypes) return { ...f, optional };
    return { key: f.key, bytes: f.bytes, type: ANY_TYPE, doc: null, items: null, empty: false, optional };
}

// what two arrays' items have in common: one shape of document, strings, numbers, or null (the decoder's)
function mergeItems(f, g, keepTypes) {
    if (f.items === g.items || g.empty) return f.items;
    if (f.empty) return g.items;
    if (f.items !== null && g.items !== null && typeof f.items === 'object' && typeof g.items === 'object') return mergeShapes(f.items, g.items, keepTypes);
    return null;
}

// What an array's elements are: one shape of document (of what theirs have in
// common), strings, numbers (by its first), or null (the decoder reads it: anything
// mixed is its). Up to SAMPLED_ELEMENTS are compared; a later one that differs is
// left to the decoder.
function deriveItems(buf, start, size, budget, levels) {
    const end = start + size - 1;
    let p = start + 4;
    let items = null;
    for (let n = 0; p < end && n < SAMPLED_ELEMENTS; n++) {
        const type = buf[p];
        let keyEnd = p + 1;
        while (buf[keyEnd] !== 0) keyEnd++;
        if (keyEnd >= end) return null;
        p = keyEnd + 1;
        const len = valueLength(buf, type, p, end);
        if (len < 0) return null;
        if (n === 0 && (type === C.BSON_DOUBLE || type === C.BSON_INT32)) {
            return ITEMS_NUMBERS;
        } else if (type === C.BSON_STRING) {
            if (n > 0 && items !== C.BSON_STRING) return null;
            items = C.BSON_STRING;
        } else if (type === C.BSON_DOCUMENT && levels > 0) {
            const shape = deriveDocument(buf, p, len, { fields: budget.fields }, levels);
            if (shape === null || (n > 0 && (items === null || typeof items !== 'object'))) return null;
            // items of other shapes share one where mergeShapes finds it (each leaving out fields it has no value for)
            items = n === 0 ? shape : mergeShapes(items, shape);
            if (items === null) return null;
        } else {
            return null;
        }
        p += len;
    }
    if (items !== null && typeof items === 'object') budget.fields -= items.fields.length;
    return items;
}

// the length of the value of `type` at p in a document ending at end; -1 where it
// does not fit or is not a value (the element scanner's checks)
function valueLength(buf, type, p, end) {
    try {
        return elements().valueEnd(buf, type, p, end) - p;
    } catch {
        return -1;
    }
}

// ---- generating a reader ----
//
// Each document shape becomes a constructor that assigns its keys in order (as
// the decoder's field-by-field assignments do) and a function
// r(dec, buf, p, limit, depth) -> the object, or MISS; p is the document's length
// word, limit the end of what holds it.

function compileReader(shape) {
    const source = readerSource(shape);
    const make = compileFunction('h', source);
    return make === null ? null : make(helpers);
}

function readerSource(shape) {
    const out = ["'use strict';", 'const { MISS, i32, i64n, dbl, utf8, oid, i64, bin, nums, any, fall, newArray, standIn, canKeep } = h;', 'const kept = [];'];
    const root = emitDocument(shape, out, { next: 0, emitted: new Map() });
    out.push(`return r${root};`);
    return out.join('\n');
}

// A large shape met again in the same reader (a retweet's user, like the status's) is
// read by the function already written for it: api_statuses' status reader was 123 kB
// of source with a second copy of each, and is 78 kB without. Small ones are written
// again: shared, catalog_by_id's took 6% more instructions per decode.
const MIN_SHARED_SOURCE = 4096;

function emitDocument(shape, out, names) {
    const key = shape.sig + emptyArrays(shape);
    const known = names.emitted.get(key);
    if (known !== undefined && known.size >= MIN_SHARED_SOURCE) return known.id;
    const first = out.length;
    const id = writeDocument(shape, out, names);
    if (known === undefined) {
        let size = 0;
        for (let i = first; i < out.length; i++) size += out[i].length;
        names.emitted.set(key, { id, size });
    }
    return id;
}

// which arrays of the shape were empty in every document learnt: what its reader
// does with them (emptyArrayValue), and its signature does not say
function emptyArrays(shape) {
    let marks = '';
    for (const f of shape.fields) {
        if (f.empty) marks += '!';
        if (f.doc !== null) marks += '(' + emptyArrays(f.doc) + ')';
        else if (f.items !== null && typeof f.items === 'object') marks += '[' + emptyArrays(f.items) + ']';
        marks += ',';
    }
    return marks;
}

function writeDocument(shape, out, names) {
    const id = names.next++;
    const fields = shape.fields;
    const code = [];
    const args = [];
    // the optional fields present, a bit each in m
    let optional = 0;
    const bits = fields.map((f) => (f.optional ? 1 << optional++ : 0));
    for (let i = 0; i < fields.length; i++) {
        const f = fields[i];
        const at = `p - ${f.bytes.length + 2}`;
        if (f.optional) code.push(`let v${i} = null;`, `if (!(${keyTest(f)})) {`, `m |= ${bits[i]};`);
        else code.push(`if (${keyTest(f)}) return MISS;`);
        code.push(`t = buf[p];`, `p += ${f.bytes.length + 2};`, 'if (p > end) return MISS;');
        if (!f.optional) code.push(`let v${i} = null;`);
        if (f.type === C.BSON_NULL || f.type === ANY_TYPE) {
            // null in every document the shape was learnt from, or types that differ: any
            // type here, a null taken in place (the decoder's way took catalog_by_id's
            // performances, 4 null fields each, 30% of their time)
            code.push(`if (t !== ${C.BSON_NULL}) {`, ...anyValue(at, `v${i}`, 'end', 'depth'), '}');
        } else {
            // null is the shape's too (a missing reference, no tag); another type is read
            // by the decoder (a price that is an int32 in some documents, a double in others)
            code.push(`if (t === ${f.type}) {`, ...emitValue(f, `v${i}`, out, names), `} else if (t !== ${C.BSON_NULL}) {`, ...fallback(at, `v${i}`, 'end', 'depth'), '}');
        }
        if (f.optional) code.push('}');
        args.push(`v${i}`);
    }
    if (optional !== 0) args.unshift('m');
    const ctor = fields.map((f, i) => (f.optional ? `if (m & ${bits[i]}) ` : '') + `this[${JSON.stringify(f.key)}] = v${i};`).join(' ');
    // an object kept from stand-ins for each set of optional fields built (lib/stand-in.js
    // says why): K has bit m (of 32) once one is kept, or 1 where there are none (lib/stand-in.js)
    const bit = optional === 0 ? '1' : '(1 << m)';
    // (the constructor only tests and calls k: with the keeping written out in it, V8 stopped
    // inlining it into the readers, and deepkit_cursor took 5-7% more instructions)
    const standIns = (optional === 0 ? [] : ['m']).concat(fields.map((f, i) => (MAY_BE_HEAP_NUMBER.includes(f.type) ? String(HEAP_NUMBER_STAND_IN) : `standIn(v${i})`))).join(', ');
    const keep = `function k${id}(${args.join(', ')}) { K${id} |= ${bit}; if (canKeep()) kept.push(new C${id}(${standIns})); }`;
    out.push(`let K${id} = 0;`, keep, `function C${id}(${args.join(', ')}) { ${ctor} if ((K${id} & ${bit}) === 0) k${id}(${args.join(', ')}); }`, `C${id}.prototype = Object.prototype;`);
    out.push(`function r${id}(dec, buf, p, limit, depth) {`,
        'if (depth > dec.maxDepth || limit - p < 5) return MISS;',
        'const end = p + i32(buf, p) - 1;',
        'if (end < p + 4 || end >= limit || buf[end] !== 0) return MISS;',
        'const view = dec.view;',
        'let len = 0;',
        'let t = 0;',
        ...(optional === 0 ? [] : ['let m = 0;']),
        'p += 4;',
        ...code,
        'if (p !== end) return MISS;',
        `return new C${id}(${args.join(', ')});`,
        '}');
    return id;
}

// not the end of the document, and the key's bytes and its NUL, compared in place;
// a key byte that meets the document's NUL differs from it, so the compare stops there
function keyTest(f) {
    const bytes = f.bytes;
    const tests = ['buf[p] === 0'];
    for (let i = 0; i < bytes.length; i++) tests.push(`buf[p + ${i + 1}] !== ${bytes[i]}`);
    tests.push(`buf[p + ${bytes.length + 1}] !== 0`);
    return tests.join(' || ');
}

// The value of type t at p, of the element at `at` that ends by `end`, read by
// the decoder: where the shape has no reader for it, or as a fallback. One call
// rather than its code written out at every field: with that and the shapes
// written once (emitDocument), the readers compiled in api_statuses' first decode
// went from 199 kB of source to 132 kB, all parsed and first run unoptimized there.
function anyValue(at, name, end, depth) {
    return [`${name} = any(dec, t, ${at}, p, ${end}, ${depth});`, `if (${name} === MISS) return MISS;`, 'p = dec.nextPos;'];
}

// the same for a value its reader did not take, counted against the slot's score
function fallback(at, name, end, depth) {
    return [`${name} = fall(dec, t, ${at}, p, ${end}, ${depth});`, `if (${name} === MISS) return MISS;`, 'p = dec.nextPos;'];
}

// What anyValue and fallback call: the value of type `type` at p (its element at `at`)
// read by the decoder, or MISS; dec.nextPos is then where it ends.
function readAnyValue(dec, type, at, p, end, depth) {
    const len = p > end ? -1 : valueLength(dec.buf, type, p, end);
    if (len < 0) return MISS;
    const value = helpers.value(dec, at, p + len, depth);
    dec.nextPos = p + len;
    return value;
}

function readFallbackValue(dec, type, at, p, end, depth) {
    dec.shapeFallbacks++;
    return readAnyValue(dec, type, at, p, end, depth);
}

// Code reading field f's value at p into `name` and moving p past it.
function emitValue(f, name, out, names) {
    const at = `p - ${f.bytes.length + 2}`;
    switch (f.type) {
        case C.BSON_DOUBLE:
            return [`if (end - p < 8) return MISS;`, `${name} = dbl(buf, view, p);`, 'p += 8;'];
        case C.BSON_STRING:
            return stringValue(name, 'end');
        case C.BSON_OBJECTID:
            return [`if (end - p < 12) return MISS;`, `${name} = oid(buf, p);`, 'p += 12;'];
        case C.BSON_BOOLEAN:
            return [`if (end - p < 1 || buf[p] > 1) return MISS;`, `${name} = buf[p] === 1;`, 'p += 1;'];
        case C.BSON_DATE:
            return [`if (end - p < 8) return MISS;`, `${name} = new Date(i64n(buf, p));`, 'p += 8;'];
        case C.BSON_INT32:
            return [`if (end - p < 4) return MISS;`, `${name} = i32(buf, p);`, 'p += 4;'];
        case C.BSON_INT64:
            return [`if (end - p < 8) return MISS;`, `${name} = i64(dec, buf, p);`, 'p += 8;'];
        case C.BSON_BINARY:
            // subtype 2 (the old binary, with a length inside) is left to the decoder
            return [`if (end - p < 5) return MISS;`, 'len = i32(buf, p);', `if (len < 0 || len > end - p - 5 || buf[p + 4] === ${C.BINARY_OLD}) return MISS;`,
                `${name} = bin(dec, p, end);`, 'p += 5 + len;'];
        case C.BSON_DOCUMENT:
            if (f.doc !== null) {
                const sub = emitDocument(f.doc, out, names);
                return [`${name} = r${sub}(dec, buf, p, end, depth + 1);`, `if (${name} === MISS) {`, ...fallback(at, name, 'end', 'depth'), '} else p += i32(buf, p);'];
            }
            break;
        case C.BSON_ARRAY:
            if (f.items === ITEMS_NUMBERS) return numbersValue(at, name);
            if (f.items !== null) return arrayValue(f.items, name, out, names);
            if (f.empty) return emptyArrayValue(at, name);
            break;
        default:
    }
    return anyValue(at, name, 'end', 'depth');
}

// a string value, checked as the decoder checks it, ending before `end`
function stringValue(name, end) {
    return [`if (${end} - p < 4) return MISS;`,
        'len = i32(buf, p);',
        `if (len < 1 || len > ${end} - p - 4 || buf[p + 3 + len] !== 0) return MISS;`,
        `${name} = utf8(buf, p + 4, p + 3 + len, true);`,
        `if (${name} === undefined) return MISS;`,
        'p += 4 + len;'];
}

// an array of numbers, by the decoder's reader of them; one holding anything else by the decoder
function numbersValue(at, name) {
    return [`if (end - p < 5 || depth >= dec.maxDepth) return MISS;`,
        'len = i32(buf, p);',
        'if (len < 5 || len > end - p || buf[p + len - 1] !== 0) return MISS;',
        `${name} = nums(buf, view, p + 4, p + len - 1);`,
        `if (${name} === null) {`, ...fallback(at, name, 'end', 'depth'), '} else p += len;'];
}

// an array empty in every document learnt from, taken in place; one with elements by the decoder
function emptyArrayValue(at, name) {
    return ['if (end - p >= 5 && i32(buf, p) === 5 && buf[p + 4] === 0 && depth < dec.maxDepth) {',
        `${name} = newArray();`, 'p += 5;', '} else {', ...fallback(at, name, 'end', 'depth'), '}'];
}

// An array whose elements are strings or documents of one shape: a loop over
// them that steps over each index key (the decoder does not read an array's keys
// either); an element of another type or shape is read by the decoder.
function arrayValue(items, name, out, names) {
    const type = typeof items === 'number' ? items : C.BSON_DOCUMENT;
    const code = [`if (end - p < 5 || depth >= dec.maxDepth) return MISS;`,
        `${name} = newArray();`,
        '{',
        'const arrayEnd = p + i32(buf, p) - 1;',
        'if (arrayEnd < p + 4 || arrayEnd >= end || buf[arrayEnd] !== 0) return MISS;',
        'p += 4;',
        'while (p < arrayEnd) {',
        'const at = p;',
        't = buf[p];',
        'p++;',
        'while (buf[p] !== 0) p++;',
        'if (p === arrayEnd) return MISS;',
        'p++;',
        'let item;',
        `if (t === ${type}) {`];
    if (typeof items === 'number') {
        code.push(...stringValue('item', 'arrayEnd'));
    } else {
        const sub = emitDocument(items, out, names);
        code.push(`item = r${sub}(dec, buf, p, arrayEnd, depth + 2);`, 'if (item === MISS) {', ...fallback('at', 'item', 'arrayEnd', 'depth + 1'), '} else p += i32(buf, p);');
    }
    code.push('} else {', ...fallback('at', 'item', 'arrayEnd', 'depth + 1'), '}', `${name}.push(item);`, '}', 'p++;', '}');
    return code;
}

// For tests (test/support/shape-readers.js): the slot of the document of `size`
// bytes at start, at depth, if it is that document's fingerprint's; else null
function slotOf(buf, start, size, depth) {
    const fp = fingerprint(buf, start, size, depth);
    const slot = slots[(fp ^ (fp >>> 9) ^ (fp >>> 17) ^ (fp >>> 24)) & (SLOTS - 1)];
    return slot.fp === fp ? slot : null;
}

module.exports = { init, readByShape, MISS, MIN_SHAPE_SIZE, COMPILE_AFTER, MISS_COST, SLOTS, slots, slotOf, deriveShape, mergeShapes, mergeKeyLists, readerSource, compileReader };
