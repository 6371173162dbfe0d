'use strict';

// Extended JSON, loaded on first call (lib/on-first-call.js says why).

let ejsonApi = null;

function ejson() {
    return ejsonApi === null ? (ejsonApi = require('../ejson').EJSON) : ejsonApi;
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

module.exports = { EJSON };
