'use strict';

// get and has, loaded on first call (lib/on-first-call.js says why).

let lookupModule = null;

function get(buf, path, opts) {
    if (lookupModule === null) lookupModule = require('../lookup');
    return lookupModule.get(buf, path, opts);
}

function has(buf, path, opts) {
    if (lookupModule === null) lookupModule = require('../lookup');
    return lookupModule.has(buf, path, opts);
}

module.exports = { get, has };
