'use strict';

// jsonToBSON, loaded on first call (lib/on-first-call.js says why).

let jsonToBSONModule = null;

function jsonToBSON(text, opts) {
    if (jsonToBSONModule === null) jsonToBSONModule = require('../json-to-bson');
    return jsonToBSONModule.jsonToBSON(text, opts);
}

module.exports = { jsonToBSON };
