'use strict';

// The public face of qbson: re-exports only.

const { encode, encodeInto } = require('./lib/encode');
const { decode, decodeAll } = require('./lib/decode');
const { calculateObjectSize } = require('./lib/size');
const compat = require('./lib/compat');
const { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } = require('./lib/errors');
const types = require('./lib/types');

const qbson = {
    encode,
    encodeInto,
    decode,
    decodeAll,
    calculateObjectSize,
    ...compat,
    BSONError,
    BSONVersionError,
    BSONRuntimeError,
    BSONOffsetError,
    ...types,
};

// Streams, Extended JSON and reading in place are loaded on first use: with
// them, require('qbson') took 110M instructions over bare node, without 72M
// (bson@7's single file: 78M).
const LAZY_EXPORTS = {
    decodeStream: () => require('./lib/stream').decodeStream,
    encodeStream: () => require('./lib/stream').encodeStream,
    get: () => require('./lib/lookup').get,
    has: () => require('./lib/lookup').has,
    lazy: () => require('./lib/lazy').lazy,
    LazyDocument: () => require('./lib/lazy').LazyDocument,
    EJSON: () => require('./lib/ejson').EJSON,
};
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
