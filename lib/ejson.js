'use strict';

// MongoDB Extended JSON (canonical, relaxed and legacy), with bson@7's EJSON API.

const { BSONError } = require('./errors');

function notReady() {
    throw new BSONError('EJSON is not implemented yet');
}

const EJSON = Object.freeze({
    parse: notReady,
    stringify: notReady,
    serialize: notReady,
    deserialize: notReady,
});

module.exports = { EJSON };
