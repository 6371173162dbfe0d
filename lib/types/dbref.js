'use strict';

const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { setField } = require('../wide-object');
const { option } = require('../options');
const { EJSON_READER } = require('../constants');

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
        const out = { $ref: this.collection, $id: this.oid };
        if (option(options, 'legacy')) return out;
        if (this.db) out.$db = this.db;
        if (this.fields) {
            for (const key of Object.keys(this.fields)) setField(out, key, this.fields[key]);
        }
        return out;
    }

    static fromExtendedJSON(doc) {
        const fields = {};
        for (const key of Object.keys(doc)) {
            if (key !== '$ref' && key !== '$id' && key !== '$db') setField(fields, key, doc[key]);
        }
        return new DBRef(doc.$ref, doc.$id, doc.$db, fields);
    }

    // A document whose values are read already: a DBRef if it follows the convention
    // ($ref a string, $id present, $db absent or a string, no other $-keys), else
    // the document as it is (spec).
    static [EJSON_READER](r, obj, keys) {
        if (typeof obj.$ref !== 'string' || obj.$id == null) return obj;
        if (obj.$db !== undefined && typeof obj.$db !== 'string') return obj;
        for (let i = 0; i < keys.length; i++) {
            const k = keys[i];
            if (k.charCodeAt(0) === 36 /* $ */ && k !== '$ref' && k !== '$id' && k !== '$db') return obj;
        }
        return DBRef.fromExtendedJSON(obj);
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

module.exports = { DBRef };
