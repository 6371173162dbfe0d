'use strict';

// The public face of qbson: re-exports only.

const { encode, encodeInto } = require('./lib/encode');
const { decode, decodeAll } = require('./lib/decode');
// makeOnDemand is not an export: onDemand is made from it on first read
const { makeOnDemand, ...compat } = require('./lib/compat');
const { BSON, LAZY_EXPORTS: BSON_LAZY_EXPORTS } = require('./lib/bson-namespace');
const { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError } = require('./lib/errors');
const { BSONValue } = require('./lib/types/bson-value');
const { ObjectId } = require('./lib/types/objectid');
const { EJSON, calculateObjectSize, get, has, lazy, decodeStream, encodeStream, jsonToBSON, bsonToJSON } = require('./lib/on-first-call');
const { compile } = require('./lib/on-first-call/schema');

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
    compile,
};

// the exports loaded on first read (lib/bson-namespace.js says why): bson's, and LazyDocument
const { onDemand, ByteUtils, NumberUtils, ...types } = BSON_LAZY_EXPORTS;
const LAZY_EXPORTS = { onDemand, ByteUtils, NumberUtils, LazyDocument: () => require('./lib/lazy').LazyDocument, ...types };
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

qbson.BSON = BSON;

module.exports = qbson;
