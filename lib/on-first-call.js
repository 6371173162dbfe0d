'use strict';

// Exports whose modules load when they are first called, not when they are read.
// An ES module's named exports are all read as it is imported, and what index.js
// loads on first read, import 'qbson' loads at once: Extended JSON, the size
// calculation, get/has, lazy, the streams, jsonToBSON and bsonToJSON are these forwarders in both
// entries, so neither loads them. The classes cannot forward (instanceof and
// statics need the class itself). Each feature's forwarders are a module of their
// own (lib/on-first-call/), which index.browser.mjs names one by one: a bundler
// keeps a module with every module it may require, so one module holding them all
// would bring jsonToBSON, the streams and the readers to a program importing EJSON.

const { EJSON } = require('./on-first-call/ejson');
const { calculateObjectSize } = require('./on-first-call/size');
const { get, has } = require('./on-first-call/lookup');
const { lazy } = require('./on-first-call/lazy');
const { decodeStream, encodeStream } = require('./on-first-call/stream');
const { jsonToBSON } = require('./on-first-call/json-to-bson');
const { bsonToJSON } = require('./on-first-call/bson-to-json');

module.exports = { EJSON, calculateObjectSize, get, has, lazy, decodeStream, encodeStream, jsonToBSON, bsonToJSON };
