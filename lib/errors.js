'use strict';

const { BSON_MAJOR_VERSION } = require('./constants');

// Every failure qbson reports is a BSONError: a message naming what and where,
// a `code` a program can test, and for decode the byte `offset`.

class BSONError extends Error {
    constructor(message, options) {
        super(message, options && options.cause !== undefined ? { cause: options.cause } : undefined);
        this.code = (options && options.code) || 'ERR_BSON';
        if (options && options.offset !== undefined) this.offset = options.offset;
        if (options && options.path !== undefined) this.path = options.path;
    }

    get name() {
        return 'BSONError';
    }

    // the mark bson@7's isBSONError looks for, so either library recognises the other's errors
    get bsonError() {
        return true;
    }

    static isBSONError(value) {
        return value != null && typeof value === 'object' && value.bsonError === true && 'name' in value && 'message' in value && 'stack' in value;
    }
}

// A type object stamped with another major version of bson (or none at all).
// bson's message, then qbson's detail (which value, at which key path) when given.
class BSONVersionError extends BSONError {
    constructor(detail, options) {
        const message = `Unsupported BSON version, bson types must be from bson ${BSON_MAJOR_VERSION}.x.x`;
        super(detail === undefined ? message : `${message}: ${detail}`, { code: 'ERR_BSON_VERSION', ...options });
    }

    get name() {
        return 'BSONVersionError';
    }
}

// An unexpected input or internal state outside the bytes themselves.
class BSONRuntimeError extends BSONError {
    constructor(message, options) {
        super(message, { code: 'ERR_BSON_RUNTIME', ...options });
    }

    get name() {
        return 'BSONRuntimeError';
    }
}

// Bytes that are not valid BSON, found at `offset`. As in bson, the message
// ends with the offset; options may add qbson's code and key path.
class BSONOffsetError extends BSONError {
    constructor(message, offset, options) {
        super(`${message}. offset: ${offset}`, { code: 'ERR_BSON_CORRUPT', ...options, offset });
    }

    get name() {
        return 'BSONOffsetError';
    }
}

// What the engine throws when recursion runs out of stack: a maxDepth set beyond
// what the stack holds, or a caller already deep in its own recursion. V8 says
// 'Maximum call stack size exceeded', JavaScriptCore (Bun, Safari) adds a period.
const STACK_OVERFLOW = /^Maximum call stack size exceeded\.?$/;

function isStackOverflow(err) {
    return err instanceof RangeError && STACK_OVERFLOW.test(err.message);
}

// "a Long", "an ObjectId", "an object": the article for a type's name in a message
function withArticle(name) {
    return `${/^[aeio]/i.test(name) ? 'an' : 'a'} ${name}`;
}

module.exports = { BSONError, BSONVersionError, BSONRuntimeError, BSONOffsetError, isStackOverflow, withArticle };
