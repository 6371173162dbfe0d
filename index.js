'use strict';

// The public face of qbson: re-exports only.

const { encode, encodeInto } = require('./lib/encode');
const { decode, decodeAll } = require('./lib/decode');
const { calculateObjectSize } = require('./lib/size');
const { get, has } = require('./lib/lookup');
const { lazy, LazyDocument } = require('./lib/lazy');
const compat = require('./lib/compat');
const { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } = require('./lib/errors');
const { decodeStream, encodeStream } = require('./lib/stream');
const types = require('./lib/types');

const qbson = {
    encode,
    encodeInto,
    decode,
    decodeAll,
    decodeStream,
    get,
    has,
    lazy,
    LazyDocument,
    encodeStream,
    calculateObjectSize,
    ...compat,
    BSONError,
    BSONVersionError,
    BSONRuntimeError,
    BSONOffsetError,
    EJSON: require('./lib/ejson').EJSON,
    ...types,
};

// bson's `BSON` namespace: the names `import { BSON } from 'bson'` holds, no more.
const BSON_NAMESPACE_NAMES = [
    'BSONError', 'BSONOffsetError', 'BSONRegExp', 'BSONRuntimeError', 'BSONSymbol', 'BSONType', 'BSONValue',
    'BSONVersionError', 'Binary', 'ByteUtils', 'Code', 'DBRef', 'Decimal128', 'Double', 'EJSON', 'Int32', 'Long',
    'MaxKey', 'MinKey', 'NumberUtils', 'ObjectId', 'Timestamp', 'UUID', 'bsonType', 'calculateObjectSize',
    'deserialize', 'deserializeStream', 'onDemand', 'serialize', 'serializeWithBufferAndIndex', 'setInternalBufferSize',
];
const BSON = Object.create(null);
for (const name of BSON_NAMESPACE_NAMES) BSON[name] = qbson[name];
qbson.BSON = Object.freeze(BSON);

module.exports = qbson;
