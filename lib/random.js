'use strict';

// Random bytes for new ObjectIds and UUIDs. Node's crypto module is loaded on the
// first call rather than with qbson: requiring it is a large part of what
// `require('qbson')` costs, and many programs never make an id.

let crypto = null;

function randomBytes(byteLength) {
    if (crypto === null) crypto = require('crypto');
    return crypto.randomBytes(byteLength);
}

module.exports = { randomBytes };
