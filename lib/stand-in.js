'use strict';

// Code V8 optimizes holds the maps (hidden classes) it checks for only weakly: where
// no object of a map is alive at a major GC, the map is freed and the code is thrown
// away. The generated constructors (lib/shapes.js, lib/shape-reader.js, the schema
// codecs) each keep one object of their own, made from stand-ins for the values of
// the first object they build, so that their maps outlive the documents read: a
// process that decoded a reply now and then had its readers thrown away after
// every pause (test/kept-maps.test.js), and a codec's api_statuses decoded at
// 0.30-0.43x decode in the benchmark's alternating rounds.

// value's stand-in: to V8 the same kind of field, and nothing of the document's (the same
// number, boolean, null or undefined; '' for a string, null for an object)
function standIn(value) {
    if (typeof value === 'string') return '';
    return typeof value === 'object' ? null : value;
}

// A field whose values may be numbers V8 holds as heap numbers (a BSON double, an int64,
// a value of any type) is kept as null, whatever its first value: the field is then tagged,
// which every later value fits. Kept as its first value, a small integer, it was not: a
// heap number after it gives the objects a map of their own that nothing keeps, which the
// next major GC frees (a tweet's user_mentions, whose id is an int32 in the first and a
// double in the second: the codec's tweet decode ran at 0.78x decode). A small integer or
// null in a tagged field, or in a field of small integers, changes no map.
const HEAP_NUMBER_STAND_IN = null;

// Whether a kept object may be made: its stores run only the constructor's code where
// Object.prototype has no accessor (but __proto__); a setter there would run once more.
function canKeep() {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
        if (name === '__proto__') continue;
        const { get, set } = Object.getOwnPropertyDescriptor(Object.prototype, name);
        if (get !== undefined || set !== undefined) return false;
    }
    return true;
}

module.exports = { standIn, canKeep, HEAP_NUMBER_STAND_IN };
