'use strict';

// A $jsonSchema read into a tree of checked nodes, refused as the server refuses
// it: the keywords MongoDB supports with the values it takes, and a BSONError
// (code ERR_BSON_SCHEMA_INVALID) naming the keyword and where it stands in the
// schema for anything else. The messages are the server's where it has words.

const { BSONError, isStackOverflow } = require('../errors');
const { bsonTypeOf, stored, NUMBER_TYPES, numeric, toDecimal, bsonEqual } = require('./values');

// bsonType's aliases; 'number' stands for the four numeric types
const BSON_TYPES = new Set(['double', 'string', 'object', 'array', 'binData', 'undefined', 'objectId', 'bool', 'date', 'null', 'regex',
    'dbPointer', 'javascript', 'symbol', 'javascriptWithScope', 'int', 'timestamp', 'long', 'decimal', 'minKey', 'maxKey', 'number']);
// type's: JSON's types, each the BSON types that stand for it
const JSON_TYPES = { object: ['object'], array: ['array'], number: ['int', 'long', 'double', 'decimal'], boolean: ['bool'], string: ['string'], null: ['null'] };

const KEYWORDS = new Set(['additionalItems', 'additionalProperties', 'allOf', 'anyOf', 'bsonType', 'dependencies', 'description', 'enum',
    'exclusiveMaximum', 'exclusiveMinimum', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength',
    'minProperties', 'minimum', 'multipleOf', 'not', 'oneOf', 'pattern', 'patternProperties', 'properties', 'required', 'title', 'type',
    'uniqueItems']);
// what the server refuses by name, and what it takes but qbson does not
const UNSUPPORTED = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);
const NOT_IN_QBSON = new Set(['encrypt', 'encryptMetadata']);

const hasOwn = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);

function invalid(message, schemaPath) {
    const err = new BSONError(`${message} (at ${schemaPath})`, { code: 'ERR_BSON_SCHEMA_INVALID' });
    err.schemaPath = schemaPath;
    return err;
}

// the schema's own fields as [key, value], in order
function fieldsOf(schema) {
    if (schema instanceof Map) return [...schema].map(([k, v]) => [String(k), v]);
    return Object.keys(schema).map((k) => [k, schema[k]]);
}

function isDocument(value) {
    return bsonTypeOf(stored(value)) === 'object';
}

function isArray(value) {
    return Array.isArray(value);
}

function typeName(value) {
    const t = bsonTypeOf(stored(value));
    return t === null ? typeof value : t;
}

// A schema: { $jsonSchema: {...} } or the $jsonSchema object itself.
function parseSchema(input) {
    let schema = input;
    if (schema == null || typeof schema !== 'object' || !isDocument(schema)) {
        throw invalid(`$jsonSchema must be an object, not ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeName(schema)}`, '$jsonSchema');
    }
    const fields = fieldsOf(schema);
    if (fields.length === 1 && fields[0][0] === '$jsonSchema') {
        schema = fields[0][1];
        if (schema == null || typeof schema !== 'object' || !isDocument(schema)) throw invalid('$jsonSchema must be an object', '$jsonSchema');
    }
    try {
        return parseNode(schema, '$jsonSchema', '', new Set());
    } catch (err) {
        if (isStackOverflow(err)) throw invalid('the schema nests too deeply', '$jsonSchema');
        throw err;
    }
}

function emptyNode(schemaPath, dataPath) {
    return {
        schemaPath, dataPath, title: null, cls: null,
        types: null, typeKeyword: null, typeNames: null,
        properties: null, propertyNodes: null, required: null, patternProperties: null, additionalProperties: null,
        minProperties: null, maxProperties: null, dependencies: null,
        enum: null, items: null, itemsList: null, additionalItems: null, minItems: null, maxItems: null, uniqueItems: false,
        minimum: null, exclusiveMinimum: false, maximum: null, exclusiveMaximum: false, multipleOf: null, multipleOfValue: null,
        minLength: null, maxLength: null, pattern: null,
        allOf: null, anyOf: null, oneOf: null, not: null,
        objectKeywords: false, arrayKeywords: false, numberKeywords: false, stringKeywords: false,
    };
}

// dataPath: where the node's values stand in a document, for options.classes
// ('address', 'items.[]'); null below a node that has no such place
function parseNode(schema, schemaPath, dataPath, ancestors) {
    if (ancestors.has(schema)) throw invalid('the schema contains itself', schemaPath);
    ancestors.add(schema);
    const node = emptyNode(schemaPath, dataPath);
    const kw = Object.create(null);
    for (const [key, value] of fieldsOf(schema)) {
        if (UNSUPPORTED.has(key)) throw invalid(`$jsonSchema keyword '${key}' is not currently supported`, `${schemaPath}.${key}`);
        if (NOT_IN_QBSON.has(key)) throw invalid(`$jsonSchema keyword '${key}' is not supported by qbson's codecs`, `${schemaPath}.${key}`);
        if (!KEYWORDS.has(key)) throw invalid(`Unknown $jsonSchema keyword: ${key}`, `${schemaPath}.${key}`);
        kw[key] = value;
    }
    readMetadata(node, kw, schemaPath);
    readType(node, kw, schemaPath);
    readScalarKeywords(node, kw, schemaPath);
    readObjectKeywords(node, kw, schemaPath, dataPath, ancestors);
    readArrayKeywords(node, kw, schemaPath, dataPath, ancestors);
    readLogicalKeywords(node, kw, schemaPath, dataPath, ancestors);
    ancestors.delete(schema);
    return node;
}

function readMetadata(node, kw, at) {
    for (const key of ['title', 'description']) {
        if (key in kw && typeof kw[key] !== 'string') throw invalid(`$jsonSchema keyword '${key}' must be of type string`, `${at}.${key}`);
    }
    if ('title' in kw) node.title = kw.title;
}

function readType(node, kw, at) {
    if ('type' in kw && 'bsonType' in kw) throw invalid("Cannot specify both $jsonSchema keywords 'type' and 'bsonType'", at);
    const keyword = 'type' in kw ? 'type' : 'bsonType' in kw ? 'bsonType' : null;
    if (keyword === null) return;
    const value = kw[keyword];
    const names = isArray(value) ? value : [value];
    const where = `${at}.${keyword}`;
    if (names.length === 0) throw invalid(`$jsonSchema keyword '${keyword}' must name at least one type`, where);
    const types = new Set();
    const seen = new Set();
    for (const name of names) {
        if (typeof name !== 'string') throw invalid(`$jsonSchema keyword '${keyword}' must be a string or an array of strings, not ${typeName(name)}`, where);
        if (seen.has(name)) throw invalid(`$jsonSchema keyword '${keyword}' has duplicate type '${name}'`, where);
        seen.add(name);
        if (keyword === 'type') {
            if (name === 'integer') throw invalid("$jsonSchema type 'integer' is not currently supported.", where);
            if (!hasOwn(JSON_TYPES, name)) throw invalid(`Unknown type name alias: ${name}`, where);
            for (const t of JSON_TYPES[name]) types.add(t);
        } else {
            if (!BSON_TYPES.has(name)) throw invalid(`Unknown type name alias: ${name}`, where);
            if (name === 'number') for (const t of JSON_TYPES.number) types.add(t);
            else types.add(name);
        }
    }
    node.types = types;
    node.typeKeyword = keyword;
    node.typeNames = names.slice();
}

// a number given as one (a JS number or bigint, or a BSON number type), as a number or bigint
function schemaNumber(value, keyword, at) {
    const v = stored(value);
    const t = bsonTypeOf(v);
    if (!NUMBER_TYPES.has(t)) throw invalid(`$jsonSchema keyword '${keyword}' must be a number`, `${at}.${keyword}`);
    return { value: v, type: t, number: numeric(v, t) };
}

// minLength and the like: a whole number, not negative
function schemaCount(value, keyword, at) {
    const { number } = schemaNumber(value, keyword, at);
    const n = typeof number === 'bigint' ? Number(number) : number;
    if (!Number.isInteger(n)) throw invalid(`Expected an integer in $jsonSchema keyword '${keyword}', but found ${String(number)}`, `${at}.${keyword}`);
    if (n < 0) throw invalid(`Expected a positive number in $jsonSchema keyword '${keyword}', but found ${String(number)}`, `${at}.${keyword}`);
    return n;
}

function schemaBoolean(value, keyword, at) {
    if (typeof value !== 'boolean') throw invalid(`$jsonSchema keyword '${keyword}' must be a boolean`, `${at}.${keyword}`);
    return value;
}

// A pattern as a JavaScript RegExp: with the u flag where the pattern allows it
// (\p{...}, code points), else without. The server's is PCRE (docs/schema.md lists the differences).
function schemaRegExp(source, keyword, at) {
    try {
        return new RegExp(source, 'u');
    } catch {
        try {
            return new RegExp(source);
        } catch (err) {
            throw invalid(`$jsonSchema keyword '${keyword}' has a pattern JavaScript cannot compile: ${err.message}`, `${at}.${keyword}`);
        }
    }
}

function readScalarKeywords(node, kw, at) {
    if ('pattern' in kw) {
        if (typeof kw.pattern !== 'string') throw invalid("$jsonSchema keyword 'pattern' must be a string", `${at}.pattern`);
        node.pattern = { source: kw.pattern, re: schemaRegExp(kw.pattern, 'pattern', at) };
    }
    if ('maxLength' in kw) node.maxLength = schemaCount(kw.maxLength, 'maxLength', at);
    if ('minLength' in kw) node.minLength = schemaCount(kw.minLength, 'minLength', at);
    if ('multipleOf' in kw) {
        const m = schemaNumber(kw.multipleOf, 'multipleOf', at);
        const d = toDecimal(m.value, m.type);
        if (d === null || d.c <= 0n) throw invalid("$jsonSchema keyword 'multipleOf' must have a positive value", `${at}.multipleOf`);
        node.multipleOf = d;
        node.multipleOfValue = m.number;
    }
    for (const [limit, exclusive] of [['maximum', 'exclusiveMaximum'], ['minimum', 'exclusiveMinimum']]) {
        if (limit in kw) {
            if (exclusive in kw) node[exclusive] = schemaBoolean(kw[exclusive], exclusive, at);
            node[limit] = schemaNumber(kw[limit], limit, at).number;
        } else if (exclusive in kw) {
            throw invalid(`$jsonSchema keyword '${limit}' must be a present if ${exclusive} is present`, `${at}.${exclusive}`);
        }
    }
    node.numberKeywords = node.maximum !== null || node.minimum !== null || node.multipleOf !== null;
    node.stringKeywords = node.pattern !== null || node.maxLength !== null || node.minLength !== null;
}

function childPath(dataPath, key) {
    if (dataPath === null) return null;
    return dataPath === '' ? key : `${dataPath}.${key}`;
}

function readObjectKeywords(node, kw, at, dataPath, ancestors) {
    if ('required' in kw) {
        const req = kw.required;
        if (!isArray(req)) throw invalid(`$jsonSchema keyword 'required' must be an array, but found an element of type ${typeName(req)}`, `${at}.required`);
        for (const name of req) {
            if (typeof name !== 'string') throw invalid(`$jsonSchema keyword 'required' must be an array of strings, but found an element of type: ${typeName(name)}`, `${at}.required`);
        }
        if (req.length === 0) throw invalid("$jsonSchema keyword 'required' cannot be an empty array", `${at}.required`);
        if (new Set(req).size !== req.length) throw invalid("$jsonSchema keyword 'required' array cannot contain duplicate values", `${at}.required`);
        node.required = req.slice();
    }
    if ('properties' in kw) {
        if (!isDocument(kw.properties)) throw invalid("$jsonSchema keyword 'properties' must be an object", `${at}.properties`);
        node.properties = [];
        for (const [name, sub] of fieldsOf(kw.properties)) {
            if (!isDocument(sub)) throw invalid(`Nested schema for $jsonSchema property '${name}' must be an object`, `${at}.properties.${name}`);
            node.properties.push({ name, node: parseNode(sub, `${at}.properties.${name}`, childPath(dataPath, name), ancestors) });
        }
        node.propertyNodes = new Map(node.properties.map((p) => [p.name, p.node]));
    }
    if ('patternProperties' in kw) {
        if (!isDocument(kw.patternProperties)) throw invalid("$jsonSchema keyword 'patternProperties' must be an object", `${at}.patternProperties`);
        node.patternProperties = [];
        for (const [source, sub] of fieldsOf(kw.patternProperties)) {
            const where = `${at}.patternProperties.${source}`;
            if (!isDocument(sub)) throw invalid(`$jsonSchema keyword 'patternProperties' has property '${source}' which is not an object`, where);
            node.patternProperties.push({ source, re: schemaRegExp(source, 'patternProperties', at), node: parseNode(sub, where, null, ancestors) });
        }
    }
    if ('additionalProperties' in kw) {
        const ap = kw.additionalProperties;
        if (typeof ap === 'boolean') node.additionalProperties = ap ? null : false;
        else if (isDocument(ap)) node.additionalProperties = parseNode(ap, `${at}.additionalProperties`, null, ancestors);
        else throw invalid("$jsonSchema keyword 'additionalProperties' must be an object or a boolean", `${at}.additionalProperties`);
    }
    if ('minProperties' in kw) node.minProperties = schemaCount(kw.minProperties, 'minProperties', at);
    if ('maxProperties' in kw) node.maxProperties = schemaCount(kw.maxProperties, 'maxProperties', at);
    if ('dependencies' in kw) readDependencies(node, kw.dependencies, at, dataPath, ancestors);
    node.objectKeywords = node.required !== null || node.properties !== null || node.patternProperties !== null ||
        node.additionalProperties !== null || node.minProperties !== null || node.maxProperties !== null || node.dependencies !== null;
}

function readDependencies(node, deps, at, dataPath, ancestors) {
    if (!isDocument(deps)) throw invalid("$jsonSchema keyword 'dependencies' must be an object", `${at}.dependencies`);
    node.dependencies = [];
    for (const [name, dep] of fieldsOf(deps)) {
        const where = `${at}.dependencies.${name}`;
        if (isArray(dep)) {
            if (dep.length === 0) throw invalid(`property '${name}' in $jsonSchema keyword 'dependencies' cannot be an empty array`, where);
            const seen = new Set();
            for (const d of dep) {
                if (typeof d !== 'string') throw invalid(`array '${name}' in $jsonSchema keyword 'dependencies' can only contain strings, but found element of type: ${typeName(d)}`, where);
                if (seen.has(d)) throw invalid(`array '${name}' in $jsonSchema keyword 'dependencies' contains duplicate element: ${d}`, where);
                seen.add(d);
            }
            node.dependencies.push({ name, names: dep.slice(), node: null });
        } else if (isDocument(dep)) {
            node.dependencies.push({ name, names: null, node: parseNode(dep, where, dataPath, ancestors) });
        } else {
            throw invalid(`property '${name}' in $jsonSchema keyword 'dependencies' must be either an object or an array`, where);
        }
    }
}

function readArrayKeywords(node, kw, at, dataPath, ancestors) {
    if ('minItems' in kw) node.minItems = schemaCount(kw.minItems, 'minItems', at);
    if ('maxItems' in kw) node.maxItems = schemaCount(kw.maxItems, 'maxItems', at);
    if ('uniqueItems' in kw) node.uniqueItems = schemaBoolean(kw.uniqueItems, 'uniqueItems', at);
    if ('items' in kw) {
        const items = kw.items;
        if (isArray(items)) {
            node.itemsList = items.map((sub, i) => {
                if (!isDocument(sub)) throw invalid(`$jsonSchema keyword 'items' requires that each element of the array is an object, but found a ${typeName(sub)}`, `${at}.items.${i}`);
                return parseNode(sub, `${at}.items.${i}`, null, ancestors);
            });
        } else if (isDocument(items)) {
            node.items = parseNode(items, `${at}.items`, childPath(dataPath, '[]'), ancestors);
        } else {
            throw invalid(`$jsonSchema keyword 'items' must be an array or an object, not ${typeName(items)}`, `${at}.items`);
        }
    }
    if ('additionalItems' in kw) {
        const ai = kw.additionalItems;
        let parsed;
        if (typeof ai === 'boolean') parsed = ai ? null : false;
        else if (isDocument(ai)) parsed = parseNode(ai, `${at}.additionalItems`, null, ancestors);
        else throw invalid(`$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a ${typeName(ai)}`, `${at}.additionalItems`);
        // it applies only after a list of items
        if (node.itemsList !== null) node.additionalItems = parsed;
    }
    node.arrayKeywords = node.minItems !== null || node.maxItems !== null || node.uniqueItems || node.items !== null || node.itemsList !== null;
}

function readLogicalKeywords(node, kw, at, dataPath, ancestors) {
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
        if (!(key in kw)) continue;
        const list = kw[key];
        if (!isArray(list)) throw invalid(`$jsonSchema keyword '${key}' must be an array`, `${at}.${key}`);
        if (list.length === 0) throw invalid(`$jsonSchema keyword '${key}' must be a non-empty array`, `${at}.${key}`);
        node[key] = list.map((sub, i) => {
            if (!isDocument(sub)) throw invalid(`$jsonSchema keyword '${key}' must be an array of objects, but found an element of type ${typeName(sub)}`, `${at}.${key}.${i}`);
            return parseNode(sub, `${at}.${key}.${i}`, null, ancestors);
        });
    }
    if ('not' in kw) {
        if (!isDocument(kw.not)) throw invalid(`$jsonSchema keyword 'not' must be an object, but found an element of type ${typeName(kw.not)}`, `${at}.not`);
        node.not = parseNode(kw.not, `${at}.not`, null, ancestors);
    }
    if ('enum' in kw) readEnum(node, kw.enum, at);
}

function readEnum(node, values, at) {
    if (!isArray(values)) throw invalid(`$jsonSchema keyword 'enum' must be an array, but found an element of type ${typeName(values)}`, `${at}.enum`);
    if (values.length === 0) throw invalid("$jsonSchema keyword 'enum' cannot be an empty array", `${at}.enum`);
    const list = values.map(stored);
    for (let i = 0; i < list.length; i++) {
        for (let j = 0; j < i; j++) {
            if (bsonEqual(list[i], list[j])) throw invalid("$jsonSchema keyword 'enum' array cannot contain duplicate values.", `${at}.enum`);
        }
    }
    node.enum = list;
}

// every node of the tree, each once, with the node it hangs from
function walkNodes(node, visit) {
    visit(node);
    const children = [];
    if (node.properties) for (const p of node.properties) children.push(p.node);
    if (node.patternProperties) for (const p of node.patternProperties) children.push(p.node);
    if (node.additionalProperties) children.push(node.additionalProperties);
    if (node.dependencies) for (const d of node.dependencies) if (d.node) children.push(d.node);
    if (node.items) children.push(node.items);
    if (node.itemsList) children.push(...node.itemsList);
    if (node.additionalItems) children.push(node.additionalItems);
    for (const key of ['allOf', 'anyOf', 'oneOf']) if (node[key]) children.push(...node[key]);
    if (node.not) children.push(node.not);
    for (const c of children) walkNodes(c, visit);
}

module.exports = { parseSchema, walkNodes };
