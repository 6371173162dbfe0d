'use strict';

// decodeStream and encodeStream, loaded on first call (lib/on-first-call.js says why).

let streamModule = null;

function decodeStream(source, opts) {
    if (streamModule === null) streamModule = require('../stream');
    return streamModule.decodeStream(source, opts);
}

function encodeStream(opts) {
    if (streamModule === null) streamModule = require('../stream');
    return streamModule.encodeStream(opts);
}

module.exports = { decodeStream, encodeStream };
