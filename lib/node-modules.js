'use strict';

// The Node modules qbson can use but does not need, loaded on first use. The
// browser build (scripts/build.js) puts lib/node-modules.browser.js in this
// file's place, where each is null: nothing in a browser bundle requires a Node
// module, and what needs one says so.

let stream = null;
let crypto = null;

// Transform, for encodeStream (~1.1 ms to load, so not with qbson)
function nodeStream() {
    if (stream === null) stream = require('stream');
    return stream;
}

// randomBytes, for ObjectIds and UUIDs (loading it is a large part of what require('qbson') would cost)
function nodeCrypto() {
    if (crypto === null) crypto = require('crypto');
    return crypto;
}

module.exports = { nodeStream, nodeCrypto };
