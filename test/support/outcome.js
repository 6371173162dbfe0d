'use strict';

// What a call gave, as something two paths' results can be compared by: its
// value, or the error it threw; and a value's key order, all the way down.

function outcome(fn) {
    try {
        return { value: fn() };
    } catch (err) {
        return { err };
    }
}

// the keys of every plain object and array in value, in order (null for a leaf)
function keyOrder(value) {
    if (value === null || typeof value !== 'object' || typeof value._bsontype === 'string' || value instanceof Date || value instanceof Uint8Array) return null;
    if (Array.isArray(value)) return value.map(keyOrder);
    return Object.keys(value).map((k) => [k, keyOrder(value[k])]);
}

module.exports = { outcome, keyOrder };
