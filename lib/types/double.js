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

    // bson's Extended JSON hook: a number with options.relaxed, else a Double
    static fromExtendedJSON(doc, options) {
        const value = parseFloat(doc.$numberDouble);
        return option(options, 'relaxed') ? value : new Double(value);
    }

    inspect(depth, options, inspect) {
        const shown = inspect ? inspect(this.value, options) : JSON.stringify(this.value);
        return `new Double(${shown})`;
    }
}

module.exports = { Double };
