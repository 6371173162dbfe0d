'use strict';

// What tests ask of the decoder's table of readers for repeated shapes (lib/shape-reader.js).

const shapeReader = require('../../lib/shape-reader');
const { makeRandom } = require('./fuzz');

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

// empties the table, as in a process that has decoded nothing: a test whose documents must
// take their slots then does not depend on what other tests' documents left in them
function clearTable() {
    for (const slot of slots) slot.take(-1, 0);
}

// `count` user records whose fields are each present in some (seeded): a nested address whose
// zip is optional, items with an optional note
function sparseRecords(count, seed = 4747) {
    const bson = require('bson');
    const random = makeRandom(seed).next;
    const some = (p, value) => (random() < p ? value : undefined);
    return Array.from({ length: count }, (_, i) => withoutUndefined({
        _id: new bson.ObjectId(), name: 'user' + i, email: some(0.8, 'u' + i + '@example.com'), age: some(0.5, 20 + (i % 50)),
        address: some(0.6, withoutUndefined({ street: 'Main ' + i, zip: some(0.5, String(10000 + i)), city: 'Springfield' })),
        tags: some(0.5, ['a', 'b']), items: Array.from({ length: 3 }, (_, k) => withoutUndefined({ sku: 'S' + k, qty: k, note: some(0.3, 'n' + k) })),
        deleted: some(0.1, new Date(i)), createdAt: new Date(1e12 + i),
    }));
}

// the object without its fields whose value is undefined (which bson would write as null)
function withoutUndefined(doc) {
    return Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== undefined));
}

module.exports = { ...shapeReader, sourceFor, readerFor, readersInUse, hasReader, readsWhole, sparseRecords, clearTable };
