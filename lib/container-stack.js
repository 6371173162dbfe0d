'use strict';

// The containers an encoder or Extended JSON writer is inside, outermost first,
// with the key each sits under: enough to refuse cycles and excess depth, and to
// name the key path of any error.

const C = require('./constants');
const { BSONError } = require('./errors');

class ContainerStack {
    constructor(errorCode) {
        // the code of errors made by fail() without one of their own
        this.errorCode = errorCode;
        this.maxDepth = C.DEFAULT_MAX_DEPTH;
        this.stack = [];
        this.keys = [];
    }

    path(key) {
        const keys = this.keys.slice(1);
        if (key !== undefined) keys.push(key);
        return keys.length ? keys.join('.') : '(root)';
    }

    fail(message, key, code) {
        const path = this.path(key);
        return new BSONError(`${message} at key path '${path}'`, { code: code || this.errorCode, path });
    }

    enter(value, key) {
        const at = this.stack.indexOf(value);
        if (at !== -1) {
            const path = this.path(key);
            const first = at === 0 ? '(root)' : this.keys.slice(1, at + 1).join('.');
            throw new BSONError(`circular structure (cyclic reference): the value at '${path}' is the one at '${first}'`, {
                code: 'ERR_BSON_CYCLE',
                path,
            });
        }
        if (this.stack.length > this.maxDepth) throw this.fail(`nesting deeper than maxDepth ${this.maxDepth}`, key, 'ERR_BSON_TOO_DEEP');
        this.stack.push(value);
        this.keys.push(key);
    }

    leave() {
        this.stack.pop();
        this.keys.pop();
    }

    // after a throw the stack is left as it was at the throw
    clear() {
        this.stack.length = 0;
        this.keys.length = 0;
    }
}

module.exports = { ContainerStack };
