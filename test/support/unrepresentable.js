'use strict';

// JavaScript values BSON has no type for, and the edge values of those it has:
// what encode does with each is tested against bson@7 (hostile.test.js) and
// tabled in docs/robustness.md. `make(lib)` builds the value with lib's classes.

class Point {
    constructor() {
        this.x = 1;
    }
}

const VALUES = [
    { name: 'Symbol', make: () => Symbol('s') },
    { name: 'function', make: () => function f() { return 1; } },
    { name: 'arrow function', make: () => () => 1 },
    { name: 'undefined', make: () => undefined },
    { name: 'WeakMap', make: () => new WeakMap() },
    { name: 'WeakSet', make: () => new WeakSet() },
    { name: 'WeakRef', make: () => new WeakRef({}) },
    { name: 'Set', make: () => new Set([1, 2]) },
    { name: 'Map with string keys', make: () => new Map([['a', 1]]) },
    { name: 'Map with a number key', make: () => new Map([[1, 'a']]) },
    { name: 'Promise', make: () => Promise.resolve(1) },
    { name: 'Error', make: () => new Error('boom') },
    { name: 'generator', make: () => (function* gen() {})() },
    { name: 'Int16Array', make: () => new Int16Array([1, 2]) },
    { name: 'Float64Array', make: () => new Float64Array([1.5]) },
    { name: 'DataView', make: () => new DataView(new ArrayBuffer(2)) },
    { name: 'ArrayBuffer', make: () => new Uint8Array([1, 2, 3]).buffer },
    { name: 'SharedArrayBuffer', make: () => new SharedArrayBuffer(2) },
    { name: 'invalid Date', make: () => new Date(NaN) },
    { name: 'bigint beyond 64 bits', make: () => 2n ** 64n + 5n },
    { name: 'NaN', make: () => NaN },
    { name: '-0', make: () => -0 },
    { name: 'class instance', make: () => new Point() },
    { name: 'null-prototype object', make: () => Object.assign(Object.create(null), { a: 1 }) },
    { name: 'new String', make: () => new String('x') },
    { name: 'new Number', make: () => new Number(3) },
    { name: 'new Boolean', make: () => new Boolean(false) },
    { name: 'object with a getter', make: () => Object.defineProperty({}, 'g', { get: () => 5, enumerable: true }) },
    { name: 'object with a Symbol key', make: () => ({ [Symbol('k')]: 1, a: 1 }) },
    { name: 'sparse array', make: () => [1, , 3] }, // eslint-disable-line no-sparse-arrays
    { name: 'array with a named property', make: () => Object.assign([1], { x: 2 }) },
    { name: 'RegExp with flags y, u, d', make: () => /a/yud },
    { name: 'object with a string _bsontype', make: () => ({ _bsontype: 'ObjectId', id: 'x' }) },
    { name: 'object whose toBSON returns a string', make: () => ({ toBSON: () => 'str' }) },
];

// Where qbson departs from bson on purpose, and why.
const DEPARTURES = {
    ArrayBuffer: 'qbson writes the bytes as binary subtype 0; bson writes an empty document (its calculateObjectSize counts a binary)',
    SharedArrayBuffer: 'qbson writes the bytes as binary subtype 0; bson writes an empty document',
    'Map with a number key': 'both refuse; qbson with a BSONError naming the key path, bson with a TypeError from Buffer',
};

module.exports = { VALUES, DEPARTURES };
