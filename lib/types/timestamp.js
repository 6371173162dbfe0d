'use strict';

const { Long } = require('./long');
const { BSONError } = require('../errors');

const UINT32_MAX = 0xffffffff;

// MongoDB's internal replication timestamp: an unsigned 64-bit value whose high
// word `t` is seconds since the epoch and whose low word `i` is an ordinal.
// As in bson, it is a Long underneath (own `low`, `high`, `unsigned`).
class Timestamp extends Long {
    constructor(value) {
        if (value == null) {
            super(0, 0, true);
        } else if (typeof value === 'bigint') {
            super(value, true);
        } else if (Long.isLong(value)) {
            super(value.low, value.high, true);
        } else if (typeof value === 'object' && 't' in value && 'i' in value) {
            checkPartType(value.t, 't');
            checkPartType(value.i, 'i');
            const t = Number(value.t);
            const i = Number(value.i);
            checkPartRange(t, 't', false);
            checkPartRange(i, 'i', false);
            checkPartRange(t, 't', true);
            checkPartRange(i, 'i', true);
            super(i, t, true);
        } else {
            throw new BSONError('A Timestamp can only be constructed with: bigint, Long, or { t: number; i: number }');
        }
    }

    get _bsontype() {
        return 'Timestamp';
    }

    get t() {
        return this.high >>> 0;
    }

    get i() {
        return this.low >>> 0;
    }

    toJSON() {
        return { $timestamp: this.toString() };
    }

    // Takes the value as the increment, with t = 0.
    static fromInt(value) {
        return new Timestamp(Long.fromInt(value, true));
    }

    // Splits an unsigned 64-bit number across (t, i).
    static fromNumber(value) {
        return new Timestamp(Long.fromNumber(value, true));
    }

    // Both halves are checked as uint32, as in bson: signed int32 halves are refused.
    static fromBits(lowBits, highBits) {
        return new Timestamp({ i: lowBits, t: highBits });
    }

    static fromString(str, radix) {
        return new Timestamp(Long.fromString(str, true, radix));
    }

    // Long's Extended JSON hooks do not apply: a Timestamp is {$timestamp: {t, i}}
    toExtendedJSON() {
        return { $timestamp: { t: this.t, i: this.i } };
    }

    static fromExtendedJSON(doc) {
        const { t, i } = doc.$timestamp;
        return new Timestamp({ t: Long.isLong(t) ? t.low >>> 0 : t, i: Long.isLong(i) ? i.low >>> 0 : i });
    }

    inspect(depth, options, inspect) {
        const show = inspect ? (v) => inspect(v, options) : (v) => JSON.stringify(v);
        return `new Timestamp({ t: ${show(this.t)}, i: ${show(this.i)} })`;
    }
}

Timestamp.MAX_VALUE = Long.MAX_UNSIGNED_VALUE;

// t and i are each a number or an Int32 (recognised by its type tag) within
// 0..2^32-1; the checks run in bson's order so the first error reported is the same.
function checkPartType(part, name) {
    if (typeof part !== 'number' && (typeof part !== 'object' || part === null || part._bsontype !== 'Int32')) {
        throw new BSONError(`Timestamp constructed from { t, i } must provide ${name} as a number`);
    }
}

function checkPartRange(n, name, upper) {
    if (!upper && (n < 0 || Number.isNaN(n))) {
        throw new BSONError(`Timestamp constructed from { t, i } must provide a positive ${name}`);
    }
    if (upper && n > UINT32_MAX) {
        throw new BSONError(`Timestamp constructed from { t, i } must provide ${name} equal or less than uint32 max`);
    }
}

module.exports = { Timestamp };
