'use strict';

// calculateObjectSize: the byte length encode() would produce, found by walking
// the value with the encoder's rules without writing anything.

const C = require('./constants');
const { BSONError, isStackOverflow } = require('./errors');
const { readEncodeOptions } = require('./options');
const { utf8Length } = require('./utf8');
const { ContainerStack } = require('./container-stack');
const { checkRoot, storesAsInt32, regExpFlags, isAnyArrayBuffer, dbrefDocument, primitivesHaveToBSON } = require('./encode');

class Measurer extends ContainerStack {
    constructor(opts) {
        super('ERR_BSON_ENCODE');
        // encode's options, read as encode reads them: checkKeys and maxDocumentSize change no size
        this.checkKeys = false;
        this.serializeFunctions = false;
        this.ignoreUndefined = true;
        this.maxDocumentSize = 0;
        if (opts != null) readEncodeOptions(this, opts);
        this.primitiveToBSON = primitivesHaveToBSON();
    }
}

function calculateObjectSize(doc, opts) {
    const root = checkRoot(doc);
    if (root === null) return C.MIN_DOCUMENT_SIZE;
    const m = new Measurer(opts);
    try {
        return documentSize(m, root, '');
    } catch (err) {
        if (isStackOverflow(err)) {
            throw new BSONError(`document nests too deeply for the call stack (maxDepth ${m.maxDepth})`, { code: 'ERR_BSON_TOO_DEEP' });
        }
        throw err;
    }
}

// `self` stands for obj on the stack when obj is built afresh (a DBRef's document).
function documentSize(m, obj, key, self) {
    m.enter(self === undefined ? obj : self, key);
    let size = C.MIN_DOCUMENT_SIZE;
    if (Array.isArray(obj)) {
        for (let i = 0; i < obj.length; i++) size += elementSize(m, String(i), obj[i], true);
    } else if (obj instanceof Map) {
        for (const [k, v] of obj) size += elementSize(m, k, v, false);
    } else {
        if (typeof obj.toBSON === 'function') obj = obj.toBSON() || {};
        const keys = Object.keys(obj);
        for (let i = 0; i < keys.length; i++) size += elementSize(m, keys[i], obj[keys[i]], false);
    }
    m.leave();
    return size;
}

// type byte + key + NUL + the value
function elementSize(m, key, value, isArrayIndex) {
    const size = valueSize(m, key, value, isArrayIndex);
    return size < 0 ? 0 : 2 + utf8Length(key) + size;
}

function stringSize(str) {
    return 5 + utf8Length(str);
}

// Size of the value alone, or -1 when the element is skipped. A primitive's
// inherited toBSON is called as encode calls it (see primitivesHaveToBSON).
function valueSize(m, key, value, isArrayIndex) {
    if (m.primitiveToBSON && value != null && typeof value !== 'object' && typeof value.toBSON === 'function') {
        return convertedValueSize(m, key, value.toBSON(), isArrayIndex);
    }
    return convertedValueSize(m, key, value, isArrayIndex);
}

// Size of a value whose toBSON, if any, has been called (or is for documentSize to call).
function convertedValueSize(m, key, value, isArrayIndex) {
    switch (typeof value) {
        case 'string':
            return stringSize(value);
        case 'number':
            return storesAsInt32(value) ? 4 : 8;
        case 'boolean':
            return 1;
        case 'bigint':
            return 8;
        case 'undefined':
            return isArrayIndex || !m.ignoreUndefined ? 0 : -1;
        case 'function':
            return m.serializeFunctions ? stringSize(value.toString()) : -1;
        case 'object':
            break;
        default:
            return -1;
    }
    if (value === null) return 0;
    if (typeof value.toBSON === 'function') {
        value = value.toBSON();
        if (typeof value !== 'object' || value === null) return convertedValueSize(m, key, value, isArrayIndex);
    }
    if (value._bsontype == null) {
        if (value instanceof Date) return 8;
        if (value instanceof Uint8Array) return 5 + value.length;
        if (value instanceof RegExp) return utf8Length(value.source) + 1 + regExpFlags(value).length + 1;
        if (isAnyArrayBuffer(value)) return 5 + value.byteLength;
        return documentSize(m, value, key);
    }
    if (value[C.BSON_VERSION_SYMBOL] !== C.BSON_MAJOR_VERSION) throw m.versionError(value._bsontype, key);
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
                return 4 + stringSize(String(value.code)) + documentSize(m, value.scope, key);
            }
            return stringSize(String(value.code));
        }
        case 'BSONSymbol':
            return stringSize(value.value);
        case 'BSONRegExp':
            return utf8Length(value.pattern) + 1 + utf8Length(value.options) + 1;
        case 'DBRef':
            return dbrefSize(m, key, value);
        case 'MinKey':
        case 'MaxKey':
        case 'Undefined':
            return 0;
        case 'DBPointer':
            return stringSize(value.namespace) + 12;
        default:
            throw m.fail(`Unrecognized or invalid _bsontype: ${String(value._bsontype)}`, key);
    }
}

// A DBRef's document drops undefined values whatever ignoreUndefined says, as encode writes it.
function dbrefSize(m, key, value) {
    const ignoreUndefined = m.ignoreUndefined;
    m.ignoreUndefined = true;
    const size = documentSize(m, dbrefDocument(value), key, value);
    m.ignoreUndefined = ignoreUndefined;
    return size;
}

module.exports = { calculateObjectSize };
