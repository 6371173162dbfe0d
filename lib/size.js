'use strict';

// calculateObjectSize: the byte length encode() would produce, found by walking
// the value with the encoder's rules without writing anything.

const C = require('./constants');
const { BSONError, isStackOverflow } = require('./errors');
const { utf8Length } = require('./utf8');
const { checkRoot, regExpFlags, isAnyArrayBuffer, dbrefDocument } = require('./encode');

function calculateObjectSize(doc, opts) {
    const serializeFunctions = opts != null && opts.serializeFunctions === true;
    const ignoreUndefined = !(opts != null && opts.ignoreUndefined === false);
    const root = checkRoot(doc);
    if (root === null) return C.MIN_DOCUMENT_SIZE;
    // the containers being measured, outermost first (for cycles and depth)
    const stack = [];
    stack.maxDepth = opts != null && Number.isInteger(opts.maxDepth) ? opts.maxDepth : C.DEFAULT_MAX_DEPTH;
    try {
        return documentSize(root, serializeFunctions, ignoreUndefined, stack);
    } catch (err) {
        if (isStackOverflow(err)) {
            throw new BSONError(`document nests too deeply for the call stack (maxDepth ${stack.maxDepth})`, { code: 'ERR_BSON_TOO_DEEP' });
        }
        throw err;
    }
}

// `self` stands for obj on the stack when obj is built afresh (a DBRef's document).
function documentSize(obj, serializeFunctions, ignoreUndefined, stack, self) {
    if (self === undefined) self = obj;
    if (stack.indexOf(self) !== -1) throw new BSONError('cyclic reference: a document contains itself', { code: 'ERR_BSON_CYCLE' });
    if (stack.length > stack.maxDepth) throw new BSONError(`nesting deeper than maxDepth ${stack.maxDepth}`, { code: 'ERR_BSON_TOO_DEEP' });
    stack.push(self);
    let size = C.MIN_DOCUMENT_SIZE;
    if (Array.isArray(obj)) {
        for (let i = 0; i < obj.length; i++) size += elementSize(String(i), obj[i], true, serializeFunctions, ignoreUndefined, stack);
    } else if (obj instanceof Map) {
        for (const [k, v] of obj) size += elementSize(k, v, false, serializeFunctions, ignoreUndefined, stack);
    } else {
        if (typeof obj.toBSON === 'function') obj = obj.toBSON() || {};
        const keys = Object.keys(obj);
        for (let i = 0; i < keys.length; i++) size += elementSize(keys[i], obj[keys[i]], false, serializeFunctions, ignoreUndefined, stack);
    }
    stack.pop();
    return size;
}

// type byte + key + NUL + the value
function elementSize(key, value, isArrayIndex, serializeFunctions, ignoreUndefined, stack) {
    const header = 2 + utf8Length(key);
    const size = valueSize(value, isArrayIndex, serializeFunctions, ignoreUndefined, stack);
    return size < 0 ? 0 : header + size;
}

function stringSize(str) {
    return 5 + utf8Length(str);
}

// Size of the value alone, or -1 when the element is skipped.
function valueSize(value, isArrayIndex, serializeFunctions, ignoreUndefined, stack) {
    switch (typeof value) {
        case 'string':
            return stringSize(value);
        case 'number':
            return (value | 0) === value && (value !== 0 || 1 / value > 0) ? 4 : 8;
        case 'boolean':
            return 1;
        case 'bigint':
            return 8;
        case 'undefined':
            return isArrayIndex || !ignoreUndefined ? 0 : -1;
        case 'function':
            return serializeFunctions ? stringSize(value.toString()) : -1;
        case 'object':
            break;
        default:
            return -1;
    }
    if (value === null) return 0;
    if (typeof value.toBSON === 'function') {
        value = value.toBSON();
        if (typeof value !== 'object' || value === null) return valueSize(value, isArrayIndex, serializeFunctions, ignoreUndefined, stack);
    }
    if (value._bsontype == null) {
        if (value instanceof Date) return 8;
        if (value instanceof Uint8Array) return 5 + value.length;
        if (value instanceof RegExp) return utf8Length(value.source) + 1 + regExpFlags(value).length + 1;
        if (isAnyArrayBuffer(value)) return 5 + value.byteLength;
        return documentSize(value, serializeFunctions, ignoreUndefined, stack);
    }
    switch (value._bsontype) {
        case 'ObjectId':
            return 12;
        case 'Long':
        case 'Timestamp':
        case 'Double':
            return 8;
        case 'Int32':
            return 4;
        case 'Decimal128':
            return 16;
        case 'Binary':
            return 5 + value.position + (value.sub_type === C.BINARY_OLD ? 4 : 0);
        case 'Code': {
            if (value.scope && typeof value.scope === 'object') {
                return 4 + stringSize(String(value.code)) + documentSize(value.scope, serializeFunctions, ignoreUndefined, stack);
            }
            return stringSize(String(value.code));
        }
        case 'BSONSymbol':
            return stringSize(value.value);
        case 'BSONRegExp':
            return utf8Length(value.pattern) + 1 + utf8Length(value.options) + 1;
        case 'DBRef':
            return documentSize(dbrefDocument(value), serializeFunctions, true, stack, value);
        case 'MinKey':
        case 'MaxKey':
        case 'Undefined':
            return 0;
        case 'DBPointer':
            return stringSize(value.namespace) + 12;
        default:
            throw new BSONError(`unrecognized _bsontype '${String(value._bsontype)}'`);
    }
}

module.exports = { calculateObjectSize };
