'use strict';

// Objects for decoded documents of more than 16 fields, built all at once from
// their staged keys and values. An object grown one computed key at a time ({} then
// obj[key] = value, as bson builds them) takes V8's megamorphic keyed store and a
// hidden-class transition per field, and becomes a dictionary at its 17th field
// (a WideObject, lib/wide-object.js, puts that off but still costs ~25 ns a field).
// Documents of one shape repeat their keys in one order, so a key sequence seen
// COMPILE_AFTER times gets a constructor compiled for it (`this["a"] =
// values[base]; ...`), whose stores are monomorphic and whose objects hold their
// fields inside them: 40 fields in 150 ns instead of about 1 us. Compiling costs
// 10-75 us (1-40 fields), which COMPILE_AFTER documents have mostly paid back when
// the shape is a common one.
//
// The decoder (lib/decoder.js) builds a document's first 16 fields on {} as it goes;
// only a document longer than that is staged on `stage`, a stack of keys and
// values (a document inside a value stages above its parent's fields). Staging
// every document cost the small ones more than it saved: 8% on deep_bson, whose
// documents have two fields.

const { WideObject } = require('./wide-object');
const { setField } = require('./set-field');
const { standIn, canKeep } = require('./stand-in');

// Longer documents are built key by key: a constructor's objects hold at most
// about 250 fields inside them, and wide documents rarely repeat their keys.
const MAX_SHAPE_FIELDS = 128;
const COMPILE_AFTER = 32;
// shapes remembered, by a hash of their keys (keysHash)
const SHAPE_SLOTS = 1024;

const fieldKeys = [];
const fieldValues = [];

class Shape {
    constructor(hash, keys) {
        this.hash = hash;
        this.keys = keys;
        // a Shape is made at its second sighting (firstSeen holds the first)
        this.seen = 2;
        // the compiled constructor, once there is one
        this.make = null;
        // an object of its own, from stand-ins (lib/stand-in.js says why)
        this.kept = null;
    }
}
const shapes = [];
for (let i = 0; i < SHAPE_SLOTS; i++) shapes.push(null);
// a shape met once is only its hash here: documents of one-off keys (ids as keys)
// cost a store, not a copy of their keys
const firstSeen = new Int32Array(SHAPE_SLOTS);
// false once the host refuses to compile code from strings (node --disallow-code-generation-from-strings)
let canCompile = true;

// The object for the `count` fields (17 or more) staged at base.
function buildObject(base, count) {
    const hash = keysHash(base, count);
    const slot = (hash ^ (hash >>> 12)) & (SHAPE_SLOTS - 1);
    const shape = shapes[slot];
    if (shape !== null && shape.hash === hash && hasKeys(shape.keys, base, count)) {
        if (shape.make !== null) return new shape.make(fieldValues, base);
        if (++shape.seen === COMPILE_AFTER) {
            shape.make = compile(shape.keys);
            if (shape.make !== null && canKeep()) shape.kept = new shape.make(fieldValues.slice(base, base + count).map(standIn), 0);
        }
    } else if (count <= MAX_SHAPE_FIELDS) {
        if (firstSeen[slot] === hash) shapes[slot] = new Shape(hash, fieldKeys.slice(base, base + count));
        else firstSeen[slot] = hash;
    }
    return buildByKeys(base, count);
}

// from the count and the first, middle and last keys' lengths and characters
// (hasKeys checks them all)
function keysHash(base, count) {
    return Math.imul(count, 0x9e3779b1) ^ keyHash(fieldKeys[base]) ^ (keyHash(fieldKeys[base + (count >> 1)]) << 5) ^ (keyHash(fieldKeys[base + count - 1]) << 10);
}

function keyHash(key) {
    return key.length ^ (key.charCodeAt(0) << 3) ^ (key.charCodeAt(key.length - 1) << 7);
}

function hasKeys(keys, base, count) {
    if (keys.length !== count) return false;
    for (let i = 0; i < count; i++) {
        if (keys[i] !== fieldKeys[base + i]) return false;
    }
    return true;
}

// key by key, into a WideObject: past 16 fields {} would become a dictionary
function buildByKeys(base, count) {
    const obj = new WideObject();
    for (let i = base; i < base + count; i++) setField(obj, fieldKeys[i], fieldValues[i]);
    return obj;
}

// A constructor storing the keys in order, as setField does: plain assignments in
// strict mode (a setter or read-only field on Object.prototype acts as it would
// there). '__proto__' would set the prototype; such shapes stay key by key.
// Keys go in as JSON string literals, which are JavaScript string literals.
function compile(keys) {
    if (keys.includes('__proto__')) return null;
    let body = "'use strict';\n";
    for (let i = 0; i < keys.length; i++) body += `this[${JSON.stringify(keys[i])}] = values[base + ${i}];\n`;
    const make = compileFunction('values, base', body);
    // objects made by it are plain objects, as WideObject's are
    if (make !== null) make.prototype = Object.prototype;
    return make;
}

// A function compiled from params and body, or null once the host refuses to compile code from
// strings; every generated function of the decoder (here and lib/shape-reader.js) is made here.
function compileFunction(params, body) {
    if (!canCompile) return null;
    try {
        return new Function(params, body);
    } catch (err) {
        // EvalError: refused (a SyntaxError would be a bug here, and leaves the rest alone)
        if (err instanceof EvalError) canCompile = false;
        return null;
    }
}

// The fields staged and not yet built are fieldKeys/fieldValues[0, top).
let top = 0;

// The stage's operations. A document stages from its base (the top when it
// began) and builds from there, which brings the top back to its base; a decode
// that fails releases from the mark it took.
const stage = {
    // where a decode begins, for release()
    mark() {
        return top;
    },
    // after a decode that failed: what it staged from mark is dropped
    release(mark) {
        for (let i = mark; i < fieldValues.length; i++) fieldValues[i] = undefined;
        top = mark;
    },
    add(key, value) {
        fieldKeys[top] = key;
        fieldValues[top] = value;
        top++;
    },
    // stages the fields of obj (a document's first run); returns the document's base
    addAll(obj) {
        const base = top;
        const keys = Object.keys(obj);
        for (let i = 0; i < keys.length; i++) stage.add(keys[i], obj[keys[i]]);
        return base;
    },
    countFrom(base) {
        return top - base;
    },
    // The object of the fields staged from base, which are dropped from the stage
    // so that a decoded document does not stay alive there.
    build(base) {
        const count = top - base;
        const obj = buildObject(base, count);
        for (let i = base; i < top; i++) fieldValues[i] = undefined;
        top = base;
        return obj;
    },
};

module.exports = { stage, compileFunction, MAX_SHAPE_FIELDS, COMPILE_AFTER };
