'use strict';

const { BSONValue } = require('./bson-value');

// The values that compare below (MinKey) and above (MaxKey) every other BSON value.

class MinKey extends BSONValue {
    get _bsontype() {
        return 'MinKey';
    }

    // bson's Extended JSON hooks
    toExtendedJSON() {
        return { $minKey: 1 };
    }

    static fromExtendedJSON() {
        return new MinKey();
    }

    inspect() {
        return 'new MinKey()';
    }
}

class MaxKey extends BSONValue {
    get _bsontype() {
        return 'MaxKey';
    }

    // bson's Extended JSON hooks
    toExtendedJSON() {
        return { $maxKey: 1 };
    }

    static fromExtendedJSON() {
        return new MaxKey();
    }

    inspect() {
        return 'new MaxKey()';
    }
}

module.exports = { MinKey, MaxKey };
