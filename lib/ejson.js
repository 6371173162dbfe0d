'use strict';

// MongoDB Extended JSON: canonical and relaxed v2, and bson's legacy (v1) output,
// behind bson@7's EJSON API (stringify, parse, serialize, deserialize).
//
// The type classes own their forms: each writes its wrapper (toExtendedJSON), and
// lib/types/extended-json.js reads it (read<Type>ExtendedJSON; Binary's and Long's
// modules read theirs). This file walks values and dispatches, in two tables: TO_EJSON by `_bsontype` to the class's form (for
// qbson's classes and bson@7's alike) and FROM_EJSON by a wrapper's `$`-key to
// its reader. Numbers, Dates, RegExps and Maps, which have no class, it
// converts itself.
// stringify builds the wrapper tree and hands it to JSON.stringify, as bson does,
// so replacers and spacing behave the same. parse runs JSON.parse and then walks
// the result once, top-down, replacing wrappers in place; a wrapper is checked
// against its exact shape (spec: missing or extra keys, or a value of the wrong
// type, is an error), where bson accepts nearly anything.

const { isMap, isDate, isRegExp } = require('./brands');
const C = require('./constants');
const { BSONError, BSONRuntimeError, isStackOverflow } = require('./errors');
const { ownOptions, readMaxDepth } = require('./options');
const { ContainerStack } = require('./container-stack');
const { ReadContext, isPlainObjectValue } = require('./ejson-reading');
const { ObjectId } = require('./types/objectid');
const { Binary, binaryExtendedJSON, readBinaryExtendedJSON, readUUIDExtendedJSON } = require('./types/binary');
const { Long, longExtendedJSON, int64FromExtendedJSON, readLongExtendedJSON } = require('./types/long');
const { Timestamp } = require('./types/timestamp');
const { Int32, int32ExtendedJSON } = require('./types/int32');
const { Double, doubleExtendedJSON } = require('./types/double');
const { Decimal128 } = require('./types/decimal128');
const { codeExtendedJSON } = require('./types/code');
const { REGEXP_OPTIONS, regExpExtendedJSON } = require('./types/bson-regexp');
const { BSONSymbol } = require('./types/bson-symbol');
const { dbRefExtendedJSON } = require('./types/dbref');
const { MinKey, MaxKey } = require('./types/min-max-key');
const { DBPointer, BSONUndefined } = require('./types/deprecated');
const {
    readObjectIdExtendedJSON, readTimestampExtendedJSON, readInt32ExtendedJSON, readDoubleExtendedJSON, readDecimal128ExtendedJSON,
    readCodeExtendedJSON, readRegExpExtendedJSON, readSymbolExtendedJSON, readDBRefExtendedJSON, readMinKeyExtendedJSON,
    readMaxKeyExtendedJSON, readDBPointerExtendedJSON, readUndefinedExtendedJSON,
} = require('./types/extended-json');
const { WideObject, MAX_FAST_KEYED_FIELDS } = require('./wide-object');
const { setField } = require('./set-field');

// bson compares plain numbers with 2^63 - 1 written as a number, which is 2^63
const INT64_MAX_AS_NUMBER = 9223372036854775807;
const INT64_MIN_AS_NUMBER = -9223372036854775808;
// the first instant of year 10000: relaxed dates from here on are written as numbers
const YEAR_10000_MS = 253402300800000;
// the range of a JavaScript Date
const MAX_DATE_MS = 8.64e15;

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
// instance. instanceof answers for nearly every value; lib/brands.js catches the
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
    if (isMap(value)) return mapToEJSON(w, value, key);
    if (isDate(value)) return dateToEJSON(w, value, key);
    if (isRegExp(value)) return regExpToEJSON(w, value.source, sortRegExpFlags(w, value.flags, key), key);
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
    return regExpExtendedJSON(pattern, options, w.legacy, w, key);
}

// One converter per _bsontype: (writer, instance, key) -> Extended JSON value, the
// form of the type's class, for qbson's and bson@7's instances alike. Code and DBRef
// convert the values they hold first (entering themselves on the writer's stack).
// Each is its own function literal, so that V8 keeps each call in it monomorphic.
const TO_EJSON = new Map([
    ['ObjectId', (w, v) => ObjectId.prototype.toExtendedJSON.call(v)],
    ['Int32', (w, v) => int32ExtendedJSON(v, w.relaxed, w.legacy)],
    ['Double', (w, v) => doubleExtendedJSON(v, w.relaxed, w.legacy)],
    ['Long', (w, v) => longExtendedJSON(v, w.relaxed)],
    ['Decimal128', (w, v) => Decimal128.prototype.toExtendedJSON.call(v)],
    ['Binary', (w, v) => binaryExtendedJSON(v, w.legacy)],
    ['Timestamp', (w, v) => Timestamp.prototype.toExtendedJSON.call(v)],
    ['Code', codeToEJSON],
    ['BSONRegExp', (w, v, key) => regExpToEJSON(w, v.pattern, v.options, key)],
    ['BSONSymbol', (w, v) => BSONSymbol.prototype.toExtendedJSON.call(v)],
    ['DBRef', dbRefToEJSON],
    ['MinKey', (w, v) => MinKey.prototype.toExtendedJSON.call(v)],
    ['MaxKey', (w, v) => MaxKey.prototype.toExtendedJSON.call(v)],
    ['DBPointer', (w, v) => DBPointer.prototype.toExtendedJSON.call(v)],
    ['Undefined', (w, v) => BSONUndefined.prototype.toExtendedJSON.call(v)],
]);

function codeToEJSON(w, v, key) {
    if (!v.scope) return codeExtendedJSON(v.code, v.scope);
    w.enter(v, key);
    const scope = toEJSON(w, v.scope, 'scope');
    w.leave();
    return codeExtendedJSON(v.code, scope);
}

// bson converts the parts of a DBRef with an oid, and copies a DBRef without one as it is
function dbRefToEJSON(w, v, key) {
    if (!v.oid) return dbRefExtendedJSON(v, w.legacy);
    let collection = v.collection;
    let db = v.db;
    w.enter(v, key);
    const oid = toEJSON(w, v.oid, 'oid');
    db = toEJSON(w, db, 'db');
    const fields = toEJSON(w, v.fields, 'fields');
    w.leave();
    // rebuilt as bson rebuilds it: a 'db.collection' name sets the db
    const parts = typeof collection === 'string' ? collection.split('.') : null;
    if (parts !== null && parts.length === 2) {
        db = parts[0];
        collection = parts[1];
    }
    return dbRefExtendedJSON({ collection, oid, db, fields }, w.legacy);
}

// ---------------------------------------------------------------------------
// parse: JSON value -> values, wrappers replaced in place

// The reading context of lib/ejson-reading.js, able to read the nested documents
// of the classes' wrappers ($code's $scope, a $regex query operator).
class Reader extends ReadContext {
    readDocument(obj, keys) {
        return documentFromJSON(this, obj, keys);
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
    return dollarKeys !== 0 ? readDBRefExtendedJSON(r, obj, keys) : obj;
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

function dateFromMillis(r, ms) {
    if (!(ms >= -MAX_DATE_MS && ms <= MAX_DATE_MS)) {
        throw r.fail(`$date ${ms} is outside the range of a JavaScript Date`);
    }
    return new Date(ms);
}

// One reader per wrapper key: (reader, object, its keys) -> value; each type
// module's own, but for $date. (Kept as functions beside the classes: a static
// with a computed key made `new Int32` and `new Timestamp` 10-20x slower in V8.)
const FROM_EJSON = new Map([
    ['$oid', readObjectIdExtendedJSON],
    ['$symbol', readSymbolExtendedJSON],
    ['$numberInt', readInt32ExtendedJSON],
    ['$numberLong', readLongExtendedJSON],
    ['$numberDouble', readDoubleExtendedJSON],
    ['$numberDecimal', readDecimal128ExtendedJSON],
    ['$binary', readBinaryExtendedJSON],
    ['$uuid', readUUIDExtendedJSON],
    ['$code', readCodeExtendedJSON],
    ['$timestamp', readTimestampExtendedJSON],
    ['$regularExpression', readRegExpExtendedJSON],
    ['$regex', readRegExpExtendedJSON],
    ['$dbPointer', readDBPointerExtendedJSON],
    ['$date', readDate],
    ['$minKey', readMinKeyExtendedJSON],
    ['$maxKey', readMaxKeyExtendedJSON],
    ['$undefined', readUndefinedExtendedJSON],
]);

// {$date: {$numberLong}} or {$date: ISO-8601 string}; with the legacy option also {$date: millis}
function readDate(r, obj, keys) {
    r.expectKeys(obj, keys, ['$date']);
    const d = obj.$date;
    if (typeof d === 'string') {
        const ms = Date.parse(d);
        if (Number.isNaN(ms)) throw r.fail(`$date ${JSON.stringify(d)} is not an ISO-8601 date`);
        return new Date(ms);
    }
    if (isPlainObjectValue(d) && Object.prototype.hasOwnProperty.call(d, '$numberLong')) {
        r.expectKeys(d, Object.keys(d), ['$numberLong']);
        return dateFromMillis(r, Number(int64FromExtendedJSON(r, d.$numberLong, '$date $numberLong')));
    }
    if (r.legacy && typeof d === 'number') return dateFromMillis(r, d);
    // bson's class and words for a $date of no date form
    const message = `Unrecognized type for EJSON date: ${typeof d}: $date must be an ISO-8601 string or a {$numberLong} object, not ${r.describe(d)}`;
    throw r.fail(message, 'ERR_BSON_EJSON', BSONRuntimeError);
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
    return readMaxDepth(options != null ? options.maxDepth : undefined);
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

const EJSON = Object.freeze(Object.assign(Object.create(null), { parse, stringify, serialize, deserialize }));

module.exports = { EJSON };
