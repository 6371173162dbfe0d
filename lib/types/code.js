'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');

// inspect() called directly prints values as JSON, as bson does
function jsonInspect(value) {
    return JSON.stringify(value, (key, v) => {
        if (typeof v === 'bigint') return { $numberLong: String(v) };
        if (v instanceof Map) return Object.fromEntries(v);
        return v;
    });
}

// BSON JavaScript code (0x0D), or code with scope (0x0F) when scope is an object.
class Code extends BSONValue {
    constructor(code, scope) {
        super();
        if (code == null) {
            throw new BSONError(`Code must be constructed from a string or a function, got ${code}`);
        }
        this.code = code.toString();
        this.scope = scope == null ? null : scope;
    }

    get _bsontype() {
        return 'Code';
    }

    toJSON() {
        return this.scope != null ? { code: this.code, scope: this.scope } : { code: this.code };
    }

    // bson's Extended JSON hooks: the scope as it is, not converted
    toExtendedJSON() {
        return codeExtendedJSON(this.code, this.scope);
    }

    static fromExtendedJSON(doc) {
        return new Code(doc.$code, doc.$scope);
    }

    inspect(depth, options, inspect) {
        inspect = inspect || jsonInspect;
        let args = inspect(this.code, options);
        const multiLine = args.includes('\n');
        if (this.scope != null) args += `,${multiLine ? '\n' : ' '}${inspect(this.scope, options)}`;
        const closingNewline = multiLine && this.scope === null;
        return `new Code(${multiLine ? '\n' : ''}${args}${closingNewline ? '\n' : ''})`;
    }
}

// {$code} or {$code, $scope}; lib/ejson.js passes the scope it has converted
function codeExtendedJSON(code, scope) {
    return scope ? { $code: code, $scope: scope } : { $code: code };
}

module.exports = { Code, codeExtendedJSON };
