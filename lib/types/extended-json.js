'use strict';

// Reading the Extended JSON wrappers of the types whose classes have no reader of
// their own ({$oid}, {$numberInt}, {$timestamp}, ...), for lib/ejson.js. Each class
// writes its own wrapper (toExtendedJSON); the readers are kept here, apart from the
// classes, so that a program that never reads Extended JSON does not carry them:
// they were 4.4 KB of a minified encode + decode bundle. Binary's and Long's
// readers stay in their modules, as their fromExtendedJSON hooks, which bson has,
// call them. Each reader is (r, obj, keys) -> value, `r` a ReadContext
// (lib/ejson-reading.js), `keys` obj's own keys.

const { BSON_INT32_MAX, BSON_INT32_MIN } = require('../constants');
const { ObjectId } = require('./objectid');
const { int32FromText } = require('./int32');
const { doubleFromText } = require('./double');
const { Decimal128 } = require('./decimal128');
const { Timestamp } = require('./timestamp');
const { Code } = require('./code');
const { BSONRegExp, REGEXP_OPTIONS } = require('./bson-regexp');
const { BSONSymbol } = require('./bson-symbol');
const { DBRef } = require('./dbref');
const { MinKey, MaxKey } = require('./min-max-key');
const { DBPointer, BSONUndefined } = require('./deprecated');

const UINT32_MAX = 0xffffffff;

// An {$oid}'s text, exactly 24 hex digits; `what` names it in errors.
function objectIdFromExtendedJSON(r, text, what) {
    r.expectString(text, what);
    if (!ObjectId.isValid(text)) throw r.fail(`${what} must be 24 hexadecimal digits, found ${JSON.stringify(text)}`);
    return new ObjectId(text);
}

// {$oid: 24 hex digits}
function readObjectIdExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$oid']);
    return objectIdFromExtendedJSON(r, obj.$oid, '$oid');
}

const NUMBER_INT_RE = /^[+-]?[0-9]+$/;

// {$numberInt: decimal text in the int32 range}
function readInt32ExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$numberInt']);
    const s = r.expectString(obj.$numberInt, '$numberInt');
    const n = NUMBER_INT_RE.test(s) ? Number(s) : NaN;
    if (!(n >= BSON_INT32_MIN && n <= BSON_INT32_MAX)) {
        throw r.fail(`$numberInt ${JSON.stringify(s)} is not a 32-bit integer`);
    }
    return int32FromText(s, r.relaxed);
}

const NUMBER_DOUBLE_RE = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity|NaN)$/;

// {$numberDouble: decimal or exponential text, 'Infinity', '-Infinity' or 'NaN'}
function readDoubleExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$numberDouble']);
    const s = r.expectString(obj.$numberDouble, '$numberDouble');
    if (!NUMBER_DOUBLE_RE.test(s)) throw r.fail(`$numberDouble ${JSON.stringify(s)} is not a number`);
    return doubleFromText(s, r.relaxed);
}

// {$numberDecimal: text Decimal128.fromString takes}
function readDecimal128ExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$numberDecimal']);
    const s = r.expectString(obj.$numberDecimal, '$numberDecimal');
    try {
        return Decimal128.fromString(s);
    } catch (err) {
        throw r.fail(`$numberDecimal ${JSON.stringify(s)} is not a Decimal128 value (${err.message})`);
    }
}

function uint32FromExtendedJSON(r, value, what) {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
        throw r.fail(`${what} must be an integer from 0 to ${UINT32_MAX}, not ${r.describe(value)}`);
    }
    return value;
}

// {$timestamp: {t, i}}, each an integer from 0 to 2^32 - 1
function readTimestampExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$timestamp']);
    const inner = r.expectObject(obj.$timestamp, '$timestamp must be an object with t and i');
    r.expectKeys(inner, Object.keys(inner), ['t', 'i']);
    const t = uint32FromExtendedJSON(r, inner.t, '$timestamp t');
    const i = uint32FromExtendedJSON(r, inner.i, '$timestamp i');
    return new Timestamp({ t, i });
}

// {$code} or {$code, $scope: a document}; lib/ejson.js's reader converts the scope
function readCodeExtendedJSON(r, obj, keys) {
    if (keys.length === 1) {
        r.expectKeys(obj, keys, ['$code']);
        return new Code(r.expectString(obj.$code, '$code'));
    }
    r.expectKeys(obj, keys, ['$code', '$scope']);
    const code = r.expectString(obj.$code, '$code');
    const scope = r.expectObject(obj.$scope, '$scope must be a document');
    r.keys.push('$scope');
    r.readDocument(scope, Object.keys(scope));
    r.keys.pop();
    return new Code(code, scope);
}

function regExpFromExtendedJSON(r, pattern, options) {
    if (pattern.indexOf('\x00') !== -1) throw r.fail(`a regular expression pattern cannot contain null bytes, found ${JSON.stringify(pattern)}`);
    if (options.indexOf('\x00') !== -1) throw r.fail(`regular expression options cannot contain null bytes, found ${JSON.stringify(options)}`);
    for (let i = 0; i < options.length; i++) {
        if (REGEXP_OPTIONS.indexOf(options[i]) === -1) throw r.fail(`the regular expression option '${options[i]}' is not supported`);
    }
    return new BSONRegExp(pattern, BSONRegExp.parseOptions(options));
}

// {$regularExpression: {pattern, options}}, or the legacy {$regex: pattern, $options?: options},
// read in every mode as bson reads it; any other $regex is the query operator, left a document
function readRegExpExtendedJSON(r, obj, keys) {
    if (!Object.prototype.hasOwnProperty.call(obj, '$regularExpression')) {
        const options = obj.$options;
        const isLegacyRegExp =
            typeof obj.$regex === 'string' &&
            (keys.length === 1 || (keys.length === 2 && typeof options === 'string'));
        if (isLegacyRegExp) return regExpFromExtendedJSON(r, obj.$regex, options === undefined ? '' : options);
        return r.readDocument(obj, keys);
    }
    r.expectKeys(obj, keys, ['$regularExpression']);
    const inner = r.expectObject(obj.$regularExpression, '$regularExpression must be an object with pattern and options');
    r.expectKeys(inner, Object.keys(inner), ['pattern', 'options']);
    const pattern = r.expectString(inner.pattern, '$regularExpression pattern');
    return regExpFromExtendedJSON(r, pattern, r.expectString(inner.options, '$regularExpression options'));
}

// {$symbol: a string}
function readSymbolExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$symbol']);
    return new BSONSymbol(r.expectString(obj.$symbol, '$symbol'));
}

// A document whose values are read already: a DBRef if it follows the convention
// ($ref a string, $id present, $db absent or a string, no other $-keys), else
// the document as it is (spec).
function readDBRefExtendedJSON(r, obj, keys) {
    if (typeof obj.$ref !== 'string' || obj.$id == null) return obj;
    if (obj.$db !== undefined && typeof obj.$db !== 'string') return obj;
    for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (k.charCodeAt(0) === 36 /* $ */ && k !== '$ref' && k !== '$id' && k !== '$db') return obj;
    }
    return DBRef.fromExtendedJSON(obj);
}

// {$minKey: 1} or {$maxKey: 1}
function readKeyWrapper(r, obj, keys, key, KeyClass) {
    r.expectKeys(obj, keys, [key]);
    if (obj[key] !== 1) throw r.fail(`${key} must be 1, not ${r.describe(obj[key])}`);
    return new KeyClass();
}

function readMinKeyExtendedJSON(r, obj, keys) {
    return readKeyWrapper(r, obj, keys, '$minKey', MinKey);
}

function readMaxKeyExtendedJSON(r, obj, keys) {
    return readKeyWrapper(r, obj, keys, '$maxKey', MaxKey);
}

// {$dbPointer: {$ref, $id: {$oid}}}: a DBRef, as bson gives it; a DBPointer with
// the preserveDeprecated option
function readDBPointerExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$dbPointer']);
    const inner = r.expectObject(obj.$dbPointer, '$dbPointer must be an object with $ref and $id');
    r.expectKeys(inner, Object.keys(inner), ['$ref', '$id']);
    const namespace = r.expectString(inner.$ref, '$dbPointer $ref');
    const id = r.expectObject(inner.$id, '$dbPointer $id must be an {$oid} object');
    r.expectKeys(id, Object.keys(id), ['$oid']);
    const oid = objectIdFromExtendedJSON(r, id.$oid, '$dbPointer $id');
    return r.preserveDeprecated ? new DBPointer(namespace, oid) : new DBRef(namespace, oid);
}

// {$undefined: true}: null, as bson gives it; a BSONUndefined with the preserveDeprecated option
function readUndefinedExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$undefined']);
    if (obj.$undefined !== true) throw r.fail(`$undefined must be true, not ${r.describe(obj.$undefined)}`);
    return r.preserveDeprecated ? new BSONUndefined() : null;
}

module.exports = {
    readObjectIdExtendedJSON,
    readInt32ExtendedJSON,
    readDoubleExtendedJSON,
    readDecimal128ExtendedJSON,
    readTimestampExtendedJSON,
    readCodeExtendedJSON,
    readRegExpExtendedJSON,
    readSymbolExtendedJSON,
    readDBRefExtendedJSON,
    readMinKeyExtendedJSON,
    readMaxKeyExtendedJSON,
    readDBPointerExtendedJSON,
    readUndefinedExtendedJSON,
};
