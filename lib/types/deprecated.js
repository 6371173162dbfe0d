'use strict';

// Deprecated BSON types that bson itself turns into other values on decode (DBPointer
// into a DBRef, undefined into null or undefined). qbson returns these instead with
// the decode option preserveDeprecated: true, so the bytes survive a round trip.

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { ObjectId, objectIdFromExtendedJSON } = require('./objectid');
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

// {$dbPointer: {$ref, $id: {$oid}}}: a DBRef, as bson gives it; a DBPointer with
// the preserveDeprecated option
function readDBPointerExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$dbPointer']);
    const inner = r.expectObject(obj.$dbPointer, '$dbPointer must be an object with $ref and $id');
    r.expectKeys(inner, Object.keys(inner), ['$ref', '$id']);
    const namespace = r.expectString(inner.$ref, '$dbPointer $ref');
    const id = r.expectObject(inner.$id, '$dbPointer $id must be an {$oid} object');
    r.expectKeys(id, Object.keys(id), ['$oid']);
    const oid = objectIdFromExtendedJSON(r, id.$oid, '$dbPointer $id');
    return r.preserveDeprecated ? new DBPointer(namespace, oid) : new DBRef(namespace, oid);
}

// {$undefined: true}: null, as bson gives it; a BSONUndefined with the preserveDeprecated option
function readUndefinedExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$undefined']);
    if (obj.$undefined !== true) throw r.fail(`$undefined must be true, not ${r.describe(obj.$undefined)}`);
    return r.preserveDeprecated ? new BSONUndefined() : null;
}

module.exports = { DBPointer, BSONUndefined, readDBPointerExtendedJSON, readUndefinedExtendedJSON };
