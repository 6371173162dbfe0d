'use strict';

const { BSONValue } = require('./bson-value');

// The values that compare below (MinKey) and above (MaxKey) every other BSON value.

class MinKey extends BSONValue {
    get _bsontype() {
        return 'MinKey';
    }

    inspect() {
        return 'new MinKey()';
    }
}

class MaxKey extends BSONValue {
    get _bsontype() {
        return 'MaxKey';
    }

    inspect() {
        return 'new MaxKey()';
    }
}

module.exports = { MinKey, MaxKey };
