'use strict';

// bsonToJSON, loaded on first call (lib/on-first-call.js says why).

let bsonToJSONModule = null;

function bsonToJSON(bytes, opts) {
    if (bsonToJSONModule === null) bsonToJSONModule = require('../bson-to-json');
    return bsonToJSONModule.bsonToJSON(bytes, opts);
}

module.exports = { bsonToJSON };
