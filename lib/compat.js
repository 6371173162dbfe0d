'use strict';

// bson@7's entry points, with its names, argument orders and return values,
// over qbson's encoder and decoder.

const { encode, encodeInto } = require('./encode');
const { decode } = require('./decode');
const { BSONError } = require('./errors');
const { option } = require('./options');

function serialize(object, options) {
    return encode(object, options);
}

// bson returns the index of the last byte written, not the one after it.
function serializeWithBufferAndIndex(object, finalBuffer, options) {
    const given = option(options, 'index');
    const index = typeof given === 'number' ? given : 0;
    return encodeInto(object, finalBuffer, index, options) - 1;
}

function deserialize(buffer, options) {
    return decode(buffer, options);
}

// Decodes numberOfDocuments documents from data at startIndex into
// documents[docStartIndex...]; returns the index after the last one.
function deserializeStream(data, startIndex, numberOfDocuments, documents, docStartIndex, options) {
    const buf = data instanceof ArrayBuffer ? Buffer.from(data) : data;
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

module.exports = { serialize, serializeWithBufferAndIndex, deserialize, deserializeStream };
