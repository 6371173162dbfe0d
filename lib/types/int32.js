'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { BSON_INT32_MAX, BSON_INT32_MIN } = require('../constants');
const { option } = require('../options');

// A number the encoder writes as BSON int32 rather than as a double.
class Int32 extends BSONValue {
    constructor(value) {
        super();
        if (value instanceof Number) value = value.valueOf();
        this.value = +value | 0;
    }

    get _bsontype() {
        return 'Int32';
    }

    // Only plain decimal integer text in int32 range; leading zeros and '+' are allowed.
    static fromString(value) {
        const cleaned = stripLeadingZerosAndPlus(value);
        const n = Number(value);
        if (n > BSON_INT32_MAX) {
            throw new BSONError(`Input: '${value}' is larger than the maximum value for Int32`);
        }
        if (n < BSON_INT32_MIN) {
            throw new BSONError(`Input: '${value}' is smaller than the minimum value for Int32`);
        }
        if (!Number.isSafeInteger(n)) {
            throw new BSONError(`Input: '${value}' is not a safe integer`);
        }
        if (n.toString() !== cleaned) {
            throw new BSONError(`Input: '${value}' is not a valid Int32 string`);
        }
        return new Int32(n);
    }

    valueOf() {
        return this.value;
    }

    toString(radix) {
        return this.value.toString(radix);
    }

    toJSON() {
        return this.value;
    }

    // bson's Extended JSON hooks
    toExtendedJSON(options) {
        return int32ExtendedJSON(this, Boolean(option(options, 'relaxed')), Boolean(option(options, 'legacy')));
    }

    // the text is not checked, as in bson
    static fromExtendedJSON(doc, options) {
        return int32FromText(doc.$numberInt, Boolean(option(options, 'relaxed')));
    }

    inspect(depth, options, inspect) {
        const shown = inspect ? inspect(this.value, options) : JSON.stringify(this.value);
        return `new Int32(${shown})`;
    }
}

// '+007' -> '7', '-00' -> '-0', '000' -> '0': the text a number's toString()
// must reproduce for fromString to accept it.
function stripLeadingZerosAndPlus(str) {
    const negative = str[0] === '-';
    let start = negative || str[0] === '+' ? 1 : 0;
    const digitsStart = start;
    while (start < str.length && str[start] === '0') start++;
    if (start === digitsStart) return str[0] === '+' ? str.slice(1) : str;
    return (negative ? '-' : '') + (start === str.length ? '0' : str.slice(start));
}

// A number when relaxed or legacy, else {$numberInt}. Flags, not options: lib/ejson.js
// calls this for every Int32, and reading two own options made that 1.25x slower.
function int32ExtendedJSON(int32, relaxed, legacy) {
    if (relaxed || legacy) return int32.value;
    return { $numberInt: String(int32.value) };
}

// A $numberInt's text as a number when relaxed, else an Int32
function int32FromText(text, relaxed) {
    return relaxed ? parseInt(text, 10) : new Int32(text);
}

module.exports = { Int32, int32ExtendedJSON, int32FromText };
