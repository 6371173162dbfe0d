'use strict';

// bson@7's entry points, with its names, argument orders and return values,
// over qbson's encoder and decoder.

const { encode, encodeInto } = require('./encode');
const { decode } = require('./decode');
const { BSONError } = require('./errors');
const { option, readIndex, describe } = require('./options');
const C = require('./constants');

// bson's names for the type bytes (minKey is -1 here, as in bson, though its byte is 0xff)
const BSONType = Object.freeze({
    double: C.BSON_DOUBLE,
    string: C.BSON_STRING,
    object: C.BSON_DOCUMENT,
    array: C.BSON_ARRAY,
    binData: C.BSON_BINARY,
    undefined: C.BSON_UNDEFINED,
    objectId: C.BSON_OBJECTID,
    bool: C.BSON_BOOLEAN,
    date: C.BSON_DATE,
    null: C.BSON_NULL,
    regex: C.BSON_REGEXP,
    dbPointer: C.BSON_DBPOINTER,
    javascript: C.BSON_CODE,
    symbol: C.BSON_SYMBOL,
    javascriptWithScope: C.BSON_CODE_W_SCOPE,
    int: C.BSON_INT32,
    timestamp: C.BSON_TIMESTAMP,
    long: C.BSON_INT64,
    decimal: C.BSON_DECIMAL128,
    minKey: -1,
    maxKey: C.BSON_MAXKEY,
});

// bson's experimental API for reading documents in place (the MongoDB driver's
// replies); index.js makes it when it is first read
function makeOnDemand() {
    const { ByteUtils } = require('./bson-byte-utils');
    const { NumberUtils } = require('./bson-number-utils');
    return Object.freeze(Object.assign(Object.create(null), { parseToElements, ByteUtils, NumberUtils }));
}

// The element scanner (lib/elements.js) loads on the first call: import 'qbson' binds onDemand,
// and need not parse the scanner's 9.7 KB of source.
function parseToElements(bytes, startOffset) {
    return require('./elements').parseToElements(bytes, startOffset);
}

// bson serializes through a fixed buffer of this size; qbson sizes each output to
// its document, so there is nothing to resize: the call is accepted, whatever its
// argument (as bson accepts any), and does nothing.
function setInternalBufferSize() {}

function serialize(object, options) {
    return encode(object, options);
}

// bson returns the index of the last byte written, not the one after it.
function serializeWithBufferAndIndex(object, finalBuffer, options) {
    const given = option(options, 'index');
    // bson takes any number as the index and ignores anything else
    const index = typeof given === 'number' && finalBuffer instanceof Uint8Array ? readIndex(given, finalBuffer.length) : 0;
    return encodeInto(object, finalBuffer, index, options) - 1;
}

function deserialize(buffer, options) {
    return decode(buffer, options);
}

// Decodes numberOfDocuments documents from data at startIndex into
// documents[docStartIndex...]; returns the index after the last one.
function deserializeStream(data, startIndex, numberOfDocuments, documents, docStartIndex, options) {
    const buf = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    if (!Number.isInteger(startIndex) || startIndex < 0) throw new BSONError(`deserializeStream's startIndex must be a whole number, not ${describe(startIndex)}`);
    const opts = Object.assign({}, options, { allowObjectSmallerThanBufferSize: true });
    let index = startIndex;
    for (let i = 0; i < numberOfDocuments; i++) {
        if (index + 4 > buf.length) {
            throw new BSONError(`document ${i} needs a 4-byte length but only ${buf.length - index} bytes remain at offset ${index}`, {
                code: 'ERR_BSON_TRUNCATED',
                offset: index,
            });
        }
        opts.index = index;
        documents[docStartIndex + i] = decode(buf, opts);
        index += buf[index] | (buf[index + 1] << 8) | (buf[index + 2] << 16) | (buf[index + 3] << 24);
    }
    return index;
}

module.exports = {
    serialize,
    serializeWithBufferAndIndex,
    deserialize,
    deserializeStream,
    setInternalBufferSize,
    BSONType,
    bsonType: C.BSON_TYPE_SYMBOL,
    makeOnDemand,
};
