'use strict';

// The containers an encoder or Extended JSON writer is inside, outermost first,
// with the key each sits under: enough to refuse cycles and excess depth, and to
// name the key path of any error.

const C = require('./constants');
const { BSONError, BSONVersionError } = require('./errors');

class ContainerStack {
    constructor(errorCode) {
        // the code of errors made by fail() without one of their own
        this.errorCode = errorCode;
        this.maxDepth = C.DEFAULT_MAX_DEPTH;
        // stack[0, depth) holds the containers and keys[0, depth) the key of each;
        // kept by index rather than push/pop, and searched by a loop rather than
        // indexOf: deep_bson encodes 1.04-1.06x faster
        this.stack = [];
        this.keys = [];
        this.depth = 0;
    }

    path(key) {
        const keys = this.keys.slice(1, this.depth);
        if (key !== undefined) keys.push(key);
        return keys.length ? keys.join('.') : '(root)';
    }

    fail(message, key, code) {
        const path = this.path(key);
        return new BSONError(`${message} at key path '${path}'`, { code: code || this.errorCode, path });
    }

    // a value with a _bsontype that lacks this major version's mark
    versionError(tag, key) {
        const path = this.path(key);
        const detail = `an object with _bsontype '${String(tag)}' is not a BSON ${C.BSON_MAJOR_VERSION}.x type instance at key path '${path}'`;
        return new BSONVersionError(detail, { path });
    }

    enter(value, key) {
        const depth = this.depth;
        const stack = this.stack;
        for (let i = 0; i < depth; i++) {
            if (stack[i] === value) throw this.cycle(i, key);
        }
        this.checkDepth(key);
        stack[depth] = value;
        this.keys[depth] = key;
        this.depth = depth + 1;
    }

    // for a container entered without being put on the stack
    checkDepth(key) {
        if (this.depth > this.maxDepth) throw this.fail(`nesting deeper than maxDepth ${this.maxDepth}`, key, 'ERR_BSON_TOO_DEEP');
    }

    // the slot is emptied so that no container is kept alive after the call
    leave() {
        this.stack[--this.depth] = undefined;
    }

    // bson's words first (programs match them), then the two key paths
    cycle(at, key) {
        const path = this.path(key);
        const first = at === 0 ? '(root)' : this.keys.slice(1, at + 1).join('.');
        const detail = `circular structure (cyclic reference): the value at '${path}' is the one at '${first}'`;
        return new BSONError(`${this.cycleWording(at, key)}${detail}`, { code: 'ERR_BSON_CYCLE', path });
    }

    cycleWording() {
        return 'Cannot convert circular structure to BSON: ';
    }

    // after a throw the stack is left as it was at the throw
    clear() {
        this.stack.length = 0;
        this.keys.length = 0;
        this.depth = 0;
    }
}

module.exports = { ContainerStack };
