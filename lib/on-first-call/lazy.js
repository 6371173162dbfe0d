'use strict';

// lazy, loaded on first call (lib/on-first-call.js says why).

let lazyModule = null;

function lazy(buf, opts) {
    if (lazyModule === null) lazyModule = require('../lazy');
    return lazyModule.lazy(buf, opts);
}

module.exports = { lazy };
