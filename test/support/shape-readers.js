'use strict';

// What tests ask of the decoder's table of readers for repeated shapes (lib/shape-reader.js).

const shapeReader = require('../../lib/shape-reader');

const { MISS, slots, slotOf, deriveShape, readerSource, compileReader } = shapeReader;

// the source of the reader for the document of `size` bytes at start, or null if no reader takes its shape
function sourceFor(buf, start, size) {
    const shape = deriveShape(buf, start, size);
    return shape === null ? null : readerSource(shape);
}

// that reader, compiled, or null
function readerFor(buf, start, size) {
    const shape = deriveShape(buf, start, size);
    return shape === null ? null : compileReader(shape);
}

// the readers in the table
function readersInUse() {
    return slots.filter((s) => s.reader !== null).length;
}

// whether the document of `size` bytes at start, at depth, has a reader in its slot
function hasReader(buf, start, size, depth) {
    const slot = slotOf(buf, start, size, depth);
    return slot !== null && slot.reader !== null;
}

// whether that reader reads the document in dec.buf whole: no miss, no value left to the
// decoder, no nested document it leaves to the decoder (its score is left as it was)
function readsWhole(dec, start, size, depth) {
    const slot = slotOf(dec.buf, start, size, depth);
    if (slot === null || slot.reader === null || slot.shape.open !== 0) return false;
    dec.shapeFallbacks = 0;
    return slot.reader(dec, dec.buf, start, start + size, depth) !== MISS && dec.shapeFallbacks === 0;
}

module.exports = { ...shapeReader, sourceFor, readerFor, readersInUse, hasReader, readsWhole };
