'use strict';

// Reference answers for get, has, projections and lazy views, computed from a
// full decode: what those give must be what walking decode's value gives. A
// DBRef is walked as the document it was stored as ($ref, $id, $db, fields).

const bson = require('bson');
const qbson = require('../..');
const { LazyDocument } = require('../../lib/lazy');

function setOwn(obj, key, value) {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

// The stored document behind a DBRef, or value itself.
function asStored(value) {
    if (!(value instanceof qbson.DBRef)) return value;
    const doc = {};
    setOwn(doc, '$ref', value.collection);
    setOwn(doc, '$id', value.oid);
    if (value.db !== undefined) setOwn(doc, '$db', value.db);
    for (const key of Object.keys(value.fields)) setOwn(doc, key, value.fields[key]);
    return doc;
}

function isDocument(value) {
    return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,8})$/;

// The options decode has in force inside a document it keeps as bytes (raw,
// fieldsAsRaw): raw, so every document below is bytes too (as bson decodes the
// documents of a raw array), and the others as given.
function rawOptions(opts) {
    const inside = { ...opts, raw: true };
    delete inside.fieldsAsRaw;
    return inside;
}

// Thrown by a walk that goes into bytes decode kept and that do not decode: there
// the walk fails, and a reader is free to fail too.
class WalkFails extends Error {}

// Opens a value on a walk: a DBRef as the document it was stored as, and under
// raw options (when given) a document kept as bytes as decode reads those bytes.
function opener(opts) {
    if (opts === undefined || (!opts.raw && !opts.fieldsAsRaw)) return asStored;
    const inside = rawOptions(opts);
    return (value) => {
        if (!Buffer.isBuffer(value)) return asStored(value);
        try {
            return asStored(qbson.decode(value, inside));
        } catch (err) {
            throw new WalkFails(err.message);
        }
    };
}

// fn's result, or undefined where the walk fails
function unlessWalkFails(fn) {
    try {
        return fn();
    } catch (err) {
        if (err instanceof WalkFails) return undefined;
        throw err;
    }
}

// {found, value} at keys (strings) in a decoded value.
function navigate(root, keys, open = asStored) {
    let value = root;
    for (const key of keys) {
        value = open(value);
        if (Array.isArray(value)) {
            if (!ARRAY_INDEX.test(key) || Number(key) >= value.length) return { found: false };
            value = value[Number(key)];
        } else if (isDocument(value)) {
            if (!Object.prototype.hasOwnProperty.call(value, key)) return { found: false };
            value = value[key];
        } else {
            return { found: false };
        }
    }
    return { found: true, value };
}

// Every path (as arrays of keys) in a decoded value, documents and arrays included.
function pathsOf(root, limit = 200, open = asStored) {
    const out = [];
    const walk = (value, prefix) => {
        if (out.length >= limit) return;
        value = unlessWalkFails(() => open(value));
        const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : isDocument(value) ? Object.keys(value) : [];
        for (const key of keys) {
            const path = prefix.concat(key);
            out.push(path);
            walk(value[key], path);
        }
    };
    walk(root, []);
    return out;
}

// A MongoDB-style inclusion projection of a decoded document on paths (arrays of keys).
function project(doc, paths, open = asStored) {
    const tree = new Map();
    for (const path of paths) {
        let level = tree;
        for (let i = 0; i < path.length; i++) {
            let node = level.get(path[i]);
            if (node === undefined) level.set(path[i], (node = { whole: false, children: new Map() }));
            if (node.whole) break;
            if (i === path.length - 1) {
                node.whole = true;
                node.children = new Map();
            }
            level = node.children;
        }
    }
    return projectDocument(open(doc), tree, open);
}

function projectDocument(doc, tree, open) {
    const out = {};
    for (const key of Object.keys(doc)) {
        const node = tree.get(key);
        if (node === undefined) continue;
        const value = projectValue(doc[key], node, open);
        if (value !== undefined || node.whole) setOwn(out, key, value);
    }
    return out;
}

function projectValue(value, node, open) {
    if (node.whole) return value;
    value = open(value);
    if (isDocument(value)) return projectDocument(value, node.children, open);
    if (Array.isArray(value)) return projectArray(value, node, open);
    return undefined;
}

function projectArray(array, node, open) {
    const out = [];
    for (let v of array) {
        v = open(v);
        if (isDocument(v)) out.push(projectDocument(v, node.children, open));
        else if (Array.isArray(v)) out.push(projectArray(v, node, open));
    }
    return out;
}

// A decoded value with every DBRef as the document it was stored as (and, with
// an opener for raw options, every document kept as bytes as decode reads it).
function storedForm(value, open = asStored) {
    value = open(value);
    if (Array.isArray(value)) return value.map((v) => storedForm(v, open));
    if (!isDocument(value)) return value;
    const out = {};
    for (const key of Object.keys(value)) setOwn(out, key, storedForm(value[key], open));
    return out;
}

// A lazy view read all the way down through entries(), as plain values.
function readAll(view) {
    const out = view.isArray ? [] : {};
    for (const [key, value] of view) {
        const plain = value instanceof LazyDocument ? readAll(value) : value;
        if (view.isArray) out.push(plain);
        else setOwn(out, key, plain);
    }
    return out;
}

// Whether any document in the (valid) bytes stores a key twice: there get takes
// the first and decode the last.
function hasDuplicateKeys(bytes, offset = 0, isArray = false) {
    const seen = new Set();
    for (const [type, nameOffset, nameLength, valueOffset] of bson.onDemand.parseToElements(bytes, offset)) {
        const name = Buffer.from(bytes.buffer, bytes.byteOffset + nameOffset, nameLength).toString('latin1');
        if (!isArray && seen.has(name)) return true;
        seen.add(name);
        if ((type === 3 || type === 4) && hasDuplicateKeys(bytes, valueOffset, type === 4)) return true;
    }
    return false;
}

// Whether the (valid) bytes hold a DBPointer anywhere outside code scopes: decode
// makes it a DBRef, which the reference here cannot tell from a stored DBRef document.
function hasDBPointer(bytes, offset = 0) {
    for (const [type, , , valueOffset] of bson.onDemand.parseToElements(bytes, offset)) {
        if (type === 0x0c) return true;
        if ((type === 3 || type === 4) && hasDBPointer(bytes, valueOffset)) return true;
    }
    return false;
}

// Whether the (valid) bytes hold a document whose $ref string has a dot: a DBRef
// made of it splits that namespace into db and collection (as bson's does, over a
// stored $db), so the stored document cannot be rebuilt from the decoded value.
function hasDottedRef(bytes, offset = 0) {
    for (const [type, nameOffset, nameLength, valueOffset, valueLength] of bson.onDemand.parseToElements(bytes, offset)) {
        const name = Buffer.from(bytes.buffer, bytes.byteOffset + nameOffset, nameLength).toString('latin1');
        if (type === 0x02 && name === '$ref' && Buffer.from(bytes.buffer, bytes.byteOffset + valueOffset + 4, valueLength - 4).includes(0x2e)) return true;
        if ((type === 3 || type === 4) && hasDottedRef(bytes, valueOffset)) return true;
    }
    return false;
}

module.exports = { navigate, pathsOf, project, storedForm, readAll, hasDuplicateKeys, hasDBPointer, hasDottedRef, asStored, opener, unlessWalkFails };
