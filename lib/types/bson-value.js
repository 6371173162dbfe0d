'use strict';

const { BSON_VERSION_SYMBOL, BSON_TYPE_SYMBOL, BSON_MAJOR_VERSION } = require('../constants');

// Base of every qbson type class. The version marker is what bson@7 checks to
// accept an object as one of its own types, so qbson values pass through bson
// unchanged and the other way round.
class BSONValue {
    get [BSON_VERSION_SYMBOL]() {
        return BSON_MAJOR_VERSION;
    }

    // bson@7's serializer dispatches on this tag rather than on _bsontype
    get [BSON_TYPE_SYMBOL]() {
        return this._bsontype;
    }

    [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
        return this.inspect(depth, options, inspect);
    }
}

module.exports = { BSONValue };
