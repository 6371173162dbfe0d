'use strict';

// A $jsonSchema inferred from documents, for the schema codec's tests and benchmark:
// each field's bsonType (every type it has across the documents, as the bytes hold
// it), `required` for the fields every document has, nested documents and the
// elements of arrays described the same way.

const qbson = require('../..');
const { bsonTypeOf } = require('../../lib/schema/values');

const TYPED = { promoteValues: false, promoteLongs: false, bsonRegExp: true, preserveDeprecated: true };

// values: those seen at one place (fields of one name, or the elements of arrays)
function describeValues(values) {
    const types = new Set();
    const docs = [];
    const elements = [];
    for (const v of values) {
        const t = bsonTypeOf(v, { undefinedAsNull: true });
        types.add(t);
        if (t === 'object' && v._bsontype === undefined) docs.push(v);
        else if (t === 'array') elements.push(...v);
    }
    const list = [...types].sort();
    const schema = { bsonType: list.length === 1 ? list[0] : list };
    if (docs.length > 0) Object.assign(schema, describeDocuments(docs));
    if (elements.length > 0) schema.items = describeValues(elements);
    return schema;
}

function describeDocuments(docs) {
    const byKey = new Map();
    for (const doc of docs) {
        for (const key of Object.keys(doc)) {
            if (!byKey.has(key)) byKey.set(key, []);
            byKey.get(key).push(doc[key]);
        }
    }
    const out = {};
    const required = [...byKey.keys()].filter((k) => byKey.get(k).length === docs.length);
    if (required.length > 0) out.required = required;
    if (byKey.size > 0) {
        out.properties = {};
        for (const [key, values] of byKey) {
            if (key === '__proto__') Object.defineProperty(out.properties, key, { value: describeValues(values), enumerable: true, writable: true, configurable: true });
            else out.properties[key] = describeValues(values);
        }
    }
    return out;
}

// the schema of the documents stored in `buffers`
function inferSchema(buffers) {
    const docs = buffers.map((b) => qbson.decode(b, TYPED));
    return { bsonType: 'object', ...describeDocuments(docs) };
}

module.exports = { inferSchema };
