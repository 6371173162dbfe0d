'use strict';

// The Node modules qbson can use but does not need, loaded on first use. The
// browser build (scripts/build.js) puts lib/node-modules.browser.js in this
// file's place, where each is null: nothing in a browser bundle requires a Node
// module, and what needs one says so.

let stream = null;
let crypto = null;

// process.getBuiltinModule (Node 20.16+, Bun, Deno) where the runtime has it: a program
// bundled as an ES module for Node has no require for Node's own modules
function builtin(name) {
    const p = globalThis.process;
    return p !== undefined && p !== null && typeof p.getBuiltinModule === 'function' ? p.getBuiltinModule(name) || null : null;
}

// Transform, for encodeStream (~1.1 ms to load, so not with qbson)
function nodeStream() {
    if (stream === null) stream = builtin('stream') || require('stream');
    return stream;
}

// randomBytes, for ObjectIds and UUIDs (loading it is a large part of what require('qbson') would cost)
function nodeCrypto() {
    if (crypto === null) crypto = builtin('crypto') || require('crypto');
    return crypto;
}

module.exports = { nodeStream, nodeCrypto };
