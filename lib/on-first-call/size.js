'use strict';

// calculateObjectSize, loaded on first call (lib/on-first-call.js says why).

let sizeModule = null;

function calculateObjectSize(doc, opts) {
    if (sizeModule === null) sizeModule = require('../size');
    return sizeModule.calculateObjectSize(doc, opts);
}

module.exports = { calculateObjectSize };
