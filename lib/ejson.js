'use strict';

// MongoDB Extended JSON: canonical and relaxed v2, and bson's legacy (v1) output,
// behind bson@7's EJSON API (stringify, parse, serialize, deserialize).
//
// All of it lives here, in two tables: TO_EJSON turns a typed value (qbson's
// classes or bson@7's, told apart only by `_bsontype`) into its wrapper object,
// and FROM_EJSON turns a wrapper, found by its `$`-key, back into a value.
// stringify builds the wrapper tree and hands it to JSON.stringify, as bson does,
// so replacers and spacing behave the same. parse runs JSON.parse and then walks
// the result once, top-down, replacing wrappers in place; a wrapper is checked
// against its exact shape (spec: missing or extra keys, or a value of the wrong
// type, is an error), where bson accepts nearly anything.

const { Buffer } = require('buffer');
const util = require('util');
const C = require('./constants');
const { BSONError, BSONRuntimeError, isStackOverflow } = require('./errors');
const { ownOptions } = require('./options');
const { ContainerStack } = require('./container-stack');
const { ObjectId } = require('./types/objectid');
const { Binary, UUID, validateBinaryVector } = require('./types/binary');
const { Long } = require('./types/long');
const { Timestamp } = require('./types/timestamp');
const { Int32 } = require('./types/int32');
const { Double } = require('./types/double');
const { Decimal128 } = require('./types/decimal128');
const { Code } = require('./types/code');
const { BSONRegExp } = require('./types/bson-regexp');
const { BSONSymbol } = require('./types/bson-symbol');
const { DBRef } = require('./types/dbref');
const { MinKey, MaxKey } = require('./types/min-max-key');
const { DBPointer, BSONUndefined } = require('./types/deprecated');
const { WideObject, MAX_FAST_KEYED_FIELDS, setField } = require('./wide-object');

// bson compares plain numbers with 2^63 - 1 written as a number, which is 2^63
const INT64_MAX_AS_NUMBER = 9223372036854775807;
const INT64_MIN_AS_NUMBER = -9223372036854775808;
const INT64_MAX = 0x7fffffffffffffffn;
const INT64_MIN = -0x8000000000000000n;
const UINT32_MAX = 0xffffffff;
// the first instant of year 10000: relaxed dates from here on are written as numbers
const YEAR_10000_MS = 253402300800000;
// the range of a JavaScript Date
const MAX_DATE_MS = 8.64e15;
const REGEXP_OPTIONS = 'ilmsux';

// bson's $numberLong grammar: no leading zeros, no '-0', at most 20 characters
const NUMBER_LONG_RE = /^(\+?0|[+-]?[1-9][0-9]*)$/;
const NUMBER_LONG_MAX_LENGTH = 20;
const NUMBER_INT_RE = /^[+-]?[0-9]+$/;
const NUMBER_DOUBLE_RE = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity|NaN)$/;
const OID_RE = /^[0-9a-fA-F]{24}$/;
const SUBTYPE_RE = /^[0-9a-fA-F]{1,2}$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

function isPlainObjectValue(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hexByte(n) {
    const hex = Number(n).toString(16);
    return hex.length === 1 ? '0' + hex : hex;
}

// An ISO 8601 string, without the milliseconds when they are zero (bson's format).
function isoString(date) {
    const iso = date.toISOString();
    return date.getUTCMilliseconds() !== 0 ? iso : iso.slice(0, -5) + 'Z';
}

// ---------------------------------------------------------------------------
// stringify: value -> Extended JSON tree

class Writer extends ContainerStack {
    constructor(options) {
        super('ERR_BSON_EJSON');
        this.relaxed = Boolean(options.relaxed);
        this.legacy = Boolean(options.legacy);
        this.ignoreUndefined = Boolean(options.ignoreUndefined);
        this.maxDepth = maxDepthOption(options);
    }

    // bson's drawing of the cycle: the keys from the root, an array element as
    // 'index N', with a line under the part that repeats
    cycleWording(at, key) {
        const names = ['(root)'];
        for (let i = 1; i < this.depth; i++) names.push(propertyName(this.keys[i]));
        names.push(propertyName(key));
        const current = names[names.length - 1];
        const seen = names[at];
        const leading = names.slice(0, at).map(n => `${n} -> `).join('');
        const repeated = ' -> ' + names.slice(at + 1, -1).map(n => `${n} -> `).join('');
        const space = ' '.repeat(leading.length + seen.length / 2);
        const dashes = '-'.repeat(repeated.length + (seen.length + current.length) / 2 - 1);
        return `Converting circular structure to EJSON:\n    ${leading}${seen}${repeated}${current}\n    ${space}\\${dashes}/\n`;
    }
}

function propertyName(key) {
    return typeof key === 'number' ? `index ${key}` : key;
}

function toEJSON(w, value, key) {
    switch (typeof value) {
        case 'number':
            return numberToEJSON(w, value);
        case 'bigint':
            // bson keeps the low 64 bits, as the encoder does
            value = BigInt.asIntN(64, value);
            return w.relaxed ? Number(value) : { $numberLong: value.toString() };
        case 'undefined':
            return w.ignoreUndefined ? undefined : null;
        case 'object':
            return value === null ? null : objectToEJSON(w, value, key);
        default:
            // strings and booleans as they are; functions and symbols are left to JSON.stringify, which drops them
            return value;
    }
}

function numberToEJSON(w, n) {
    if (w.relaxed && Number.isFinite(n)) return n;
    const negativeZero = n === 0 && 1 / n < 0;
    if (Number.isInteger(n) && !negativeZero) {
        if (n >= C.BSON_INT32_MIN && n <= C.BSON_INT32_MAX) return { $numberInt: String(n) };
        if (n >= INT64_MIN_AS_NUMBER && n <= INT64_MAX_AS_NUMBER) return { $numberLong: String(n) };
    }
    return { $numberDouble: negativeZero ? '-0.0' : String(n) };
}

// bson's order of checks: Map, array, Date, RegExp, then a document or a type
// instance. instanceof answers for nearly every value; util.types catches the
// same built-ins from another realm.
function objectToEJSON(w, value, key) {
    if (Array.isArray(value)) {
        w.enter(value, key);
        const n = value.length;
        const out = new Array(n);
        for (let i = 0; i < n; i++) out[i] = toEJSON(w, value[i], i);
        w.leave();
        return out;
    }
    if (value instanceof Date) return dateToEJSON(w, value, key);
    if (value instanceof Map) return mapToEJSON(w, value, key);
    if (value instanceof RegExp) return regExpToEJSON(w, value.source, sortRegExpFlags(w, value.flags, key), key);
    const bsontype = value._bsontype;
    if (bsontype !== undefined) return typedToEJSON(w, value, bsontype, key);
    if (util.types.isMap(value)) return mapToEJSON(w, value, key);
    if (util.types.isDate(value)) return dateToEJSON(w, value, key);
    if (util.types.isRegExp(value)) return regExpToEJSON(w, value.source, sortRegExpFlags(w, value.flags, key), key);
    w.enter(value, key);
    const out = documentToEJSON(w, value);
    w.leave();
    return out;
}

function documentToEJSON(w, doc) {
    const keys = Object.keys(doc);
    // a wrapper tree of many keys per object is walked faster by JSON.stringify when fast
    const out = keys.length > MAX_FAST_KEYED_FIELDS ? new WideObject() : {};
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        setField(out, k, toEJSON(w, doc[k], k));
    }
    return out;
}

// A Map with string keys is the document of its entries (a '_bsontype' entry included, as in bson).
function mapToEJSON(w, map, key) {
    w.enter(map, key);
    const obj = Object.create(null);
    for (const [k, v] of map) {
        if (typeof k !== 'string') throw w.fail(`a Map key must be a string to become a document key, not ${typeof k}`);
        obj[k] = v;
    }
    const out = obj._bsontype === undefined ? documentToEJSON(w, obj) : typedToEJSON(w, obj, obj._bsontype);
    w.leave();
    return out;
}

// An instance of a BSON type class, qbson's or bson@7's: recognised by its tag and
// bson's version marker, converted by the TO_EJSON entry for its _bsontype.
function typedToEJSON(w, value, bsontype, key) {
    if (typeof bsontype !== 'string') {
        throw w.fail(`_bsontype must be a string, not ${bsontype === null ? 'null' : typeof bsontype}`, key);
    }
    if (value[C.BSON_VERSION_SYMBOL] !== C.BSON_MAJOR_VERSION) {
        throw w.versionError(bsontype, key);
    }
    const convert = TO_EJSON.get(bsontype);
    if (convert === undefined) throw w.fail(`Unrecognized or invalid _bsontype: ${bsontype}`, key);
    return convert(w, value, key);
}

function dateToEJSON(w, date, key) {
    const ms = date.getTime();
    // ISO strings carry 4-digit years only; NaN (an invalid Date) is out of range too
    const isoRange = ms > -1 && ms < YEAR_10000_MS;
    if (w.legacy) {
        if (w.relaxed && isoRange) return { $date: ms };
        if (Number.isNaN(ms)) throw w.fail('an invalid Date has no legacy Extended JSON form', key);
        return { $date: isoString(date) };
    }
    if (w.relaxed && isoRange) return { $date: isoString(date) };
    return { $date: { $numberLong: String(ms) } };
}

// A JavaScript RegExp's flags as BSON options: only those BSON knows, sorted.
function sortRegExpFlags(w, flags, key) {
    for (let i = 0; i < flags.length; i++) {
        if (REGEXP_OPTIONS.indexOf(flags[i]) === -1) {
            throw w.fail(`the regular expression flag '${flags[i]}' has no BSON equivalent`, key);
        }
    }
    return flags.split('').sort().join('');
}

function regExpToEJSON(w, pattern, options, key) {
    if (pattern.indexOf('\x00') !== -1) throw w.fail('a regular expression pattern must not contain null bytes', key);
    if (w.legacy) return { $regex: pattern, $options: options };
    return { $regularExpression: { pattern, options } };
}

// One converter per _bsontype: (writer, instance, key) -> Extended JSON value.
// Each reads only the fields qbson's and bson@7's classes share; the two that
// hold other values (Code, DBRef) enter themselves on the writer's stack first.
const TO_EJSON = new Map(Object.entries({
    ObjectId(w, v) {
        return { $oid: v.toHexString() };
    },

    Int32(w, v) {
        if (w.relaxed || w.legacy) return v.value;
        return { $numberInt: String(v.value) };
    },

    Double(w, v) {
        const n = v.value;
        if (w.legacy || (w.relaxed && Number.isFinite(n))) return n;
        if (n === 0 && 1 / n < 0) return { $numberDouble: '-0.0' };
        return { $numberDouble: Number.isInteger(n) ? n.toFixed(1) : String(n) };
    },

    Long(w, v) {
        if (w.relaxed) return v.toNumber();
        return { $numberLong: v.toString() };
    },

    Decimal128(w, v) {
        return { $numberDecimal: v.toString() };
    },

    // the value's bytes are buffer[0, position); put() and write() leave spare room after them
    Binary(w, v) {
        if (v.sub_type === C.BINARY_VECTOR) validateBinaryVector(v);
        const bytes = v.buffer;
        const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, v.position).toString('base64');
        const subType = hexByte(v.sub_type);
        if (w.legacy) return { $binary: base64, $type: subType };
        return { $binary: { base64, subType } };
    },

    Timestamp(w, v) {
        return { $timestamp: { t: v.high >>> 0, i: v.low >>> 0 } };
    },

    Code(w, v, key) {
        if (!v.scope) return { $code: v.code };
        w.enter(v, key);
        const scope = toEJSON(w, v.scope, 'scope');
        w.leave();
        return { $code: v.code, $scope: scope };
    },

    BSONRegExp(w, v, key) {
        return regExpToEJSON(w, v.pattern, v.options, key);
    },

    BSONSymbol(w, v) {
        return { $symbol: v.value };
    },

    // bson converts the parts of a DBRef with an oid, and copies a DBRef without one as it is
    DBRef(w, v, key) {
        let collection = v.collection;
        let oid = v.oid;
        let db = v.db;
        let fields = v.fields;
        if (oid) {
            w.enter(v, key);
            oid = toEJSON(w, oid, 'oid');
            db = toEJSON(w, db, 'db');
            fields = toEJSON(w, fields, 'fields');
            w.leave();
            // rebuilt as bson rebuilds it: a 'db.collection' name sets the db
            const parts = typeof collection === 'string' ? collection.split('.') : null;
            if (parts !== null && parts.length === 2) {
                db = parts[0];
                collection = parts[1];
            }
        }
        const out = { $ref: collection, $id: oid };
        if (w.legacy) return out;
        if (db) out.$db = db;
        if (fields) {
            const keys = Object.keys(fields);
            for (let i = 0; i < keys.length; i++) setField(out, keys[i], fields[keys[i]]);
        }
        return out;
    },

    MinKey() {
        return { $minKey: 1 };
    },

    MaxKey() {
        return { $maxKey: 1 };
    },

    DBPointer(w, v) {
        return { $dbPointer: { $ref: v.namespace, $id: { $oid: v.oid.toHexString() } } };
    },

    Undefined() {
        return { $undefined: true };
    },
}));

// ---------------------------------------------------------------------------
// parse: JSON value -> values, wrappers replaced in place

class Reader {
    constructor(options) {
        this.relaxed = options.relaxed;
        this.legacy = options.legacy;
        this.useBigInt64 = options.useBigInt64;
        this.preserveDeprecated = options.preserveDeprecated;
        this.maxDepth = options.maxDepth;
        // the keys leading to the value being read, for error messages
        this.keys = [];
    }

    fail(message, code, ErrorClass) {
        const path = this.keys.length ? this.keys.join('.') : '(root)';
        return new (ErrorClass || BSONError)(`${message} at key path '${path}'`, { code: code || 'ERR_BSON_EJSON', path });
    }

    // the key path is one key per level of nesting
    checkDepth() {
        if (this.keys.length > this.maxDepth) throw this.fail(`nesting deeper than maxDepth ${this.maxDepth}`, 'ERR_BSON_TOO_DEEP');
    }
}

function fromEJSON(r, value) {
    if (typeof value === 'number') return numberFromJSON(r, value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
        r.checkDepth();
        for (let i = 0; i < value.length; i++) {
            const item = value[i];
            if (typeof item === 'object' && item !== null) {
                r.keys.push(i);
                value[i] = fromEJSON(r, item);
                r.keys.pop();
            } else if (typeof item === 'number') {
                value[i] = numberFromJSON(r, item);
            }
        }
        return value;
    }
    return objectFromJSON(r, value);
}

// A JSON number: itself in relaxed or legacy mode; otherwise the smallest BSON
// number type that holds it exactly (bson's bounds for int64, including its 2^63).
function numberFromJSON(r, n) {
    if (r.relaxed || r.legacy) return n;
    if (Number.isInteger(n) && !(n === 0 && 1 / n < 0)) {
        if (n >= C.BSON_INT32_MIN && n <= C.BSON_INT32_MAX) return new Int32(n);
        if (n >= INT64_MIN_AS_NUMBER && n <= INT64_MAX_AS_NUMBER) return r.useBigInt64 ? BigInt(n) : Long.fromNumber(n);
    }
    return new Double(n);
}

function objectFromJSON(r, obj) {
    const keys = Object.keys(obj);
    let wrapperKey;
    let dollarKeys = 0;
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k.indexOf('\x00') !== -1) {
            throw r.fail(`document field names cannot contain null bytes, found ${JSON.stringify(k)}`);
        }
        if (k.charCodeAt(0) === 36 /* $ */) {
            dollarKeys++;
            if (FROM_EJSON.has(k)) {
                if (wrapperKey !== undefined) throw r.fail(`an object cannot hold both ${wrapperKey} and ${k}`);
                wrapperKey = k;
            }
        }
    }
    if (wrapperKey !== undefined) return FROM_EJSON.get(wrapperKey)(r, obj, keys);
    documentFromJSON(r, obj, keys);
    if (dollarKeys !== 0 && isDBRefLike(obj, keys)) return toDBRef(obj, keys);
    return obj;
}

// Converts a document's values in place.
function documentFromJSON(r, obj, keys) {
    r.checkDepth();
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = obj[k];
        if (typeof v === 'object' && v !== null) {
            r.keys.push(k);
            obj[k] = fromEJSON(r, v);
            r.keys.pop();
        } else if (typeof v === 'number') {
            obj[k] = numberFromJSON(r, v);
        }
    }
    return obj;
}

// The DBRef convention: $ref a string, $id present, $db absent or a string, and
// no other $-keys. Anything else resembling it stays a document (spec).
function isDBRefLike(obj, keys) {
    if (typeof obj.$ref !== 'string' || obj.$id == null) return false;
    if (obj.$db !== undefined && typeof obj.$db !== 'string') return false;
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k.charCodeAt(0) === 36 && k !== '$ref' && k !== '$id' && k !== '$db') return false;
    }
    return true;
}

function toDBRef(obj, keys) {
    const fields = {};
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k !== '$ref' && k !== '$id' && k !== '$db') setField(fields, k, obj[k]);
    }
    return new DBRef(obj.$ref, obj.$id, obj.$db, fields);
}

function describeJSON(value) {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    if (typeof value === 'object') return 'an object';
    return `${typeof value} ${JSON.stringify(value)}`;
}

// The wrapper must have exactly these keys (the first is its $-key).
function expectKeys(r, obj, keys, expected) {
    if (keys.length === expected.length) {
        let all = true;
        for (let i = 0; i < expected.length; i++) {
            if (!Object.prototype.hasOwnProperty.call(obj, expected[i])) all = false;
        }
        if (all) return;
    }
    throw r.fail(`${expected[0]} must be an object with exactly the keys ${expected.join(', ')}, found ${keys.join(', ')}`);
}

function expectString(r, value, what) {
    if (typeof value !== 'string') throw r.fail(`${what} must be a string, not ${describeJSON(value)}`);
    return value;
}

// A $numberLong string as a BigInt in the int64 range.
function int64FromString(r, s, what) {
    expectString(r, s, what);
    // bson's words first, as its Long.fromExtendedJSON words them
    if (s.length > NUMBER_LONG_MAX_LENGTH) {
        throw r.fail(`${what} string is too long: ${JSON.stringify(s)} is not a decimal 64-bit integer`);
    }
    if (!NUMBER_LONG_RE.test(s)) {
        throw r.fail(`${what} string ${JSON.stringify(s)} is in an invalid format: not a decimal 64-bit integer`);
    }
    const big = BigInt(s);
    if (big > INT64_MAX || big < INT64_MIN) throw r.fail(`${what} ${JSON.stringify(s)} is outside the 64-bit integer range`);
    return big;
}

function dateFromMillis(r, ms) {
    if (!(ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS)) {
        throw r.fail(`$date ${ms} is outside the range of a JavaScript Date`);
    }
    return new Date(ms);
}

function objectIdFrom(r, value, what) {
    expectString(r, value, what);
    if (!OID_RE.test(value)) throw r.fail(`${what} must be 24 hexadecimal digits, found ${JSON.stringify(value)}`);
    return new ObjectId(value);
}

function uint32From(r, value, what) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
        throw r.fail(`${what} must be an integer from 0 to ${UINT32_MAX}, not ${describeJSON(value)}`);
    }
    return value;
}

function binaryFrom(r, base64, subTypeHex) {
    if (!BASE64_RE.test(base64)) throw r.fail(`$binary base64 ${JSON.stringify(base64)} is not base64`);
    if (!SUBTYPE_RE.test(subTypeHex)) {
        throw r.fail(`$binary subType must be one or two hexadecimal digits, found ${JSON.stringify(subTypeHex)}`);
    }
    const bytes = Buffer.from(base64, 'base64');
    const subType = parseInt(subTypeHex, 16);
    // bson's rule for subtype 4; other lengths stay a Binary rather than failing
    if (subType === C.BINARY_UUID && bytes.length === 16) return new UUID(bytes);
    return new Binary(bytes, subType);
}

// One converter per type wrapper key: (reader, object, its keys) -> value.
const FROM_EJSON = new Map(Object.entries({
    $oid(r, obj, keys) {
        expectKeys(r, obj, keys, ['$oid']);
        return objectIdFrom(r, obj.$oid, '$oid');
    },

    $symbol(r, obj, keys) {
        expectKeys(r, obj, keys, ['$symbol']);
        return new BSONSymbol(expectString(r, obj.$symbol, '$symbol'));
    },

    $numberInt(r, obj, keys) {
        expectKeys(r, obj, keys, ['$numberInt']);
        const s = expectString(r, obj.$numberInt, '$numberInt');
        const n = NUMBER_INT_RE.test(s) ? Number(s) : NaN;
        if (!(n >= C.BSON_INT32_MIN && n <= C.BSON_INT32_MAX)) {
            throw r.fail(`$numberInt ${JSON.stringify(s)} is not a 32-bit integer`);
        }
        return r.relaxed ? parseInt(s, 10) : new Int32(n);
    },

    $numberLong(r, obj, keys) {
        expectKeys(r, obj, keys, ['$numberLong']);
        const big = int64FromString(r, obj.$numberLong, '$numberLong');
        if (r.useBigInt64) return big;
        return r.relaxed ? Number(big) : Long.fromBigInt(big);
    },

    $numberDouble(r, obj, keys) {
        expectKeys(r, obj, keys, ['$numberDouble']);
        const s = expectString(r, obj.$numberDouble, '$numberDouble');
        if (!NUMBER_DOUBLE_RE.test(s)) throw r.fail(`$numberDouble ${JSON.stringify(s)} is not a number`);
        const n = parseFloat(s);
        return r.relaxed ? n : new Double(n);
    },

    $numberDecimal(r, obj, keys) {
        expectKeys(r, obj, keys, ['$numberDecimal']);
        const s = expectString(r, obj.$numberDecimal, '$numberDecimal');
        try {
            return Decimal128.fromString(s);
        } catch (err) {
            throw r.fail(`$numberDecimal ${JSON.stringify(s)} is not a Decimal128 value (${err.message})`);
        }
    },

    // {$binary: {base64, subType}}; with the legacy option also {$binary: base64, $type: subType}
    $binary(r, obj, keys) {
        const inner = obj.$binary;
        if (r.legacy && typeof inner === 'string' && Object.prototype.hasOwnProperty.call(obj, '$type')) {
            expectKeys(r, obj, keys, ['$binary', '$type']);
            return binaryFrom(r, inner, expectString(r, obj.$type, '$type'));
        }
        if (typeof inner === 'string') {
            throw r.fail('$binary as a base64 string (with $type) is the legacy form, read only with the legacy option');
        }
        expectKeys(r, obj, keys, ['$binary']);
        if (!isPlainObjectValue(inner)) throw r.fail(`$binary must be an object with base64 and subType, not ${describeJSON(inner)}`);
        expectKeys(r, inner, Object.keys(inner), ['base64', 'subType']);
        return binaryFrom(r, expectString(r, inner.base64, '$binary base64'), expectString(r, inner.subType, '$binary subType'));
    },

    $uuid(r, obj, keys) {
        expectKeys(r, obj, keys, ['$uuid']);
        const s = obj.$uuid;
        if (typeof s !== 'string' || !UUID.isValidUUIDString(s)) {
            throw r.fail(`$uuid must be a UUID string of 32 hexadecimal digits, optionally hyphenated 8-4-4-4-12, not ${describeJSON(s)}`);
        }
        return new UUID(s);
    },

    $code(r, obj, keys) {
        if (keys.length === 1) {
            expectKeys(r, obj, keys, ['$code']);
            return new Code(expectString(r, obj.$code, '$code'));
        }
        expectKeys(r, obj, keys, ['$code', '$scope']);
        const code = expectString(r, obj.$code, '$code');
        const scope = obj.$scope;
        if (!isPlainObjectValue(scope)) throw r.fail(`$scope must be a document, not ${describeJSON(scope)}`);
        r.keys.push('$scope');
        documentFromJSON(r, scope, Object.keys(scope));
        r.keys.pop();
        return new Code(code, scope);
    },

    $timestamp(r, obj, keys) {
        expectKeys(r, obj, keys, ['$timestamp']);
        const inner = obj.$timestamp;
        if (!isPlainObjectValue(inner)) throw r.fail(`$timestamp must be an object with t and i, not ${describeJSON(inner)}`);
        expectKeys(r, inner, Object.keys(inner), ['t', 'i']);
        const t = uint32From(r, inner.t, '$timestamp t');
        const i = uint32From(r, inner.i, '$timestamp i');
        return new Timestamp({ t, i });
    },

    $regularExpression(r, obj, keys) {
        expectKeys(r, obj, keys, ['$regularExpression']);
        const inner = obj.$regularExpression;
        if (!isPlainObjectValue(inner)) {
            throw r.fail(`$regularExpression must be an object with pattern and options, not ${describeJSON(inner)}`);
        }
        expectKeys(r, inner, Object.keys(inner), ['pattern', 'options']);
        const pattern = expectString(r, inner.pattern, '$regularExpression pattern');
        const options = expectString(r, inner.options, '$regularExpression options');
        return regExpFrom(r, pattern, options);
    },

    // Legacy {$regex: pattern, $options?: options}, accepted in every mode as bson does.
    // Any other shape is the $regex query operator, left a document.
    $regex(r, obj, keys) {
        const options = obj.$options;
        const isLegacyRegExp =
            typeof obj.$regex === 'string' &&
            (keys.length === 1 || (keys.length === 2 && typeof options === 'string'));
        if (isLegacyRegExp) return regExpFrom(r, obj.$regex, options === undefined ? '' : options);
        return documentFromJSON(r, obj, keys);
    },

    // A DBRef, as bson gives it; a DBPointer with the preserveDeprecated option.
    $dbPointer(r, obj, keys) {
        expectKeys(r, obj, keys, ['$dbPointer']);
        const inner = obj.$dbPointer;
        if (!isPlainObjectValue(inner)) throw r.fail(`$dbPointer must be an object with $ref and $id, not ${describeJSON(inner)}`);
        expectKeys(r, inner, Object.keys(inner), ['$ref', '$id']);
        const namespace = expectString(r, inner.$ref, '$dbPointer $ref');
        const id = inner.$id;
        if (!isPlainObjectValue(id)) throw r.fail(`$dbPointer $id must be an {$oid} object, not ${describeJSON(id)}`);
        expectKeys(r, id, Object.keys(id), ['$oid']);
        const oid = objectIdFrom(r, id.$oid, '$dbPointer $id');
        return r.preserveDeprecated ? new DBPointer(namespace, oid) : new DBRef(namespace, oid);
    },

    // {$date: {$numberLong}} or {$date: ISO-8601 string}; with the legacy option also {$date: millis}
    $date(r, obj, keys) {
        expectKeys(r, obj, keys, ['$date']);
        const d = obj.$date;
        if (typeof d === 'string') {
            const ms = Date.parse(d);
            if (Number.isNaN(ms)) throw r.fail(`$date ${JSON.stringify(d)} is not an ISO-8601 date`);
            return new Date(ms);
        }
        if (isPlainObjectValue(d) && Object.prototype.hasOwnProperty.call(d, '$numberLong')) {
            expectKeys(r, d, Object.keys(d), ['$numberLong']);
            return dateFromMillis(r, Number(int64FromString(r, d.$numberLong, '$date $numberLong')));
        }
        if (r.legacy && typeof d === 'number') return dateFromMillis(r, d);
        // bson's class and words for a $date of no date form
        const message = `Unrecognized type for EJSON date: ${typeof d}: $date must be an ISO-8601 string or a {$numberLong} object, not ${describeJSON(d)}`;
        throw r.fail(message, 'ERR_BSON_EJSON', BSONRuntimeError);
    },

    $minKey(r, obj, keys) {
        expectKeys(r, obj, keys, ['$minKey']);
        if (obj.$minKey !== 1) throw r.fail(`$minKey must be 1, not ${describeJSON(obj.$minKey)}`);
        return new MinKey();
    },

    $maxKey(r, obj, keys) {
        expectKeys(r, obj, keys, ['$maxKey']);
        if (obj.$maxKey !== 1) throw r.fail(`$maxKey must be 1, not ${describeJSON(obj.$maxKey)}`);
        return new MaxKey();
    },

    // null, as bson gives it; a BSONUndefined with the preserveDeprecated option
    $undefined(r, obj, keys) {
        expectKeys(r, obj, keys, ['$undefined']);
        if (obj.$undefined !== true) throw r.fail(`$undefined must be true, not ${describeJSON(obj.$undefined)}`);
        return r.preserveDeprecated ? new BSONUndefined() : null;
    },
}));

function regExpFrom(r, pattern, options) {
    if (pattern.indexOf('\x00') !== -1) throw r.fail(`a regular expression pattern cannot contain null bytes, found ${JSON.stringify(pattern)}`);
    if (options.indexOf('\x00') !== -1) throw r.fail(`regular expression options cannot contain null bytes, found ${JSON.stringify(options)}`);
    for (let i = 0; i < options.length; i++) {
        if (REGEXP_OPTIONS.indexOf(options[i]) === -1) throw r.fail(`the regular expression option '${options[i]}' is not supported`);
    }
    return new BSONRegExp(pattern, BSONRegExp.parseOptions(options));
}

// ---------------------------------------------------------------------------
// The API, with bson@7's signatures and option defaults

// Options may stand in the replacer or the space position.
function stringify(value, replacer, space, options) {
    if (space != null && typeof space === 'object') {
        options = space;
        space = undefined;
    }
    if (replacer != null && typeof replacer === 'object' && !Array.isArray(replacer)) {
        options = replacer;
        replacer = undefined;
    }
    // bson's defaults yield to any own key, even one set to undefined
    const opts = ownOptions({ relaxed: true, legacy: false }, options);
    const w = new Writer(opts);
    return withinStack(w.maxDepth, () => JSON.stringify(toEJSON(w, value, undefined), replacer, space));
}

function parse(text, options) {
    const o = ownOptions(null, options);
    const r = new Reader({
        relaxed: o.relaxed != null ? Boolean(o.relaxed) : true,
        legacy: Boolean(o.legacy),
        useBigInt64: Boolean(o.useBigInt64),
        preserveDeprecated: Boolean(o.preserveDeprecated),
        maxDepth: maxDepthOption(o),
    });
    return withinStack(r.maxDepth, () => fromEJSON(r, JSON.parse(text)));
}

// The Extended JSON of a value as a plain object tree.
function serialize(value, options) {
    return JSON.parse(stringify(value, options || {}));
}

// Values from an Extended JSON object tree; the tree is not changed.
function deserialize(ejson, options) {
    const o = ownOptions(null, options);
    return parse(withinStack(maxDepthOption(o), () => JSON.stringify(ejson)), o);
}

// maxDepth bounds nesting as in encode and decode: every object and array counts
// (in stringify, a Code's scope and a DBRef's fields count one more level).
function maxDepthOption(options) {
    const depth = options != null ? options.maxDepth : undefined;
    if (depth === undefined) return C.DEFAULT_MAX_DEPTH;
    if (!Number.isInteger(depth) || depth < 1) throw new BSONError('option maxDepth must be a positive integer');
    return depth;
}

// Running out of stack (JSON.parse and JSON.stringify recurse too) is a BSONError like too deep a nesting.
function withinStack(maxDepth, fn) {
    try {
        return fn();
    } catch (err) {
        if (isStackOverflow(err)) {
            throw new BSONError(`value nests too deeply for the call stack (maxDepth ${maxDepth})`, { code: 'ERR_BSON_TOO_DEEP' });
        }
        throw err;
    }
}

// One type object's Extended JSON as a value (a -0 stays -0): the type classes' toExtendedJSON.
function typeToExtendedJSON(value, options) {
    return toEJSON(new Writer(options), value, undefined);
}

const EJSON = Object.freeze(Object.assign(Object.create(null), { parse, stringify, serialize, deserialize }));

module.exports = { EJSON, typeToExtendedJSON };
