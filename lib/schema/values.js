'use strict';

// Values as a $jsonSchema sees them: the BSON type each would be stored as, the
// fields of a document in the order encode writes them, numbers compared across
// types, and equality as the server's enum and uniqueItems compare (numbers by
// value whatever their type, a document's fields in any order).
//
// A JavaScript value is typed as encode (lib/encode.js) would write it: a number
// is an int when it is an integer in int32 range and not -0, else a double; an
// Int32, Double, Long or Decimal128 is its own type. The decoded form the codec
// checks (decode with promoteValues: false) carries Int32 and Double, so a
// stored double 1.0 stays a double.

const { storesAsInt32 } = require('../number-runs');
const { dbrefDocument } = require('../encode');

// the bsonType of a value that holds one; null for a value encode leaves out
// (undefined in a document, a function, a symbol)
function bsonTypeOf(value, ctx) {
    switch (typeof value) {
        case 'string': return 'string';
        case 'number': return storesAsInt32(value) ? 'int' : 'double';
        case 'boolean': return 'bool';
        case 'bigint': return 'long';
        case 'undefined': return ctx !== undefined && ctx.undefinedAsNull ? 'null' : null;
        case 'function': return ctx !== undefined && ctx.serializeFunctions ? 'javascript' : null;
        case 'object': return value === null ? 'null' : objectType(value);
        default: return null;
    }
}

const TAGS = {
    ObjectId: 'objectId', Long: 'long', Timestamp: 'timestamp', Double: 'double', Int32: 'int', Binary: 'binData',
    MinKey: 'minKey', MaxKey: 'maxKey', Decimal128: 'decimal', BSONSymbol: 'symbol', BSONRegExp: 'regex',
    DBRef: 'object', DBPointer: 'dbPointer', Undefined: 'undefined',
};

function objectType(value) {
    const tag = value._bsontype;
    if (typeof tag === 'string') {
        if (tag === 'Code') return value.scope && typeof value.scope === 'object' ? 'javascriptWithScope' : 'javascript';
        return Object.prototype.hasOwnProperty.call(TAGS, tag) ? TAGS[tag] : 'unknown';
    }
    if (Array.isArray(value)) return 'array';
    if (value instanceof Date) return 'date';
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) return 'binData';
    if (value instanceof RegExp) return 'regex';
    return 'object';
}

// What encode writes for a value: what its toBSON returns, when it has one.
function stored(value) {
    if (value !== null && typeof value === 'object' && typeof value.toBSON === 'function') return value.toBSON();
    return value;
}

// [key, value] pairs of a document in the order encode writes them, the values
// encode leaves out left out
function entriesOf(doc, ctx) {
    const out = [];
    if (doc instanceof Map) {
        for (const [k, v] of doc) pushEntry(out, String(k), v, ctx);
        return out;
    }
    if (doc._bsontype === 'DBRef') doc = dbrefDocument(doc);
    const keys = Object.keys(doc);
    for (let i = 0; i < keys.length; i++) pushEntry(out, keys[i], doc[keys[i]], ctx);
    return out;
}

function pushEntry(out, key, raw, ctx) {
    const value = stored(raw);
    if (bsonTypeOf(value, ctx) !== null) out.push([key, value]);
}

// the elements of an array as encode writes them: undefined is null
const AS_ELEMENT = { undefinedAsNull: true, serializeFunctions: false };

// ---- numbers ----

const NUMBER_TYPES = new Set(['int', 'long', 'double', 'decimal']);

// a number as a JS number or bigint (a Long as a bigint, a Decimal128 as the
// nearest double); NaN for NaN
function numeric(value, type) {
    switch (type) {
        case 'int':
        case 'double':
            return typeof value === 'number' ? value : value.value;
        case 'long':
            return typeof value === 'bigint' ? value : value.toBigInt();
        case 'decimal':
            return Number(decimalText(value));
        default:
            return NaN;
    }
}

function decimalText(value) {
    return value.toString();
}

// -1, 0 or 1, with NaN below every number and equal to itself, as BSON orders them
function compareNumbers(a, b) {
    const aNaN = typeof a === 'number' && a !== a;
    const bNaN = typeof b === 'number' && b !== b;
    if (aNaN || bNaN) return aNaN && bNaN ? 0 : aNaN ? -1 : 1;
    if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === 'bigint') return compareBigNumber(a, b);
    return -compareBigNumber(b, a);
}

function compareBigNumber(big, num) {
    if (num === Infinity) return -1;
    if (num === -Infinity) return 1;
    const floor = Math.floor(num);
    const f = BigInt(floor);
    if (big < f) return -1;
    if (big > f) return 1;
    return floor === num ? 0 : -1;
}

// A number as an exact decimal { c: bigint coefficient, e: exponent }, or null
// for NaN and the infinities. A double is taken to 15 significant digits, as the
// server's Decimal128 conversion takes it, so 0.0075 is a multiple of 0.0001.
function toDecimal(value, type) {
    switch (type) {
        case 'int':
            return { c: BigInt(numeric(value, type)), e: 0 };
        case 'long':
            return { c: numeric(value, type), e: 0 };
        case 'double': {
            const n = numeric(value, type);
            return Number.isFinite(n) ? parseDecimal(n.toExponential(14)) : null;
        }
        case 'decimal':
            return parseDecimal(decimalText(value));
        default:
            return null;
    }
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function parseDecimal(text) {
    const m = DECIMAL.exec(text);
    if (m === null || (m[2] === '' && (m[3] === undefined || m[3] === ''))) return null;
    const fraction = m[3] || '';
    const c = BigInt((m[2] || '0') + fraction);
    return { c: m[1] === '-' ? -c : c, e: (m[4] ? Number(m[4]) : 0) - fraction.length };
}

// whether value is a whole multiple of divisor (a positive decimal)
function isMultipleOf(value, type, divisor) {
    const v = toDecimal(value, type);
    if (v === null) return false;
    if (v.c === 0n) return true;
    const e = Math.min(v.e, divisor.e);
    const a = v.c * 10n ** BigInt(v.e - e);
    const b = divisor.c * 10n ** BigInt(divisor.e - e);
    return a % b === 0n;
}

// ---- strings ----

// length in code points, as the server counts
function codePoints(str) {
    let n = str.length;
    for (let i = 0; i < str.length; i++) {
        const c = str.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
            const d = str.charCodeAt(i + 1);
            if (d >= 0xdc00 && d <= 0xdfff) {
                n--;
                i++;
            }
        }
    }
    return n;
}

// the text a string-like value holds (string and symbol compare alike)
function textOf(value) {
    return typeof value === 'string' ? value : value.value;
}

// ---- equality ----

// The server's canonical type classes: values of different classes never compare equal.
function canonicalClass(type) {
    if (NUMBER_TYPES.has(type)) return 'number';
    if (type === 'symbol') return 'string';
    return type;
}

function bytesOf(value) {
    if (value instanceof Uint8Array) return { sub: 0, bytes: value };
    if (value instanceof ArrayBuffer) return { sub: 0, bytes: new Uint8Array(value) };
    return { sub: value.sub_type, bytes: value.buffer.subarray(0, value.position) };
}

function sameBytes(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}

function regexParts(value) {
    if (value instanceof RegExp) {
        let flags = '';
        if (value.ignoreCase) flags += 'i';
        if (value.multiline) flags += 'm';
        if (value.global) flags += 's';
        return [value.source, flags.split('').sort().join('')];
    }
    return [value.pattern, value.options.split('').sort().join('')];
}

// equal as the server's enum and uniqueItems compare two BSON values
function bsonEqual(a, b, ctx) {
    const ta = bsonTypeOf(a, ctx || AS_ELEMENT);
    const tb = bsonTypeOf(b, ctx || AS_ELEMENT);
    if (canonicalClass(ta) !== canonicalClass(tb)) return false;
    switch (canonicalClass(ta)) {
        case 'number':
            return sameNumber(a, ta, b, tb);
        case 'string':
            return textOf(a) === textOf(b);
        case 'bool':
            return a === b;
        case 'null':
        case 'undefined':
        case 'minKey':
        case 'maxKey':
            return true;
        case 'date':
            return Object.is(a.getTime(), b.getTime()) || (a.getTime() !== a.getTime() && b.getTime() !== b.getTime());
        case 'objectId':
            return a.toHexString() === b.toHexString();
        case 'timestamp':
        case 'long':
            return a.high === b.high && a.low === b.low;
        case 'binData': {
            const x = bytesOf(a);
            const y = bytesOf(b);
            return x.sub === y.sub && sameBytes(x.bytes, y.bytes);
        }
        case 'regex': {
            const x = regexParts(a);
            const y = regexParts(b);
            return x[0] === y[0] && x[1] === y[1];
        }
        case 'javascript':
            return String(a.code) === String(b.code);
        case 'javascriptWithScope':
            return String(a.code) === String(b.code) && sameDocument(a.scope, b.scope);
        case 'dbPointer':
            return a.namespace === b.namespace && a.oid.toHexString() === b.oid.toHexString();
        case 'array':
            return sameArray(a, b);
        case 'object':
            return sameDocument(a, b);
        default:
            return false;
    }
}

function sameNumber(a, ta, b, tb) {
    if (ta === 'decimal' && tb === 'decimal') {
        const x = toDecimal(a, ta);
        const y = toDecimal(b, tb);
        if (x === null || y === null) return decimalText(a) === decimalText(b) || (Number.isNaN(numeric(a, ta)) && Number.isNaN(numeric(b, tb)));
        return compareDecimal(x, y) === 0;
    }
    return compareNumbers(numeric(a, ta), numeric(b, tb)) === 0;
}

function compareDecimal(x, y) {
    const e = Math.min(x.e, y.e);
    const a = x.c * 10n ** BigInt(x.e - e);
    const b = y.c * 10n ** BigInt(y.e - e);
    return a < b ? -1 : a > b ? 1 : 0;
}

function sameArray(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!bsonEqual(stored(a[i]), stored(b[i]))) return false;
    return true;
}

// the same fields with equal values, in any order
function sameDocument(a, b) {
    const x = entriesOf(a);
    const y = entriesOf(b);
    if (x.length !== y.length) return false;
    const byKey = new Map(y);
    for (const [k, v] of x) {
        if (!byKey.has(k) || !bsonEqual(v, byKey.get(k))) return false;
    }
    return true;
}

// ---- showing values in messages ----

const MAX_SHOWN = 60;

function show(value, type) {
    let text;
    switch (type) {
        case 'string':
        case 'symbol':
            text = JSON.stringify(textOf(value));
            break;
        case 'int':
        case 'double':
        case 'long':
            text = String(numeric(value, type));
            break;
        case 'decimal':
            text = decimalText(value);
            break;
        case 'bool':
        case 'null':
            text = String(value);
            break;
        case 'date':
            text = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
            break;
        case 'objectId':
            text = `ObjectId('${value.toHexString()}')`;
            break;
        case 'array':
            return `an array of ${value.length}`;
        case 'object':
            return 'a document';
        default:
            return `a value of type ${type}`;
    }
    return text.length > MAX_SHOWN ? text.slice(0, MAX_SHOWN) + '...' : text;
}

module.exports = {
    bsonTypeOf, entriesOf, stored, AS_ELEMENT, NUMBER_TYPES, numeric, compareNumbers, toDecimal, parseDecimal, isMultipleOf,
    codePoints, textOf, bsonEqual, show,
};
