'use strict';

// lib/brands.js: whether a value is a built-in Map, Date, RegExp or ArrayBuffer,
// also from another realm, as util.types answers; and Extended JSON, which asks it
// of every document, writes such values from another realm as their types.

const assert = require('assert');
const vm = require('vm');
const util = require('util');
const brands = require('../lib/brands');
const qbson = require('..');

const other = vm.runInNewContext(`({
    map: new Map([['a', 1]]),
    date: new Date(86400000),
    regexp: /x+/i,
    arrayBuffer: new ArrayBuffer(4),
    object: { a: 1 },
})`);

function disguised(value, tag) {
    Object.defineProperty(value, Symbol.toStringTag, { value: tag });
    return value;
}

const CASES = [
    ['a Map', new Map(), 'isMap'],
    ['a Map of another realm', other.map, 'isMap'],
    ['a Map given another tag', disguised(new Map(), 'Other'), 'isMap'],
    ['a Date', new Date(), 'isDate'],
    ['a Date of another realm', other.date, 'isDate'],
    ['a Date given another tag', disguised(new Date(), 'Other'), 'isDate'],
    ['a RegExp', /a/, 'isRegExp'],
    ['a RegExp of another realm', other.regexp, 'isRegExp'],
    ['an ArrayBuffer of another realm', other.arrayBuffer, 'isAnyArrayBuffer'],
    ['a plain object', { a: 1 }, null],
    ['a plain object of another realm', other.object, null],
    ['an object tagged Map', disguised({}, 'Map'), null],
    ['an object tagged Date', disguised({}, 'Date'), null],
    ['an object tagged RegExp', disguised({}, 'RegExp'), null],
    ['an object with Map.prototype', Object.create(Map.prototype), null],
    ['an object with Date.prototype', Object.create(Date.prototype), null],
    ['RegExp.prototype', RegExp.prototype, null],
    ['null-prototype object', Object.create(null), null],
    ['a Date whose prototype is Object.prototype', Object.setPrototypeOf(new Date(), Object.prototype), 'isDate'],
    ['a RegExp whose prototype is null', Object.setPrototypeOf(/b/, null), 'isRegExp'],
];
const CHECKS = ['isMap', 'isDate', 'isRegExp', 'isAnyArrayBuffer'];
const REFERENCE = { isMap: util.types.isMap, isDate: util.types.isDate, isRegExp: util.types.isRegExp, isAnyArrayBuffer: util.types.isAnyArrayBuffer };

describe('brands', function () {
    for (const [name, value, expected] of CASES) {
        it(`${name} is ${expected === null ? 'none of them' : expected.slice(2)}, as util.types says`, function () {
            for (const check of CHECKS) {
                assert.strictEqual(brands[check](value), check === expected, check);
                if (!(check === 'isRegExp' && value === RegExp.prototype)) assert.strictEqual(brands[check](value), REFERENCE[check](value), `${check} against util.types`);
            }
        });
    }

    // the one case where util.types differs: bson's Map check (Object.prototype.toString) says no too
    it('a Map whose prototype is Object.prototype is taken for a plain object, as bson takes it', function () {
        const map = Object.setPrototypeOf(new Map([['a', 1]]), Object.prototype);
        assert.strictEqual(brands.isMap(map), false);
        assert.strictEqual(qbson.EJSON.stringify({ m: map }), require('bson').EJSON.stringify({ m: map }));
    });

    it('Extended JSON writes a Map, Date and RegExp of another realm as their types', function () {
        const text = qbson.EJSON.stringify({ m: other.map, d: other.date, r: other.regexp }, { relaxed: false });
        assert.strictEqual(text, '{"m":{"a":{"$numberInt":"1"}},"d":{"$date":{"$numberLong":"86400000"}},"r":{"$regularExpression":{"pattern":"x+","options":"i"}}}');
    });
});
