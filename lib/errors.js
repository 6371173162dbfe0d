'use strict';

// Every failure qbson reports is a BSONError: a message naming what and where,
// a `code` a program can test, and for decode the byte `offset`.

class BSONError extends Error {
    constructor(message, options) {
        super(message);
        this.code = (options && options.code) || 'ERR_BSON';
        if (options && options.offset !== undefined) this.offset = options.offset;
        if (options && options.path !== undefined) this.path = options.path;
    }

    get name() {
        return 'BSONError';
    }

    // bson@7 compatibility: recognises errors from any copy of the library
    static isBSONError(value) {
        return value != null && typeof value === 'object' && value.name === 'BSONError' && value instanceof Error;
    }
}

// What V8 throws when recursion runs out of stack: a maxDepth set beyond what the
// stack holds, or a caller already deep in its own recursion.
function isStackOverflow(err) {
    return err instanceof RangeError && err.message === 'Maximum call stack size exceeded';
}

module.exports = { BSONError, isStackOverflow };
