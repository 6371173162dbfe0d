'use strict';

// Every BSON type class, from one place.

const { BSONValue } = require('./bson-value');
const { ObjectId } = require('./objectid');
const { Binary, UUID } = require('./binary');
const { Long } = require('./long');
const { Timestamp } = require('./timestamp');
const { Int32 } = require('./int32');
const { Double } = require('./double');
const { Decimal128 } = require('./decimal128');
const { Code } = require('./code');
const { BSONRegExp } = require('./bson-regexp');
const { BSONSymbol } = require('./bson-symbol');
const { DBRef } = require('./dbref');
const { MinKey, MaxKey } = require('./min-max-key');
const { DBPointer, BSONUndefined } = require('./deprecated');

module.exports = {
    BSONValue,
    ObjectId,
    Binary,
    UUID,
    Long,
    Timestamp,
    Int32,
    Double,
    Decimal128,
    Code,
    BSONRegExp,
    BSONSymbol,
    DBRef,
    MinKey,
    MaxKey,
    DBPointer,
    BSONUndefined,
};
