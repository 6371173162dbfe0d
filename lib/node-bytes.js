'use strict';

// The codec's bytes over Node's Buffer and its native text methods, where the
// global Buffer has them (Node, Bun, Deno's node mode); else null, and
// lib/platform.js takes plain Uint8Arrays. Nothing is required: the global is
// read, once. Bundles for browsers put lib/node-bytes.browser.js in this file's
// place (package.json's `browser` field), where it is always null.

const NodeBuffer = nativeBuffer(globalThis.Buffer);

function nativeBuffer(B) {
    if (typeof B !== 'function' || typeof B.allocUnsafeSlow !== 'function') return null;
    const p = B.prototype;
    return typeof p.utf8Write === 'function' && typeof p.utf8Slice === 'function' && typeof p.latin1Slice === 'function' && typeof p.ucs2Slice === 'function' ? B : null;
}

// Node's own Buffer class (FastBuffer), which Buffer[Symbol.species] names: `new`
// of it makes a view in 30 ns, where Buffer's subarray looks the species up on
// every call and takes 80 ns. Anywhere else, Buffer.from makes the same view.
const BufferSpecies = NodeBuffer === null ? null : NodeBuffer[Symbol.species];
const speciesIsBuffer = typeof BufferSpecies === 'function' && BufferSpecies.prototype === NodeBuffer.prototype;

function nodeView(arrayBuffer, byteOffset, length) {
    return speciesIsBuffer ? new BufferSpecies(arrayBuffer, byteOffset, length) : NodeBuffer.from(arrayBuffer, byteOffset, length);
}

// The codec's bytes over Node's Buffer and its native text methods.
const nodeBytes = NodeBuffer === null ? null : {
    alloc: (size) => NodeBuffer.alloc(size),
    allocUnsafe: (size) => NodeBuffer.allocUnsafe(size),
    allocUnsafeSlow: (size) => NodeBuffer.allocUnsafeSlow(size),
    fromArray: (array) => NodeBuffer.from(array),
    view: nodeView,
    // the same memory as any Uint8Array, as a Buffer
    local: (bytes) => (NodeBuffer.isBuffer(bytes) ? bytes : nodeView(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    utf8ByteLength: (str) => NodeBuffer.byteLength(str, 'utf8'),
    utf8Write: (buf, str, pos) => buf.utf8Write(str, pos),
    utf8Slice: (buf, start, end) => buf.utf8Slice(start, end),
    latin1Slice: (buf, start, end) => buf.latin1Slice(start, end),
    utf16leSlice: (buf, start, end) => buf.ucs2Slice(start, end),
    fromUtf8: (text) => NodeBuffer.from(text, 'utf8'),
    toHex: (buf, start, end) => buf.toString('hex', start, end),
    fromHex: (hex) => NodeBuffer.from(hex, 'hex'),
    toBase64: (buf, start, end) => buf.toString('base64', start, end),
    fromBase64: (text) => NodeBuffer.from(text, 'base64'),
    fromLatin1: (text) => NodeBuffer.from(text, 'latin1'),
    compare: (a, b) => NodeBuffer.compare(a, b),
    concat: (list) => NodeBuffer.concat(list),
    swap32: (bytes) => nodeBytes.local(bytes).swap32(),
};

module.exports = { nodeBytes };
