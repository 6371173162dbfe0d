'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { option } = require('../options');

// A number the encoder always writes as a BSON double, even when it is integral.
class Double extends BSONValue {
    constructor(value) {
        super();
        if (value instanceof Number) value = value.valueOf();
        this.value = +value;
    }

    get _bsontype() {
        return 'Double';
    }

    // Decimal or exponential text, or exactly 'NaN', 'Infinity', '-Infinity';
    // no whitespace, hex, octal or binary.
    static fromString(value) {
        const n = Number(value);
        if (value === 'NaN') return new Double(NaN);
        if (value === 'Infinity') return new Double(Infinity);
        if (value === '-Infinity') return new Double(-Infinity);
        if (!Number.isFinite(n)) {
            throw new BSONError(`Input: ${value} is not representable as a Double`);
        }
        if (value.trim() !== value) {
            throw new BSONError(`Input: '${value}' contains whitespace`);
        }
        if (value === '') {
            throw new BSONError('Input is an empty string');
        }
        if (/[^-0-9.+eE]/.test(value)) {
            throw new BSONError(`Input: '${value}' is not in decimal or exponential notation`);
        }
        return new Double(n);
    }

    valueOf() {
        return this.value;
    }

    toJSON() {
        return this.value;
    }

    toString(radix) {
        return this.value.toString(radix);
    }

    // bson's Extended JSON hooks
    toExtendedJSON(options) {
        return doubleExtendedJSON(this, Boolean(option(options, 'relaxed')), Boolean(option(options, 'legacy')));
    }

    static fromExtendedJSON(doc, options) {
        return doubleFromText(doc.$numberDouble, Boolean(option(options, 'relaxed')));
    }

    inspect(depth, options, inspect) {
        const shown = inspect ? inspect(this.value, options) : JSON.stringify(this.value);
        return `new Double(${shown})`;
    }
}

// A number when legacy, or relaxed and finite; else {$numberDouble}, an integral
// value with '.0'. Flags, not options, as for Int32 (lib/ejson.js's speed).
function doubleExtendedJSON(double, relaxed, legacy) {
    const n = double.value;
    if (legacy || (relaxed && Number.isFinite(n))) return n;
    if (n === 0 && 1 / n < 0) return { $numberDouble: '-0.0' };
    return { $numberDouble: Number.isInteger(n) ? n.toFixed(1) : String(n) };
}

// A $numberDouble's text as a number when relaxed, else a Double
function doubleFromText(text, relaxed) {
    const value = parseFloat(text);
    return relaxed ? value : new Double(value);
}

module.exports = { Double, doubleExtendedJSON, doubleFromText };
