'use strict';

// What reading an Extended JSON wrapper needs, below both lib/ejson.js and the
// type modules, each of which reads its own wrappers: the options, the key path
// for errors, and the shape checks of the spec (exact keys, values of the right
// type). lib/ejson.js extends ReadContext with the reading of nested documents.

const C = require('./constants');
const { BSONError } = require('./errors');

class ReadContext {
    constructor(options) {
        this.relaxed = options.relaxed;
        this.legacy = options.legacy;
        this.useBigInt64 = options.useBigInt64;
        this.preserveDeprecated = options.preserveDeprecated;
        this.maxDepth = options.maxDepth === undefined ? C.DEFAULT_MAX_DEPTH : options.maxDepth;
        // the keys leading to the value being read, for error messages
        this.keys = [];
    }

    fail(message, code, ErrorClass) {
        const path = this.keys.length ? this.keys.join('.') : '(root)';
        return new (ErrorClass || BSONError)(`${message} at key path '${path}'`, { code: code || 'ERR_BSON_EJSON', path });
    }

    // the key path is one key per level of nesting
    checkDepth() {
        if (this.keys.length > this.maxDepth) throw this.fail(`nesting deeper than maxDepth ${this.maxDepth}`, 'ERR_BSON_TOO_DEEP');
    }

    // The wrapper must have exactly these keys (the first is its $-key).
    expectKeys(obj, keys, expected) {
        if (keys.length === expected.length) {
            let all = true;
            for (let i = 0; i < expected.length; i++) {
                if (!Object.prototype.hasOwnProperty.call(obj, expected[i])) all = false;
            }
            if (all) return;
        }
        throw this.fail(`${expected[0]} must be an object with exactly the keys ${expected.join(', ')}, found ${keys.join(', ')}`);
    }

    // `what` names the object expected, e.g. '$timestamp must be an object with t and i'
    expectObject(value, what) {
        if (!isPlainObjectValue(value)) throw this.fail(`${what}, not ${describeJSON(value)}`);
        return value;
    }

    expectString(value, what) {
        if (typeof value !== 'string') throw this.fail(`${what} must be a string, not ${describeJSON(value)}`);
        return value;
    }

    describe(value) {
        return describeJSON(value);
    }
}

function isPlainObjectValue(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describeJSON(value) {
    if (value === null) return 'null';
    if (value === undefined) return 'undefined';
    if (Array.isArray(value)) return 'an array';
    if (typeof value === 'object') return 'an object';
    return `${typeof value} ${JSON.stringify(value)}`;
}

module.exports = { ReadContext, isPlainObjectValue };
