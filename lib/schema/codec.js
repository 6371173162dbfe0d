'use strict';

// compile(schema, options): a codec for the documents a $jsonSchema describes.
//   validate(doc)       every problem, [] when doc conforms (doc typed as encode would write it)
//   decode(bytes, opts) the document, checked with the types the bytes hold
//   encode(doc, opts)   the bytes, doc checked first
// A document that does not conform makes decode and encode throw a BSONError
// with code ERR_BSON_SCHEMA, the failing `path` and `rule`.
//
// Without options, decode and encode first try the code generated from the schema
// (lib/schema/generate.js, generate-writer.js), which reads or writes and checks in
// one pass, and validate the generated checker. Whatever that code does not take
// comes here: decode then checks the document as decode with promoteValues: false
// gives it (a stored double 1.0 is a Double there, an int32 an Int32) and returns
// what decode(bytes, opts) gives, built into the classes of options.classes; encode
// checks with the interpreter and writes with encode.

const { BSONError } = require('../errors');
const { option, optionError, describe, checkOptionsObject } = require('../options');
const { decode } = require('../decode');
const { encode } = require('../encode');
const { setField } = require('../set-field');
const { parseSchema, walkNodes } = require('./keywords');
const { problemsOf, DEFAULT_CONTEXT } = require('./check');
const { generateReader, generateChecker, FAIL } = require('./generate');
const { generateWriter } = require('./generate-writer');
const { KeyOrders } = require('./key-orders');
const { toBuffer } = require('../decoder');
const { primitivesHaveToBSON } = require('../encode');

// the decode options the checked form is read with; index and the like are the caller's
const TYPED = { promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true, preserveDeprecated: true };
const PASSED_TO_TYPED = ['index', 'allowObjectSmallerThanBufferSize', 'validation', 'maxDepth'];
// decode options a checked decode cannot honour: they leave out or keep raw what the schema checks
const REFUSED_DECODE_OPTIONS = ['fields', 'raw', 'fieldsAsRaw'];

function schemaError(p) {
    const err = new BSONError(`Document failed validation: ${p.message}`, { code: 'ERR_BSON_SCHEMA', path: p.path });
    err.rule = p.rule;
    err.schemaPath = p.schemaPath;
    return err;
}

class SchemaCodec {
    constructor(root, generated) {
        this.root = root;
        this.classed = false;
        // the generated reader and checker (lib/schema/generate.js), null where there is none
        // the key orders the generated reader learns from documents (lib/schema/key-orders.js)
        this.orders = new KeyOrders();
        this.read = generated ? generateReader(root, this.orders) : null;
        this.conforms = generated ? generateChecker(root) : null;
        this.write = generated ? generateWriter(root) : null;
    }

    validate(doc) {
        checkDocument(doc);
        if (this.conforms !== null && !primitivesHaveToBSON() && this.conforms(doc)) return [];
        return problemsOf(this.root, doc, DEFAULT_CONTEXT);
    }

    decode(bytes, opts) {
        if (opts === undefined && this.read !== null && bytes instanceof Uint8Array) {
            const doc = this.read(toBuffer(bytes));
            if (this.orders.stale) this.relearn();
            if (doc !== FAIL) return this.classed ? build(this.root, doc) : doc;
        }
        return this.interpretedDecode(bytes, opts);
    }

    // the reader generated again, in the key orders documents came in
    relearn() {
        this.orders.regenerated();
        const read = generateReader(this.root, this.orders);
        if (read !== null) this.read = read;
    }

    // decode's result checked by the interpreter: every document the generated reader does not take
    interpretedDecode(bytes, opts) {
        checkOptionsObject(opts);
        for (const name of REFUSED_DECODE_OPTIONS) {
            if (option(opts, name) != null) throw new BSONError(`option ${name} is for decode, not a schema codec's decode`, { code: 'ERR_BSON_OPTION' });
        }
        const typedOpts = Object.assign({}, TYPED);
        for (const name of PASSED_TO_TYPED) {
            const v = option(opts, name);
            if (v !== undefined) typedOpts[name] = v;
        }
        // decode's own errors first, as decode(bytes, opts) gives them
        const doc = decode(bytes, opts);
        const typed = decode(bytes, typedOpts);
        const problems = problemsOf(this.root, typed, DEFAULT_CONTEXT);
        if (problems.length > 0) throw schemaError(problems[0]);
        return this.classed ? build(this.root, doc) : doc;
    }

    encode(doc, opts) {
        checkOptionsObject(opts);
        checkDocument(doc);
        if (opts === undefined && this.conforms !== null && !primitivesHaveToBSON()) {
            if (this.write !== null) {
                const out = this.write(doc);
                if (out !== FAIL) return out;
            }
            if (this.conforms(doc)) return encode(doc);
        }
        const ctx = {
            undefinedAsNull: option(opts, 'ignoreUndefined') === false,
            serializeFunctions: option(opts, 'serializeFunctions') === true,
        };
        const problems = problemsOf(this.root, doc, ctx);
        if (problems.length > 0) throw schemaError(problems[0]);
        return encode(doc, opts);
    }
}

// what encode takes as a document, for validate too
function checkDocument(doc) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || typeof doc._bsontype === 'string' || doc instanceof Date ||
        doc instanceof RegExp || doc instanceof Uint8Array || doc instanceof ArrayBuffer) {
        throw new BSONError(`a schema codec checks a document (an object), not ${describe(doc)}`, { code: 'ERR_BSON_SCHEMA' });
    }
}

// ---- options.classes ----

// Each key of classes names sub-schemas by title, or by where their values stand
// ('address', 'items.[]' for every element of the array items, '' for the document).
function assignClasses(root, classes) {
    if (classes === undefined) return false;
    if (classes === null || typeof classes !== 'object') throw optionError('classes', 'an object mapping titles or paths to classes', classes);
    const nodes = [];
    walkNodes(root, (n) => nodes.push(n));
    let any = false;
    for (const key of Object.keys(classes)) {
        const cls = classes[key];
        if (typeof cls !== 'function' || cls.prototype == null || typeof cls.prototype !== 'object') {
            throw optionError(`classes['${key}']`, 'a class', cls);
        }
        const named = nodes.filter((n) => n.title === key || n.dataPath === key);
        if (named.length === 0) throw optionError(`classes['${key}']`, 'a class for a sub-schema the schema has (by title or path)', key);
        for (const n of named) n.cls = cls;
        any = true;
    }
    return any;
}

// value, its documents at nodes with a class built into that class (prototype set,
// fields copied, constructor not run)
function build(node, value) {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
        if (node.items !== null) {
            for (let i = 0; i < value.length; i++) value[i] = build(node.items, value[i]);
        } else if (node.itemsList !== null) {
            for (let i = 0; i < value.length; i++) {
                const sub = i < node.itemsList.length ? node.itemsList[i] : node.additionalItems;
                if (sub) value[i] = build(sub, value[i]);
            }
        }
        return value;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return value;
    const keys = Object.keys(value);
    if (keys.length > 0 && (node.properties !== null || node.patternProperties !== null || node.additionalProperties)) {
        const named = node.properties === null ? null : new Map(node.properties.map((p) => [p.name, p.node]));
        for (const key of keys) {
            const sub = childNode(node, named, key);
            if (sub !== null) setField(value, key, build(sub, value[key]));
        }
    }
    if (node.cls === null) return value;
    const obj = Object.create(node.cls.prototype);
    for (const key of keys) setField(obj, key, value[key]);
    return obj;
}

function childNode(node, named, key) {
    if (named !== null && named.has(key)) return named.get(key);
    if (node.patternProperties !== null) {
        for (const p of node.patternProperties) {
            p.re.lastIndex = 0;
            if (p.re.test(key)) return p.node;
        }
    }
    return node.additionalProperties || null;
}

// generated: false gives a codec that only interprets (the tests compare the two)
function compile(schema, opts, generated = true) {
    checkOptionsObject(opts);
    const root = parseSchema(schema);
    const codec = new SchemaCodec(root, generated);
    codec.classed = assignClasses(root, option(opts, 'classes'));
    return codec;
}

module.exports = { compile, SchemaCodec };
