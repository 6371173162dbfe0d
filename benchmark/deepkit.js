'use strict';

// @deepkit/bson as a peer.  Its typed JIT reads and writes one TypeScript type, which its
// compiler plugin normally supplies; here the type is built at run time, as deepkit's own
// reflection objects ({ kind: ReflectionKind.*, ... }), from the documents of a data set:
//   inferType(docs)            the type that holds every document, as an application would declare it
//   toDeepkit(doc, typed, dk)  a bson-typed document in the values deepkit writes (ObjectId as a hex
//                              string, Long as a bigint, Binary as bytes...), once, before timing
//   fromDeepkit(out, ref)      deepkit's documented forms of a decoded value turned back into bson's,
//                              only where the reference (bson's decode) holds that type, for verify.js
// Values deepkit has no type for (Timestamp, Decimal128, Code, MinKey, MaxKey, ...) get `any`,
// which its generated code hands to its schemaless reader and writer.

const bson = require('bson');
const { ReflectionKind, mongoIdAnnotation, uuidAnnotation } = require('@deepkit/type');

// past this many distinct keys an object is typed as an index signature ({ [key: string]: T }),
// as one keyed by ids would be declared; one of all numeric-string keys is typed so at any size
const MAX_DECLARED_KEYS = 256;
const NUMERIC_KEY = /^(0|[1-9][0-9]*)$/;

// What was seen at one place of the documents: the kinds of value, and for objects and
// arrays what they held.  Kinds: null undefined boolean string number bigint date objectId
// uuid bytes regexp object array any.
function slot() {
    return { kinds: new Set(), objects: 0, keys: new Map(), order: [], index: null, elements: null };
}

function kindOf(v) {
    if (v === null) return 'null';
    switch (typeof v) {
    case 'undefined': return 'undefined';
    case 'boolean': return 'boolean';
    case 'string': return 'string';
    case 'number': return 'number';
    case 'bigint': return 'bigint';
    }
    if (v instanceof Date) return 'date';
    if (v instanceof RegExp) return 'regexp';
    if (Array.isArray(v)) return 'array';
    switch (v._bsontype) {
    case undefined: break;
    case 'Int32': case 'Double': return 'number';
    case 'Long': return 'bigint';
    case 'ObjectId': case 'ObjectID': return 'objectId';
    case 'Binary': return v.sub_type === 4 ? 'uuid' : v.sub_type === 0 ? 'bytes' : 'any';
    case 'BSONRegExp': return jsRegExp(v) ? 'regexp' : 'any';
    default: return 'any';
    }
    if (v instanceof Uint8Array) return 'bytes';
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null ? 'object' : 'any';
}

function observe(s, v) {
    const kind = kindOf(v);
    s.kinds.add(kind);
    if (kind === 'array') {
        s.elements = s.elements || slot();
        for (const e of v) observe(s.elements, e);
    } else if (kind === 'object') {
        s.objects++;
        observeKeys(s, v);
    }
}

// keys in the order the documents give them: a new key goes right after the key before it
function observeKeys(s, obj) {
    const keys = Object.keys(obj);
    if (!s.index && (keys.length > MAX_DECLARED_KEYS || (keys.length && keys.every((k) => NUMERIC_KEY.test(k))))) toIndex(s);
    if (s.index) {
        for (const k of keys) observe(s.index, obj[k]);
        return;
    }
    let at = 0;
    for (const k of keys) {
        let entry = s.keys.get(k);
        if (!entry) {
            entry = { slot: slot(), seen: 0 };
            s.keys.set(k, entry);
            s.order.splice(at, 0, k);
        }
        at = s.order.indexOf(k) + 1;
        entry.seen++;
        observe(entry.slot, obj[k]);
    }
    if (s.keys.size > MAX_DECLARED_KEYS) toIndex(s);
}

// fold the declared keys seen so far into one value slot
function toIndex(s) {
    s.index = slot();
    for (const { slot: v } of s.keys.values()) merge(s.index, v);
    s.keys = new Map();
    s.order = [];
}

function merge(into, from) {
    for (const k of from.kinds) into.kinds.add(k);
    if (from.elements) {
        into.elements = into.elements || slot();
        merge(into.elements, from.elements);
    }
    if (from.objects) {
        into.objects += from.objects;
        if (from.index) {
            if (!into.index) toIndex(into);
            merge(into.index, from.index);
        } else if (into.index) {
            for (const { slot: v } of from.keys.values()) merge(into.index, v);
        } else {
            for (const k of from.order) {
                const e = from.keys.get(k);
                if (!into.keys.has(k)) {
                    into.keys.set(k, { slot: slot(), seen: 0 });
                    into.order.push(k);
                }
                const mine = into.keys.get(k);
                mine.seen += e.seen;
                merge(mine.slot, e.slot);
            }
            if (into.keys.size > MAX_DECLARED_KEYS) toIndex(into);
        }
    }
}

// the deepkit reflection type of a slot
function typeOf(s) {
    if (s.kinds.has('any') || s.kinds.size === 0) return { kind: ReflectionKind.any };
    const types = [...s.kinds].map((kind) => typeOfKind(kind, s));
    if (types.length === 1) return types[0];
    const union = { kind: ReflectionKind.union, types };
    for (const t of types) t.parent = union;
    return union;
}

function typeOfKind(kind, s) {
    switch (kind) {
    case 'null': return { kind: ReflectionKind.null };
    case 'undefined': return { kind: ReflectionKind.undefined };
    case 'boolean': return { kind: ReflectionKind.boolean };
    case 'string': return { kind: ReflectionKind.string };
    case 'number': return { kind: ReflectionKind.number };
    case 'bigint': return { kind: ReflectionKind.bigint };
    case 'regexp': return { kind: ReflectionKind.regexp };
    case 'date': return { kind: ReflectionKind.class, classType: Date, types: [] };
    case 'bytes': return { kind: ReflectionKind.class, classType: Uint8Array, types: [] };
    case 'objectId': return mongoIdAnnotation.registerType({ kind: ReflectionKind.string }, true);
    case 'uuid': return uuidAnnotation.registerType({ kind: ReflectionKind.string }, true);
    case 'array': {
        const array = { kind: ReflectionKind.array, type: typeOf(s.elements || slot()) };
        array.type.parent = array;
        return array;
    }
    case 'object': return objectType(s);
    default: throw new Error('no deepkit type for ' + kind);
    }
}

function objectType(s) {
    const obj = { kind: ReflectionKind.objectLiteral, types: [] };
    if (s.index) {
        const index = { kind: ReflectionKind.indexSignature, index: { kind: ReflectionKind.string }, type: typeOf(s.index), parent: obj };
        index.index.parent = index.type.parent = index;
        obj.types.push(index);
        return obj;
    }
    for (const name of s.order) {
        const { slot: v, seen } = s.keys.get(name);
        const prop = { kind: ReflectionKind.propertySignature, name, type: typeOf(v), parent: obj };
        if (seen < s.objects) prop.optional = true;
        prop.type.parent = prop;
        obj.types.push(prop);
    }
    return obj;
}

// the type of every document of a data set (one type, as a batch is one collection)
function inferType(docs) {
    const s = slot();
    for (const doc of docs) observe(s, doc);
    return typeOf(s);
}

// a BSONRegExp with only the flags JavaScript has, as a RegExp
function jsRegExp(v) {
    return /^[imsu]*$/.test(v.options) ? new RegExp(v.pattern, v.options) : null;
}

function uuidString(bin) {
    const hex = Buffer.from(bin.buffer.subarray(0, bin.position)).toString('hex');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

// A bson-typed document in deepkit's values.  Its schemaless writer knows an ObjectId or a UUID
// only wrapped (wrapObjectId, wrapUUID); its typed writer takes the strings its type declares.
// Types deepkit has no value for are left as they are.
function toDeepkit(v, typed, dk) {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((e) => toDeepkit(e, typed, dk));
    switch (v._bsontype) {
    case undefined: break;
    case 'Int32': case 'Double': return v.value;
    case 'Long': return v.toBigInt();
    case 'ObjectId': case 'ObjectID': return typed ? v.toHexString() : dk.wrapObjectId(v.toHexString());
    case 'Binary':
        if (v.sub_type === 0) return new Uint8Array(v.buffer.subarray(0, v.position));
        if (v.sub_type === 4) return typed ? uuidString(v) : dk.wrapUUID(uuidString(v));
        return v;
    case 'BSONRegExp': return jsRegExp(v) || v;
    default: return v;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const out = {};
    for (const k of Object.keys(v)) out[k] = toDeepkit(v[k], typed, dk);
    return out;
}

const HEX24 = /^[0-9a-f]{24}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// deepkit's decoded forms, as its README lists them (ObjectId and UUID as strings, Long as a
// bigint, Binary as bytes), in bson's classes where bson's decode `ref` has that type at the
// same place; everything else is left for verify.js to compare as it is
function fromDeepkit(v, ref) {
    const type = ref !== null && typeof ref === 'object' ? ref._bsontype : undefined;
    if (typeof v === 'string') {
        if (type === 'ObjectId' && HEX24.test(v)) return new bson.ObjectId(v);
        if (type === 'Binary' && ref.sub_type === 4 && UUID.test(v)) return new bson.Binary(Buffer.from(v.replace(/-/g, ''), 'hex'), 4);
        return v;
    }
    if (typeof v === 'bigint') {
        if (typeof ref === 'number') return Number(v);
        if (type === 'Long') return bson.Long.fromBigInt(v);
        return v;
    }
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof Uint8Array) return type === 'Binary' && ref.sub_type === 0 ? new bson.Binary(v, 0) : v;
    if (Array.isArray(v)) return v.map((e, i) => fromDeepkit(e, Array.isArray(ref) ? ref[i] : undefined));
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const plain = ref !== null && typeof ref === 'object' && !type ? ref : {};
    const out = {};
    for (const k of Object.keys(v)) out[k] = fromDeepkit(v[k], plain[k]);
    return out;
}

module.exports = { inferType, toDeepkit, fromDeepkit };
