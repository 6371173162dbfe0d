'use strict';

// Checks every library's output before it is timed, and builds the inputs it is timed on.
//   BSON libraries: encode must give bson's bytes, decode of bson's bytes must be
//   deep-equal to bson's result.  msgpackr and JSON: decode(encode(plain)) must be
//   deep-equal to the plain relaxed-EJSON form they encode.
// A verdict is 'ok', 'differs' (shown as ≠) or 'n/a' (unavailable or threw), with a reason.

const util = require('util');
const bson = require('bson');
const libraries = require('./libraries');

const TYPE_ALIASES = { ObjectID: 'ObjectId', Symbol: 'BSONSymbol' };

function binaryBytes(v) {
    if (v.buffer instanceof Uint8Array && typeof v.position === 'number') return v.buffer.subarray(0, v.position);
    if (typeof v.value === 'function') return v.value(true);
    return v.buffer;
}

// the comparable value of a typed object, by its _bsontype
function typedValue(type, v) {
    switch (type) {
    case 'Long': return { low: v.low | 0, high: v.high | 0, unsigned: !!v.unsigned };
    case 'Timestamp': return { t: v.high >>> 0, i: v.low >>> 0 };
    case 'ObjectId': return v.toHexString();
    case 'Binary': return { sub_type: v.sub_type, bytes: binaryBytes(v) };
    case 'Decimal128': return v.toString();
    case 'Int32': case 'Double': case 'BSONSymbol': return v.value;
    case 'Code': return { code: String(v.code), scope: v.scope == null ? null : v.scope };
    case 'BSONRegExp': return { pattern: v.pattern, options: v.options };
    case 'DBRef': return { collection: v.collection, oid: v.oid, db: v.db, fields: v.fields };
    case 'MinKey': case 'MaxKey': return null;
    default: return Object.assign({}, v);
    }
}

function typedView(v, canon) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return undefined;
    const own = canon && canon(v);
    if (own) return own;
    if (typeof v._bsontype !== 'string') return undefined;
    const type = TYPE_ALIASES[v._bsontype] || v._bsontype;
    return { type, value: typedValue(type, v) };
}

function kindOf(v) {
    if (v === null) return 'null';
    if (Array.isArray(v)) return 'array';
    if (v instanceof Date) return 'Date';
    if (v instanceof RegExp) return 'RegExp';
    if (v instanceof Uint8Array) return 'bytes';
    return typeof v;
}

// First difference between a (the reference) and b, as { path, a, b }, or null when deep-equal.
// canonA/canonB map a library's own type classes to { type, value } (see libraries.js).
function compare(a, b, canonA, canonB, path) {
    path = path || '';
    const differ = () => ({ path: path || '(top)', a, b });
    const ta = typedView(a, canonA), tb = typedView(b, canonB);
    if (ta || tb) {
        if (!ta || !tb || ta.type !== tb.type) return differ();
        return compare(ta.value, tb.value, canonA, canonB, path + '<' + ta.type + '>');
    }
    const kind = kindOf(a);
    if (kind !== kindOf(b)) return differ();
    switch (kind) {
    case 'number': return Object.is(a, b) ? null : differ();
    case 'Date': return Object.is(a.getTime(), b.getTime()) ? null : differ();
    case 'RegExp': return a.source === b.source && a.flags === b.flags ? null : differ();
    case 'bytes': {
        if (a.length !== b.length) return { path: path + '.length', a: a.length, b: b.length };
        let i = 0;
        while (i < a.length && a[i] === b[i]) i++;
        return i < a.length ? { path: path + '[' + i + ']', a: a[i], b: b[i] } : null;
    }
    case 'array':
        if (a.length !== b.length) return { path: path + '.length', a: a.length, b: b.length };
        for (let i = 0; i < a.length; i++) {
            const d = compare(a[i], b[i], canonA, canonB, path + '[' + i + ']');
            if (d) return d;
        }
        return null;
    case 'object': {
        const ka = Object.keys(a), kb = Object.keys(b);
        if (ka.join('\0') !== kb.join('\0')) return { path: path + ' keys', a: ka, b: kb };
        for (const k of ka) {
            const d = compare(a[k], b[k], canonA, canonB, path + '.' + k);
            if (d) return d;
        }
        return null;
    }
    default: return a === b ? null : differ();
    }
}

function show(v) {
    return util.inspect(v, { depth: 2, breakLength: Infinity, maxArrayLength: 8, maxStringLength: 60 });
}

// where two encodings first differ: byte offset, and the value path if both parse
function compareBytes(ref, out) {
    if (!(out instanceof Uint8Array)) return 'encode returned ' + show(out) + ', not bytes';
    const a = Buffer.from(ref), b = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    if (a.equals(b)) return null;
    let at = 0;
    while (at < a.length && a[at] === b[at]) at++;
    const hex = (buf) => buf.subarray(Math.max(0, at - 4), at + 8).toString('hex');
    let msg = 'bytes differ at offset ' + at + ' (length ' + a.length + ' vs ' + b.length + '): ' +
        'bson ' + hex(a) + ' vs ' + hex(b);
    const raw = { promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true };
    try {
        const d = compare(bson.deserialize(a, raw), bson.deserialize(b, raw));
        if (d) msg = 'at ' + d.path + ' bson has ' + show(d.a) + ', got ' + show(d.b) + '; ' + msg;
    } catch (err) {
        msg += ' (output does not parse: ' + err.message + ')';
    }
    return msg;
}

function verdict(fn) {
    try {
        const reason = fn();
        return reason ? { verdict: 'differs', reason } : { verdict: 'ok', reason: '' };
    } catch (err) {
        return { verdict: 'n/a', reason: 'threw: ' + String(err && err.message).split('\n')[0] };
    }
}

// bson's bytes and decoded values for a data set, and the plain relaxed-EJSON form
function reference(ds) {
    const bytes = ds.docs.map((doc) => bson.serialize(doc));
    return {
        bytes,
        decoded: bytes.map((buf) => bson.deserialize(buf)),
        plain: ds.docs.map((doc) => JSON.parse(bson.EJSON.stringify(doc, { relaxed: true }))),
    };
}

function byteLength(out) {
    return typeof out === 'string' ? Buffer.byteLength(out) : out.length;
}

// Verify one library on one data set; returns the timed functions and inputs with the verdicts:
//   { encode: {verdict, reason}, decode: {verdict, reason}, encodeFn, decodeFn, encodeInput: [], decodeInput: [], size }
// A library with a type per data set (deepkit's typed JIT) is n/a where it cannot build one.
function check(lib, ds, ref) {
    const cell = { encodeFn: null, decodeFn: null, encodeInput: null, decodeInput: null, size: 0 };
    if (!lib.available) {
        cell.encode = cell.decode = { verdict: 'n/a', reason: lib.reason };
        return cell;
    }
    const built = verdict(() => { lib = libraries.forDataset(lib, ds); });
    if (built.verdict !== 'ok') {
        cell.encode = cell.decode = built;
        return cell;
    }
    cell.encodeFn = lib.encode;
    cell.decodeFn = lib.decode;
    const decoded = (buf, i) => (lib.normalize ? lib.normalize(lib.decode(buf), ref.decoded[i]) : lib.decode(buf));
    let outputs = null;
    if (lib.format === 'bson') {
        cell.encode = verdict(() => {
            cell.encodeInput = ds.docs.map((doc) => lib.prepare(doc));
            outputs = cell.encodeInput.map((doc) => lib.encode(doc));
            for (let i = 0; i < outputs.length; i++) {
                const msg = compareBytes(ref.bytes[i], outputs[i]);
                if (msg) return (ds.batch ? 'doc ' + i + ': ' : '') + msg;
            }
        });
        cell.decodeInput = ref.bytes;
        cell.decode = verdict(() => {
            for (let i = 0; i < ref.bytes.length; i++) {
                const d = compare(ref.decoded[i], decoded(ref.bytes[i], i), null, lib.canon);
                if (d) return (ds.batch ? 'doc ' + i + ' ' : '') + 'at ' + d.path + ' bson gives ' + show(d.a) + ', ' + lib.name + ' gives ' + show(d.b);
            }
        });
        cell.size = ref.bytes.reduce((n, buf) => n + buf.length, 0);
    } else {
        cell.encode = cell.decode = verdict(() => {
            cell.encodeInput = ref.plain;
            outputs = ref.plain.map((doc) => lib.encode(doc));
            cell.decodeInput = outputs;
            cell.size = outputs.reduce((n, out) => n + byteLength(out), 0);
            for (let i = 0; i < outputs.length; i++) {
                const d = compare(ref.plain[i], lib.decode(outputs[i]));
                if (d) return 'round trip differs' + (ds.batch ? ' in doc ' + i : '') + ' at ' + d.path + ': ' + show(d.a) + ' became ' + show(d.b);
            }
        });
    }
    return cell;
}

module.exports = { compare, compareBytes, reference, check, show };
