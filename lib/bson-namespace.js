'use strict';

// bson@7's BSON namespace, and the loaders of the exports index.js makes on first
// read. A module of its own so that a bundler can give a program BSON or onDemand
// without index.js, which holds every export (jsonToBSON, the streams, ...).

const { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } = require('./errors');
const { BSONValue } = require('./types/bson-value');
const { ObjectId } = require('./types/objectid');
const { EJSON } = require('./on-first-call/ejson');
const { calculateObjectSize } = require('./on-first-call/size');
const compat = require('./compat');

let onDemand = null;

// Every type class but ObjectId, and bson's utility namespaces, are loaded on
// first read (and LazyDocument: index.js); Extended JSON, calculateObjectSize,
// get/has, lazy and the streams on first call (lib/on-first-call.js):
// require('qbson') takes 6.8 ms in a fresh process instead of 15.0 ms with all of
// them (medians of 11; bson@7's single file: 9.6 ms).
const LAZY_EXPORTS = {
    onDemand: () => (onDemand === null ? (onDemand = compat.makeOnDemand()) : onDemand),
    ByteUtils: () => require('./bson-byte-utils').ByteUtils,
    NumberUtils: () => require('./bson-number-utils').NumberUtils,
    Binary: () => require('./types/binary').Binary,
    UUID: () => require('./types/binary').UUID,
    Long: () => require('./types/long').Long,
    Int32: () => require('./types/int32').Int32,
    Double: () => require('./types/double').Double,
};
// the types stored data rarely holds (the decoder loads them with the first such value)
const RARE_TYPES = ['Timestamp', 'Decimal128', 'Code', 'BSONRegExp', 'BSONSymbol', 'DBRef', 'MinKey', 'MaxKey', 'DBPointer', 'BSONUndefined'];
for (const name of RARE_TYPES) LAZY_EXPORTS[name] = () => require('./types')[name];

// the rest of what bson's BSON namespace holds
const VALUES = {
    BSONError, BSONOffsetError, BSONRuntimeError, BSONVersionError, BSONValue, ObjectId, EJSON, calculateObjectSize,
    BSONType: compat.BSONType,
    bsonType: compat.bsonType,
    deserialize: compat.deserialize,
    deserializeStream: compat.deserializeStream,
    serialize: compat.serialize,
    serializeWithBufferAndIndex: compat.serializeWithBufferAndIndex,
    setInternalBufferSize: compat.setInternalBufferSize,
};

// bson's `BSON` namespace: the names `import { BSON } from 'bson'` holds, no more;
// those loaded on first read are getters
const BSON_NAMESPACE_NAMES = [
    'BSONError', 'BSONOffsetError', 'BSONRegExp', 'BSONRuntimeError', 'BSONSymbol', 'BSONType', 'BSONValue',
    'BSONVersionError', 'Binary', 'ByteUtils', 'Code', 'DBRef', 'Decimal128', 'Double', 'EJSON', 'Int32', 'Long',
    'MaxKey', 'MinKey', 'NumberUtils', 'ObjectId', 'Timestamp', 'UUID', 'bsonType', 'calculateObjectSize',
    'deserialize', 'deserializeStream', 'onDemand', 'serialize', 'serializeWithBufferAndIndex', 'setInternalBufferSize',
];
const BSON = Object.create(null);
for (const name of BSON_NAMESPACE_NAMES) {
    if (name in LAZY_EXPORTS) Object.defineProperty(BSON, name, { enumerable: true, get: LAZY_EXPORTS[name] });
    else BSON[name] = VALUES[name];
}
Object.freeze(BSON);

module.exports = { BSON, LAZY_EXPORTS };
