'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { setField } = require('../set-field');
const { option } = require('../options');

// inspect() called directly prints values as JSON, as bson does
function jsonInspect(value) {
    return JSON.stringify(value, (key, v) => {
        if (typeof v === 'bigint') return { $numberLong: String(v) };
        if (v instanceof Map) return Object.fromEntries(v);
        return v;
    });
}

// A reference to a document in another collection: the {$ref, $id, $db} convention.
class DBRef extends BSONValue {
    // A collection given as 'db.collection' (exactly one dot) sets db too, overriding
    // the db argument, as bson does.
    constructor(collection, oid, db, fields) {
        super();
        if (typeof collection !== 'string') {
            throw new BSONError(`DBRef collection must be a string, got ${collection === null ? 'null' : typeof collection}`);
        }
        const parts = collection.split('.');
        if (parts.length === 2) {
            db = parts[0];
            collection = parts[1];
        }
        this.collection = collection;
        this.oid = oid;
        this.db = db;
        this.fields = fields || {};
    }

    get _bsontype() {
        return 'DBRef';
    }

    // the name the 1.x parser used for collection
    get namespace() {
        return this.collection;
    }

    set namespace(value) {
        this.collection = value;
    }

    toJSON() {
        const o = Object.assign({ $ref: this.collection, $id: this.oid }, this.fields);
        if (this.db != null) o.$db = this.db;
        return o;
    }

    // bson's Extended JSON hooks: $id and the fields as they are, not converted
    toExtendedJSON(options) {
        return dbRefExtendedJSON(this, Boolean(option(options, 'legacy')));
    }

    static fromExtendedJSON(doc) {
        const fields = {};
        for (const key of Object.keys(doc)) {
            if (key !== '$ref' && key !== '$id' && key !== '$db') setField(fields, key, doc[key]);
        }
        return new DBRef(doc.$ref, doc.$id, doc.$db, fields);
    }

    inspect(depth, options, inspect) {
        const direct = !inspect;
        inspect = inspect || jsonInspect;
        const oid = inspect(this.oid, options);
        const args = [inspect(this.namespace, options), direct ? `new ObjectId(${oid})` : oid];
        if (this.db) args.push(inspect(this.db, options));
        if (Object.keys(this.fields).length > 0) args.push(inspect(this.fields, options));
        return `new DBRef(${args.join(', ')})`;
    }
}

// {$ref, $id} and, unless legacy, $db and the fields; `ref` is a DBRef or its parts
// ({collection, oid, db, fields}) as lib/ejson.js has converted them.
function dbRefExtendedJSON(ref, legacy) {
    const out = { $ref: ref.collection, $id: ref.oid };
    if (legacy) return out;
    if (ref.db) out.$db = ref.db;
    if (ref.fields) {
        for (const key of Object.keys(ref.fields)) setField(out, key, ref.fields[key]);
    }
    return out;
}

module.exports = { DBRef, dbRefExtendedJSON };
