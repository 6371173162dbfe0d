'use strict';

// Exports whose modules load when they are first called, not when they are read.
// An ES module's named exports are all read as it is imported, and what index.js
// loads on first read, import 'qbson' loads at once: Extended JSON, the size
// calculation, get/has, lazy, the streams, jsonToBSON and bsonToJSON are these forwarders in both
// entries, so neither loads them. The classes cannot forward (instanceof and
// statics need the class itself).

let ejsonApi = null;
let sizeModule = null;
let lookupModule = null;
let lazyModule = null;
let streamModule = null;
let jsonToBSONModule = null;
let bsonToJSONModule = null;

function ejson() {
    return ejsonApi === null ? (ejsonApi = require('./ejson').EJSON) : ejsonApi;
}

function calculateObjectSize(doc, opts) {
    if (sizeModule === null) sizeModule = require('./size');
    return sizeModule.calculateObjectSize(doc, opts);
}

function stringify(value, replacer, space, options) {
    return ejson().stringify(value, replacer, space, options);
}

function parse(text, options) {
    return ejson().parse(text, options);
}

function serialize(value, options) {
    return ejson().serialize(value, options);
}

function deserialize(ejsonValue, options) {
    return ejson().deserialize(ejsonValue, options);
}

function get(buf, path, opts) {
    if (lookupModule === null) lookupModule = require('./lookup');
    return lookupModule.get(buf, path, opts);
}

function has(buf, path, opts) {
    if (lookupModule === null) lookupModule = require('./lookup');
    return lookupModule.has(buf, path, opts);
}

function lazy(buf, opts) {
    if (lazyModule === null) lazyModule = require('./lazy');
    return lazyModule.lazy(buf, opts);
}

function decodeStream(source, opts) {
    if (streamModule === null) streamModule = require('./stream');
    return streamModule.decodeStream(source, opts);
}

function encodeStream(opts) {
    if (streamModule === null) streamModule = require('./stream');
    return streamModule.encodeStream(opts);
}

function jsonToBSON(text, opts) {
    if (jsonToBSONModule === null) jsonToBSONModule = require('./json-to-bson');
    return jsonToBSONModule.jsonToBSON(text, opts);
}

function bsonToJSON(bytes, opts) {
    if (bsonToJSONModule === null) bsonToJSONModule = require('./bson-to-json');
    return bsonToJSONModule.bsonToJSON(bytes, opts);
}

// bson@7's EJSON object: these four functions, frozen, without a prototype
const EJSON = Object.freeze(Object.assign(Object.create(null), { parse, stringify, serialize, deserialize }));

module.exports = { EJSON, calculateObjectSize, get, has, lazy, decodeStream, encodeStream, jsonToBSON, bsonToJSON };
