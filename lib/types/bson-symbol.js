'use strict';

const { BSONValue } = require('./bson-value');

// The deprecated BSON symbol type (0x0E): a string kept apart from ordinary strings.
class BSONSymbol extends BSONValue {
    constructor(value) {
        super();
        this.value = value;
    }

    get _bsontype() {
        return 'BSONSymbol';
    }

    valueOf() {
        return this.value;
    }

    toString() {
        return this.value;
    }

    toJSON() {
        return this.value;
    }

    // bson's Extended JSON hooks
    toExtendedJSON() {
        return { $symbol: this.value };
    }

    static fromExtendedJSON(doc) {
        return new BSONSymbol(doc.$symbol);
    }

    inspect(depth, options, inspect) {
        inspect = inspect || JSON.stringify;
        return `new BSONSymbol(${inspect(this.value, options)})`;
    }
}

module.exports = { BSONSymbol };
