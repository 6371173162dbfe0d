'use strict';

// bson@7's NumberUtils: fixed-size little-endian numbers read from and written
// to any Uint8Array at an offset. Like bson's, these do no bounds checks.

const { BIG_ENDIAN_HOST, readInt32LE, readUint32LE, writeInt32LE, readDoubleLE, writeDoubleLE, readBigInt64LE, writeBigInt64LE } = require('./bytes');

// bson's contract: a negative size is a RangeError (its callers turn it into a BSONError)
function getNonnegativeInt32LE(source, offset) {
    const value = readInt32LE(source, offset);
    if (value < 0) throw new RangeError(`Size cannot be negative at offset: ${offset}`);
    return value;
}

function getUint32BE(source, offset) {
    return ((source[offset] << 24) | (source[offset + 1] << 16) | (source[offset + 2] << 8) | source[offset + 3]) >>> 0;
}

function setInt32BE(destination, offset, value) {
    destination[offset] = value >>> 24;
    destination[offset + 1] = value >>> 16;
    destination[offset + 2] = value >>> 8;
    destination[offset + 3] = value;
    return 4;
}

const NumberUtils = Object.freeze({
    isBigEndian: BIG_ENDIAN_HOST,
    getNonnegativeInt32LE,
    getInt32LE: readInt32LE,
    getUint32LE: readUint32LE,
    getUint32BE,
    getBigInt64LE: readBigInt64LE,
    getFloat64LE: readDoubleLE,
    setInt32BE,
    setInt32LE: (destination, offset, value) => writeInt32LE(destination, offset, value) - offset,
    setBigInt64LE: (destination, offset, value) => writeBigInt64LE(destination, offset, value) - offset,
    setFloat64LE: (destination, offset, value) => writeDoubleLE(destination, offset, value) - offset,
});

module.exports = { NumberUtils };
