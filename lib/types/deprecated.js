'use strict';

// Deprecated BSON types that bson itself turns into other values on decode (DBPointer
// into a DBRef, undefined into null or undefined). qbson returns these instead with
// the decode option preserveDeprecated: true, so the bytes survive a round trip.

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { ObjectId } = require('./objectid');
const { DBRef } = require('./dbref');

// BSON DBPointer (0x0C): a namespace string and an ObjectId.
class DBPointer extends BSONValue {
    constructor(namespace, oid) {
        super();
        if (typeof namespace !== 'string') {
            throw new BSONError(`DBPointer namespace must be a string, got ${namespace === null ? 'null' : typeof namespace}`);
        }
        if (oid == null || oid._bsontype !== 'ObjectId') {
            throw new BSONError('DBPointer oid must be an ObjectId');
        }
        this.namespace = namespace;
        this.oid = oid;
    }

    get _bsontype() {
        return 'DBPointer';
    }

    toJSON() {
        return { $ref: this.namespace, $id: this.oid };
    }

    toExtendedJSON() {
        return { $dbPointer: { $ref: this.namespace, $id: ObjectId.prototype.toExtendedJSON.call(this.oid) } };
    }

    inspect(depth, options, inspect) {
        if (!inspect) return `new DBPointer(${JSON.stringify(this.namespace)}, new ObjectId(${JSON.stringify(this.oid)}))`;
        return `new DBPointer(${inspect(this.namespace, options)}, ${inspect(this.oid, options)})`;
    }
}

// BSON undefined (0x06). Every instance means the same value.
class BSONUndefined extends BSONValue {
    get _bsontype() {
        return 'Undefined';
    }

    toJSON() {
        return null;
    }

    toExtendedJSON() {
        return { $undefined: true };
    }

    inspect() {
        return 'new BSONUndefined()';
    }
}

module.exports = { DBPointer, BSONUndefined };
