'use strict';

// The public face of qbson: re-exports only.

const { encode, encodeInto } = require('./lib/encode');
const { decode, decodeAll } = require('./lib/decode');
const { calculateObjectSize } = require('./lib/size');
const compat = require('./lib/compat');
const { BSONError } = require('./lib/errors');
const { decodeStream, encodeStream } = require('./lib/stream');
const types = require('./lib/types');

module.exports = {
    encode,
    encodeInto,
    decode,
    decodeAll,
    decodeStream,
    encodeStream,
    calculateObjectSize,
    ...compat,
    BSONError,
    EJSON: require('./lib/ejson').EJSON,
    ...types,
};
