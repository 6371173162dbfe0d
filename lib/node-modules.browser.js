'use strict';

// lib/node-modules.js in the browser build: no Node module is there.

module.exports = {
    nodeStream: () => null,
    nodeCrypto: () => null,
};
