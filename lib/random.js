'use strict';

// Random bytes for new ObjectIds and UUIDs: Node's crypto.randomBytes where Node's
// crypto module is (a Buffer, as before), else the Web Crypto API every browser,
// worker and Deno has.

const { nodeCrypto } = require('./node-modules');
const { allocUnsafe } = require('./platform');
const { BSONRuntimeError } = require('./errors');

// getRandomValues fills at most 65,536 bytes a call
const MAX_RANDOM_VALUES = 65536;

function randomBytes(byteLength) {
    const crypto = nodeCrypto();
    if (crypto !== null) return crypto.randomBytes(byteLength);
    const web = globalThis.crypto;
    if (web === undefined || typeof web.getRandomValues !== 'function') {
        throw new BSONRuntimeError('random bytes need crypto.getRandomValues, which this runtime does not have');
    }
    const bytes = allocUnsafe(byteLength);
    for (let i = 0; i < byteLength; i += MAX_RANDOM_VALUES) web.getRandomValues(bytes.subarray(i, Math.min(byteLength, i + MAX_RANDOM_VALUES)));
    return bytes;
}

module.exports = { randomBytes };
