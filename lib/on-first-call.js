'use strict';

// Exports whose modules load when they are first called, not when they are read.
// An ES module's named exports are all read as it is imported, and what index.js
// loads on first read, import 'qbson' loads at once: Extended JSON and the size
// calculation are these forwarders in both entries, so neither loads them. The
// classes cannot forward (instanceof and statics need the class itself), and the
// streams are loaded when read, as test/loading.test.js holds them to.

let ejsonApi = null;
let sizeModule = null;

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

// bson@7's EJSON object: these four functions, frozen, without a prototype
const EJSON = Object.freeze(Object.assign(Object.create(null), { parse, stringify, serialize, deserialize }));

module.exports = { EJSON, calculateObjectSize };
