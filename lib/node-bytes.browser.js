'use strict';

// lib/node-bytes.js in bundles for browsers, which have no Node Buffer: the
// codec works on plain Uint8Arrays (lib/platform.js).

module.exports = { nodeBytes: null };
