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

// {$minKey: 1} or {$maxKey: 1}
function readKeyWrapper(r, obj, keys, key, KeyClass) {
    r.expectKeys(obj, keys, [key]);
    if (obj[key] !== 1) throw r.fail(`${key} must be 1, not ${r.describe(obj[key])}`);
    return new KeyClass();
}

function readMinKeyExtendedJSON(r, obj, keys) {
    return readKeyWrapper(r, obj, keys, '$minKey', MinKey);
}

function readMaxKeyExtendedJSON(r, obj, keys) {
    return readKeyWrapper(r, obj, keys, '$maxKey', MaxKey);
}

module.exports = { MinKey, MaxKey, readMinKeyExtendedJSON, readMaxKeyExtendedJSON };
