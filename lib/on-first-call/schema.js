'use strict';

// compile, the codecs made from a $jsonSchema, loaded on first call (lib/on-first-call.js says why).

let codecModule = null;

function compile(schema, opts) {
    if (codecModule === null) codecModule = require('../schema/codec');
    return codecModule.compile(schema, opts);
}

module.exports = { compile };
