'use strict';

// compile(schema): the server's own $jsonSchema tests (mongodb/mongo jstests/core/json_schema/)
// as small named cases, each run through validate and through decode of the encoded document;
// what compile refuses; the errors' path, rule and message; the codec against decode and encode
// on the benchmark's data sets with a schema inferred from each; options.classes; hostile names.

const assert = require('assert');
const qbson = require('..');
const path = require('path');
const { Int32, Double, Long, Decimal128, ObjectId, MinKey, MaxKey, Timestamp, Code, BSONRegExp, BSONSymbol, Binary } = qbson;
const datasets = require('../benchmark/datasets');
const { inferSchema } = require('./support/infer-schema');
const { compile: compileWith } = require('../lib/schema/codec');
const { FAIL, Builders } = require('../lib/schema/generate');

// ---- every codec call through both paths ----
// compileBoth(schema, opts) gives a codec whose validate, decode and encode run the
// generated code and the interpreter and assert they agree: the same value (with
// its keys in the same order, its classes) or the same error (class, code, path,
// rule, message, schemaPath).

const { outcome, keyOrder } = require('./support/outcome');

function agree(generated, interpreted, what) {
    if (generated.err || interpreted.err) {
        const err = generated.err || interpreted.err;
        assert.ok(generated.err && interpreted.err, `${what}: only one path threw: ${err.stack}`);
        assert.strictEqual(generated.err.constructor, interpreted.err.constructor, what);
        for (const key of ['code', 'path', 'rule', 'message', 'schemaPath']) assert.deepStrictEqual(generated.err[key], interpreted.err[key], `${what}: ${key}`);
        throw generated.err;
    }
    assert.deepStrictEqual(generated.value, interpreted.value, what);
    assert.deepStrictEqual(keyOrder(generated.value), keyOrder(interpreted.value), `${what}: key order`);
    return generated.value;
}

function compileBoth(schema, opts) {
    const gen = compileWith(schema, opts, true);
    const int = compileWith(schema, opts, false);
    return {
        generated: gen,
        interpreted: int,
        validate: (doc) => agree(outcome(() => gen.validate(doc)), outcome(() => int.validate(doc)), 'validate'),
        decode: (bytes, o) => agree(outcome(() => gen.decode(bytes, o)), outcome(() => int.decode(bytes, o)), 'decode'),
        encode: (doc, o) => agree(outcome(() => gen.encode(doc, o)), outcome(() => int.encode(doc, o)), 'encode'),
    };
}

// runs a compileBoth call for the agreement it asserts: the error both paths threw is
// the case's outcome, a disagreement fails the test
function agreeing(fn) {
    try {
        fn();
    } catch (err) {
        if (err instanceof assert.AssertionError) throw err;
    }
}

function isSchemaError(err) {
    return err instanceof qbson.BSONError && err.code === 'ERR_BSON_SCHEMA';
}

// whether doc conforms, asked of validate and of decode (which reads the types from the bytes)
function conforms(schema, doc) {
    const codec = compileBoth(schema);
    const byValidate = codec.validate(doc).length === 0;
    let byDecode = true;
    try {
        codec.decode(qbson.encode(doc));
    } catch (err) {
        if (!isSchemaError(err)) throw err;
        byDecode = false;
    }
    assert.strictEqual(byDecode, byValidate, `validate and decode disagree on ${JSON.stringify(schema)}`);
    return byValidate;
}

// [schema, document, conforms] from the server's tests; the shell's 3 is a double: new Double(3) here
const SERVER_CASES = {
    'bsontype.js': [
        [{ properties: { num: { bsonType: 'double' } } }, { num: new Double(3) }, true],
        [{ properties: { num: { bsonType: 'double' } } }, { num: new Long(3) }, false],
        [{ properties: { num: { bsonType: 'double' } } }, { num: new Int32(3) }, false],
        [{ properties: { num: { bsonType: 'double' } } }, { num: Decimal128.fromString('3') }, false],
        [{ properties: { num: { bsonType: 'double' } } }, { num: {} }, false],
        [{ properties: { num: { bsonType: 'double' } } }, { num: [new Double(3)] }, false],
        [{ properties: { num: { bsonType: 'double' } } }, { foo: {} }, true],
        [{ properties: { str: { bsonType: 'string' } } }, { str: '' }, true],
        [{ properties: { str: { bsonType: 'string' } } }, { str: true }, false],
        [{ properties: { str: { type: 'string' } } }, { str: [1, 'foo'] }, false],
        [{ bsonType: 'object' }, {}, true],
        [{ properties: { obj: { type: 'object' } } }, { obj: [{}] }, false],
        [{ bsonType: 'array' }, { arr: [] }, false],
        [{ properties: { arr: { bsonType: 'array' } } }, { arr: [] }, true],
        [{ properties: { arr: { type: 'array' } } }, { arr: {} }, false],
        [{ properties: { bin: { bsonType: 'binData' } } }, { bin: new Binary(Buffer.alloc(21)) }, true],
        [{ properties: { u: { bsonType: 'undefined' } }, required: ['u'] }, { u: new qbson.BSONUndefined() }, true],
        [{ properties: { u: { bsonType: 'undefined' } }, required: ['u'] }, {}, false],
        [{ properties: { u: { bsonType: 'undefined' } }, required: ['u'] }, { u: null }, false],
        [{ properties: { o: { bsonType: 'objectId' } } }, { o: new ObjectId() }, true],
        [{ properties: { o: { bsonType: 'objectId' } } }, { o: 1 }, false],
        [{ properties: { b: { bsonType: 'bool' } } }, { b: false }, true],
        [{ properties: { b: { type: 'boolean' } } }, { b: 1 }, false],
        [{ properties: { date: { bsonType: 'date' } } }, { date: new Date() }, true],
        [{ properties: { date: { bsonType: 'date' } } }, { date: 1 }, false],
        [{ properties: { n: { bsonType: 'null' } }, required: ['n'] }, { n: null }, true],
        [{ properties: { n: { type: 'null' } }, required: ['n'] }, {}, false],
        [{ properties: { r: { bsonType: 'regex' } } }, { r: /^abc/ }, true],
        [{ properties: { r: { bsonType: 'regex' } } }, { r: '^abc' }, false],
        [{ properties: { code: { bsonType: 'javascript' } } }, { code: new Code('function() { return true; }') }, true],
        [{ properties: { code: { bsonType: 'javascriptWithScope' } } }, { code: new Code('function() { return true; }', { scope: true }) }, true],
        [{ properties: { code: { bsonType: 'javascriptWithScope' } } }, { code: 1 }, false],
        [{ properties: { num: { bsonType: 'int' } } }, { num: new Int32(3) }, true],
        [{ properties: { num: { bsonType: 'int' } } }, { num: new Long(3) }, false],
        [{ properties: { num: { bsonType: 'int' } } }, { num: new Double(3) }, false],
        [{ properties: { ts: { bsonType: 'timestamp' } } }, { ts: new Timestamp({ t: 0, i: 1234 }) }, true],
        [{ properties: { ts: { bsonType: 'timestamp' } } }, { ts: new Date() }, false],
        [{ properties: { num: { bsonType: 'long' } } }, { num: new Long(3) }, true],
        [{ properties: { num: { bsonType: 'long' } } }, { num: new Int32(3) }, false],
        [{ properties: { num: { bsonType: 'decimal' } } }, { num: Decimal128.fromString('3') }, true],
        [{ properties: { num: { bsonType: 'decimal' } } }, { num: new Double(3) }, false],
        [{ properties: { k: { bsonType: 'minKey' } } }, { k: new MinKey() }, true],
        [{ properties: { k: { bsonType: 'minKey' } } }, { k: new MaxKey() }, false],
        [{ properties: { k: { bsonType: 'maxKey' } } }, { k: new MaxKey() }, true],
        [{ type: 'object', properties: { obj: { bsonType: 'object' } } }, { obj: [] }, false],
        [{ properties: { a: { bsonType: 'long' }, b: { type: 'null' } } }, { a: 3, b: null }, false],
        [{ properties: { f: { type: ['number', 'string'] } } }, { f: 'str' }, true],
        [{ properties: { f: { type: ['number', 'string'] } } }, { f: {} }, false],
        [{ properties: { f: { bsonType: ['objectId', 'double'] } } }, { f: new Double(1) }, true],
        [{ properties: { f: { bsonType: ['objectId', 'double'] } } }, { f: new Int32(1) }, false],
        [{ type: ['object', 'string'] }, { foo: 1, bar: 1 }, true],
    ],
    'json_schema.js': [
        [{ properties: { num: { type: 'number' } } }, { num: new Long(1) }, true],
        [{ properties: { num: { type: 'number' } } }, { num: 'str' }, false],
        [{ properties: { num: { type: 'number', maximum: -1 } } }, { num: new Int32(-2) }, true],
        [{ properties: { num: { type: 'number', maximum: -1 } } }, { num: new Long(1) }, false],
        [{ properties: { num: { bsonType: 'long', maximum: 0 } } }, { num: Long.fromNumber(-1) }, true],
        [{ properties: { num: { maximum: 0 } } }, { num: 'str' }, true],
        [{ properties: { num: { maximum: 0 } } }, { num: {} }, true],
        [{ properties: { num: { type: 'string', maximum: 0 } } }, { num: 'string' }, true],
        [{ properties: { num: { type: 'string', maxLength: 3 } } }, { num: 'str' }, true],
        [{ properties: { num: { type: 'string', maxLength: 2 } } }, { num: 'str' }, false],
        [{ properties: { num: { type: 'string', minLength: 4 } } }, { num: 'str' }, false],
        [{ properties: { num: { type: 'string', pattern: 'ing' } } }, { num: 'string' }, true],
        [{ properties: { num: { type: 'string', pattern: 'ing' } } }, { num: 'str' }, false],
        [{ type: 'string' }, {}, false],
        [{ bsonType: 'objectId' }, {}, false],
        [{ properties: { obj: { properties: { f1: { type: 'object', properties: { f3: { type: 'string' } } }, f2: { type: 'string' } } } } }, { obj: 3 }, true],
        [{ properties: { obj: { properties: { f1: { type: 'object', properties: { f3: { type: 'string' } } }, f2: { type: 'string' } } } } }, { obj: { f1: 'str', f2: 'str' } }, false],
        [{ properties: { arr: { type: 'number' } } }, { arr: [{ a: 1 }] }, false],
        [{ properties: { a: { description: 'test', title: "this is a's title" } } }, { a: {} }, true],
    ],
    'logical_keywords.js': [
        [{ properties: { foo: { allOf: [{ minimum: 1 }] } } }, { foo: 0 }, false],
        [{ properties: { foo: { allOf: [{ minimum: 1 }] } } }, { foo: 'string' }, true],
        [{ allOf: [{ type: 'string' }] }, {}, false],
        [{ properties: { foo: { anyOf: [{ type: 'string' }, { type: 'number', minimum: 1 }] } } }, { foo: 0 }, false],
        [{ properties: { foo: { anyOf: [{ type: 'string' }, { type: 'object' }] } } }, { foo: [{}] }, false],
        [{ properties: { foo: { oneOf: [{ minimum: 0 }, { maximum: 3 }] } } }, { foo: 4 }, true],
        [{ properties: { foo: { oneOf: [{ minimum: 0 }, { maximum: 3 }] } } }, { foo: 1 }, false],
        [{ properties: { foo: { oneOf: [{ minimum: 0 }, { maximum: 3 }] } } }, { foo: 'str' }, false],
        [{ oneOf: [{}, {}] }, {}, false],
        [{ properties: { foo: { not: { type: 'number' } } } }, { foo: 1 }, false],
        [{ properties: { foo: { not: {} } } }, {}, true],
        [{ not: {} }, {}, false],
        [{ not: { properties: { foo: { type: 'string' } } } }, {}, false],
        [{ properties: { foo: { type: 'string', not: { maxLength: 4 } } } }, { foo: 'str' }, false],
        [{ properties: { a: { enum: ['str', 5] } } }, { a: 5 }, true],
        [{ properties: { a: { enum: ['str', 5] } } }, { a: ['str'] }, false],
        [{ properties: { a: { enum: [null] } } }, { a: new qbson.BSONUndefined() }, false],
        [{ properties: { a: { enum: [[1, 2, '3']] } } }, { a: [2, '3', 1] }, false],
        [{ properties: { a: { enum: [{ name: 'tiny', size: 'large' }] } } }, { a: { size: 'large', name: 'tiny' } }, true],
        [{ properties: { a: { enum: [{ name: 'tiny' }] } } }, { a: { size: 'large', name: 'tiny' } }, false],
        [{ enum: [{ _id: 0, a: 'str' }] }, { _id: 0, a: 'str' }, true],
        [{ enum: [{ _id: 0, a: 'str' }] }, { _id: 0, a: 'str', b: 1 }, false],
        [{ enum: [1, 2] }, {}, false],
        [{ properties: { a: { enum: [1] } } }, { a: new Double(1) }, true],
    ],
    'unique_items.js': [
        [{ uniqueItems: true }, {}, true],
        [{ properties: { a: { uniqueItems: true } } }, { a: { foo: [1, 1] } }, true],
        [{ properties: { a: { uniqueItems: true } } }, { a: ['foo', 'FOO'] }, true],
        [{ properties: { a: { uniqueItems: true } } }, { a: [{}, '', [], null] }, true],
        [{ properties: { a: { uniqueItems: true } } }, { a: [[1, 2], [2, 1]] }, true],
        [{ properties: { a: { uniqueItems: true } } }, { a: [new Long(1), new Int32(1)] }, false],
        [{ properties: { a: { uniqueItems: true } } }, { a: [null, null] }, false],
        [{ properties: { a: { uniqueItems: true } } }, { a: [{ x: 1, y: 1 }, { y: 1, x: 1 }] }, false],
        [{ properties: { a: { uniqueItems: true } } }, { a: [{ x: [1, 2], y: 'a' }, { y: 'a', x: [1, 2] }] }, false],
        [{ properties: { a: { uniqueItems: false } } }, { a: [1, 1] }, true],
    ],
    'items, additionalItems, min/maxItems, properties, dependencies (array_keywords.js and kin)': [
        [{ properties: { a: { items: { type: 'string' } } } }, { a: ['x', 1] }, false],
        [{ properties: { a: { items: [{ type: 'string' }, { type: 'number' }] } } }, { a: ['x', 1, {}] }, true],
        [{ properties: { a: { items: [{ type: 'string' }], additionalItems: false } } }, { a: ['x', 1] }, false],
        [{ properties: { a: { additionalItems: false } } }, { a: ['x', 1] }, true],
        [{ properties: { a: { items: [{}], additionalItems: { type: 'number' } } } }, { a: ['x', 1, 'y'] }, false],
        [{ properties: { a: { minItems: 2, maxItems: 3 } } }, { a: [1] }, false],
        [{ properties: { a: { minItems: 2, maxItems: 3 } } }, { a: 'not an array' }, true],
        [{ minProperties: 2 }, { a: 1 }, false],
        [{ properties: { o: { maxProperties: 1 } } }, { o: { a: 1, b: 2 } }, false],
        [{ additionalProperties: false, properties: { a: {} } }, { a: 1, b: 2 }, false],
        [{ additionalProperties: { type: 'string' }, patternProperties: { '^x': { type: 'number' } } }, { x1: 1, y: 's' }, true],
        [{ additionalProperties: { type: 'string' }, patternProperties: { '^x': { type: 'number' } } }, { x1: 's' }, false],
        [{ dependencies: { a: ['b'] } }, { a: 1 }, false],
        [{ dependencies: { a: ['b'] } }, { b: 1 }, true],
        [{ dependencies: { a: { required: ['c'] } } }, { a: 1, c: 1 }, true],
        [{ properties: { o: { dependencies: { a: ['b'] } } } }, { o: 'x' }, true],
        [{ properties: { o: { required: ['a'] } } }, { o: {} }, false],
        [{ properties: { o: { required: ['a'] } } }, { o: [] }, true],
        [{ properties: { n: { multipleOf: 0.1 } } }, { n: 0.3 }, true],
        [{ properties: { n: { multipleOf: 3 } } }, { n: new Long(9) }, true],
        [{ properties: { n: { multipleOf: 3 } } }, { n: Decimal128.fromString('7.5') }, false],
        [{ properties: { n: { minimum: 1, exclusiveMinimum: true } } }, { n: 1 }, false],
        [{ properties: { s: { minLength: 2, maxLength: 2 } } }, { s: '😀😀' }, true],
        [{ properties: { s: { bsonType: 'symbol' } } }, { s: new BSONSymbol('x') }, true],
        [{ properties: { r: { bsonType: 'regex' } } }, { r: new BSONRegExp('a', 'i') }, true],
    ],
};

describe('compile: the server\'s $jsonSchema tests', function () {
    for (const [file, cases] of Object.entries(SERVER_CASES)) {
        describe(file, function () {
            cases.forEach(([schema, doc, expected], i) => {
                it(`${i + 1}: ${JSON.stringify(schema)} ${expected ? 'matches' : 'does not match'} the document`, function () {
                    assert.strictEqual(conforms(schema, doc), expected);
                });
            });
        });
    }

    it('an int32 and a stored double 1.0 are told apart by decode, as the bytes hold them', function () {
        const codec = compileBoth({ properties: { n: { bsonType: 'double' } } });
        assert.deepStrictEqual(codec.decode(qbson.encode({ n: new Double(1) })), { n: 1 });
        assert.throws(() => codec.decode(qbson.encode({ n: 1 })), (err) => isSchemaError(err) && err.rule === 'bsonType');
        // validate types a JS number as encode would write it
        assert.strictEqual(codec.validate({ n: 1 }).length, 1);
        assert.deepStrictEqual(codec.validate({ n: 1.5 }), []);
    });
});

describe('compile: refused schemas', function () {
    const REFUSED = [
        [{ $ref: '#/definitions/a' }, /'\$ref' is not currently supported/, '$jsonSchema.$ref'],
        [{ properties: { a: { format: 'email' } } }, /'format' is not currently supported/, '$jsonSchema.properties.a.format'],
        [{ default: {} }, /'default'/],
        [{ definitions: {} }, /'definitions'/],
        [{ id: 'x' }, /'id'/],
        [{ $schema: 'http://json-schema.org/draft-04/schema#' }, /'\$schema'/],
        [{ properties: { num: { type: 'integer' } } }, /type 'integer' is not currently supported/],
        [{ properties: { num: { bsonType: 'integer' } } }, /Unknown type name alias: integer/],
        [{ properties: { b: { type: 'bool' } } }, /Unknown type name alias: bool/],
        [{ invalid: {} }, /Unknown \$jsonSchema keyword: invalid/],
        [{ type: 3 }, /must be a string/],
        [{ bsonType: 'string', type: 'string' }, /both/],
        [{ bsonType: ['number', 'string', 'number'] }, /duplicate/],
        [{ bsonType: [] }, /at least one type/],
        [{ required: 'a' }, /'required' must be an array/],
        [{ required: [] }, /cannot be an empty array/],
        [{ required: ['a', 'a'] }, /duplicate/],
        [{ required: [1] }, /array of strings/],
        [{ properties: { num: { maximum: '0' } } }, /'maximum' must be a number/],
        [{ properties: { num: { maxLength: -1 } } }, /positive/],
        [{ properties: { num: { minLength: 1.5 } } }, /integer/],
        [{ properties: { num: { pattern: 0 } } }, /'pattern' must be a string/],
        [{ properties: { num: { pattern: '(' } } }, /cannot compile/],
        [{ properties: { num: 'number' } }, /must be an object/],
        [{ properties: [] }, /'properties' must be an object/],
        [{ properties: { foo: { allOf: { maximum: '0' } } } }, /'allOf' must be an array/],
        [{ properties: { foo: { anyOf: [] } } }, /non-empty/],
        [{ properties: { foo: { oneOf: [0] } } }, /array of objects/],
        [{ properties: { foo: { not: [{}] } } }, /'not' must be an object/],
        [{ enum: [] }, /cannot be an empty array/],
        [{ enum: [1, new Double(1)] }, /duplicate/],
        [{ uniqueItems: 1 }, /must be a boolean/],
        [{ exclusiveMaximum: true }, /'maximum' must be a present/],
        [{ maximum: 1, exclusiveMaximum: 1 }, /must be a boolean/],
        [{ multipleOf: 0 }, /positive/],
        [{ items: 1 }, /'items' must be an array or an object/],
        [{ additionalItems: 1 }, /'additionalItems' must be either/],
        [{ additionalProperties: 1 }, /'additionalProperties' must be an object or a boolean/],
        [{ dependencies: { a: [] } }, /cannot be an empty array/],
        [{ dependencies: { a: 1 } }, /either an object or an array/],
        [{ title: 1 }, /'title' must be of type string/],
        [{ encrypt: {} }, /not supported by qbson/],
        ['foo', /must be an object/],
        [[], /must be an object/],
        [null, /must be an object/],
    ];
    REFUSED.forEach(([schema, message, at], i) => {
        it(`${i + 1}: ${JSON.stringify(schema)}`, function () {
            assert.throws(() => qbson.compile(schema), (err) => {
                assert.ok(err instanceof qbson.BSONError, err.stack);
                assert.strictEqual(err.code, 'ERR_BSON_SCHEMA_INVALID');
                assert.match(err.message, message);
                if (at) assert.strictEqual(err.schemaPath, at);
                return true;
            });
        });
    });

    it('a schema that contains itself is refused, not a stack overflow', function () {
        const schema = { properties: {} };
        schema.properties.a = schema;
        assert.throws(() => qbson.compile(schema), (err) => err.code === 'ERR_BSON_SCHEMA_INVALID' && /contains itself/.test(err.message));
    });

    it('{ $jsonSchema: ... } is taken as the schema', function () {
        const codec = qbson.compile({ $jsonSchema: { required: ['a'] } });
        assert.strictEqual(codec.validate({}).length, 1);
    });
});

describe('compile: errors', function () {
    const schema = {
        bsonType: 'object', required: ['name', 'address'],
        properties: {
            name: { bsonType: 'string' },
            address: { bsonType: 'object', required: ['zip'], properties: { zip: { bsonType: 'string', pattern: '^[0-9]{5}$' } } },
            items: { bsonType: 'array', items: { bsonType: 'object', properties: { qty: { bsonType: 'int', minimum: 1 } } } },
        },
    };
    const codec = compileBoth(schema);

    it('a nested field: path, rule and the server\'s words', function () {
        const doc = { name: 'a', address: { zip: 12345 } };
        assert.throws(() => codec.encode(doc), (err) => {
            assert.ok(err instanceof qbson.BSONError);
            assert.strictEqual(err.code, 'ERR_BSON_SCHEMA');
            assert.strictEqual(err.path, 'address.zip');
            assert.strictEqual(err.rule, 'bsonType');
            assert.strictEqual(err.message, "Document failed validation: 'address.zip': type did not match (bsonType: 'string'; considered value 12345 of type int)");
            return true;
        });
    });

    it('an element of an array', function () {
        const bytes = qbson.encode({ name: 'a', address: { zip: '12345' }, items: [{ qty: 2 }, { qty: 1 }, { qty: 5 }, { qty: 0 }] });
        assert.throws(() => codec.decode(bytes), (err) => {
            assert.strictEqual(err.path, 'items.3.qty');
            assert.strictEqual(err.rule, 'minimum');
            assert.strictEqual(err.message, "Document failed validation: 'items.3.qty': comparison failed (minimum: 1; considered value 0 of type int)");
            return true;
        });
    });

    it('validate lists every problem', function () {
        const problems = codec.validate({ address: { zip: '1234' }, items: [{ qty: 1.5 }] });
        assert.deepStrictEqual(problems.map((p) => [p.path, p.rule]), [['name', 'required'], ['address.zip', 'pattern'], ['items.0.qty', 'bsonType']]);
        assert.strictEqual(problems[0].message, "'name': missing required property (required: ['name', 'address'])");
        assert.strictEqual(problems[1].message, `'address.zip': regular expression did not match (pattern: "^[0-9]{5}$"; considered value "1234" of type string)`);
    });

    it('the other rules name themselves', function () {
        const c = compileBoth({
            additionalProperties: false,
            properties: { s: { maxLength: 1 }, a: { uniqueItems: true, maxItems: 2 }, e: { enum: ['x'] }, o: { anyOf: [{ type: 'string' }] }, n: { not: { type: 'number' } } },
        });
        const problems = c.validate({ s: 'ab', a: [1, 1, 1], e: 'y', o: 1, n: 2, extra: true });
        assert.deepStrictEqual(problems.map((p) => [p.path, p.rule]),
            [['s', 'maxLength'], ['a', 'maxItems'], ['a.1', 'uniqueItems'], ['e', 'enum'], ['o', 'anyOf'], ['n', 'not'], ['extra', 'additionalProperties']]);
    });

    it('a non-document is a BSONError, and bad bytes stay decode\'s errors', function () {
        assert.throws(() => codec.validate(1), (err) => isSchemaError(err));
        assert.throws(() => codec.encode([]), (err) => isSchemaError(err));
        assert.throws(() => codec.decode(Buffer.from([1, 2, 3])), (err) => err instanceof qbson.BSONError && err.code !== 'ERR_BSON_SCHEMA');
        assert.throws(() => codec.decode(qbson.encode({ name: 'a', address: { zip: '12345' } }), { fields: ['name'] }), (err) => err.code === 'ERR_BSON_OPTION');
    });
});

describe('compile: the codec against decode and encode on the data sets', function () {
    const SKIPPED = new Set(['wide_100k_fields']);
    for (const name of datasets.NAMES) {
        if (SKIPPED.has(name)) {
            it.skip(`${name}: 100,000 fields, left to the benchmark`, function () {});
            continue;
        }
        it(name, function () {
            const ds = datasets.load(name);
            const buffers = ds.docs.map((d) => qbson.encode(d));
            const codec = compileBoth(inferSchema(buffers));
            ds.docs.forEach((doc, i) => {
                assert.deepStrictEqual(codec.decode(buffers[i]), qbson.decode(buffers[i]));
                assert.ok(codec.encode(doc).equals(qbson.encode(doc)), `${name} document ${i}: encode differs`);
            });
        });
    }
});

describe('compile: options.classes', function () {
    class Address {
        constructor() {
            throw new Error('the constructor is not run');
        }

        get label() {
            return `${this.street}, ${this.zip}`;
        }
    }
    class Item {}
    const schema = {
        properties: {
            address: { title: 'Address', properties: { street: { bsonType: 'string' }, zip: { bsonType: 'string' } } },
            items: { bsonType: 'array', items: { properties: { qty: { bsonType: 'int' } } } },
            other: { title: 'Address' },
        },
    };

    it('decode builds instances by title and by path; encode takes them', function () {
        const codec = compileBoth(schema, { classes: { Address, 'items.[]': Item } });
        const doc = codec.decode(qbson.encode({ address: { street: 'Main', zip: '12345' }, items: [{ qty: 1 }, { qty: 2 }], other: { street: 'B', zip: '1' } }));
        assert.ok(doc.address instanceof Address);
        assert.strictEqual(doc.address.label, 'Main, 12345');
        assert.ok(doc.other instanceof Address);
        assert.ok(doc.items.every((x) => x instanceof Item));
        assert.deepStrictEqual(Object.keys(doc.address), ['street', 'zip']);
        assert.ok(codec.encode(doc).equals(qbson.encode({ address: { street: 'Main', zip: '12345' }, items: [{ qty: 1 }, { qty: 2 }], other: { street: 'B', zip: '1' } })));
    });

    it('a class for a path or title the schema lacks, or not a class, is an option error', function () {
        assert.throws(() => qbson.compile(schema, { classes: { nowhere: Item } }), (err) => err.code === 'ERR_BSON_OPTION');
        assert.throws(() => qbson.compile(schema, { classes: { Address: 1 } }), (err) => err.code === 'ERR_BSON_OPTION');
    });
});

describe('compile: hostile names and patterns', function () {
    const NAMES = ['"', "'", '\\', '*/', '${process.exit(1)}', '\u2028', '__proto__', 'constructor', '"); throw new Error("x'];
    const properties = {};
    for (const n of NAMES) Object.defineProperty(properties, n, { value: { bsonType: 'int' }, enumerable: true });
    const schema = { properties, required: NAMES.slice(0, 3), patternProperties: { '^\\$\\{': { bsonType: 'string' }, '\\*/|"': { minimum: 0 } } };

    it('every name is checked as the name it is, none evaluated, Object.prototype untouched', function () {
        const codec = compileBoth(schema);
        const doc = JSON.parse('{"\\"": 1, "\'": 2, "\\\\": "x", "*/": -1, "${process.exit(1)}": 3, "\\u2028": 4, "__proto__": "p", "constructor": 5}');
        const problems = codec.validate(doc);
        assert.deepStrictEqual(problems.map((p) => [p.path, p.rule]).sort(), [
            ['*/', 'minimum'], ['${process.exit(1)}', 'bsonType'], ['\\', 'bsonType'], ['__proto__', 'bsonType'],
        ].sort());
        const decoded = codec.decode(qbson.encode({ '"': 1, "'": 2, '\\': 3 }));
        assert.strictEqual(decoded['\\'], 3);
        assert.strictEqual(Object.prototype.bsonType, undefined);
        assert.strictEqual({}.minimum, undefined);
    });

    it('__proto__ as a field of a document built into a class stays a field', function () {
        class P {}
        const codec = compileBoth({ properties: { o: { title: 'P' } } }, { classes: { P } });
        const bytes = qbson.encode(JSON.parse('{"o": {"__proto__": {"polluted": 1}, "a": 1}}'));
        const doc = codec.decode(bytes);
        assert.ok(doc.o instanceof P);
        assert.deepStrictEqual(Object.keys(doc.o), ['__proto__', 'a']);
        assert.strictEqual(doc.o.polluted, undefined);
    });
});

describe('compile: generated code', function () {
    const HOSTILE = ['"', "'", '\\', '*/', '/*', '${process.exit(1)}', '`', '\u2028', '\u2029', '__proto__', 'constructor', '"); throw new Error("x', '\\u0022', '</script>', 'é😀'];
    const PATTERNS = ['"', "'); throw 1; ('", '\\*/', '\\$\\{x\\}', '\u2028', '`'];

    function hostileSchema() {
        const properties = {};
        HOSTILE.forEach((n, i) => {
            const sub = { bsonType: ['string', 'int'], pattern: `${PATTERNS[i % PATTERNS.length]}|`, enum: [n, 'x', 'y', 'z', 1, 2] };
            Object.defineProperty(properties, n, { value: i % 2 === 0 ? sub : { bsonType: 'object', properties: { [n]: { bsonType: 'int', minimum: 0 } } }, enumerable: true });
        });
        return { bsonType: 'object', required: HOSTILE.slice(0, 4), properties, additionalProperties: false };
    }

    // the source with its JSON string literals and the generator's own typeof names taken out
    function outsideLiterals(source) {
        return source.replace(/"(?:[^"\\\n]|\\.)*"/g, 'S').replace(/'(?:string|number|boolean|object|function|symbol|bigint)'/g, 'T');
    }

    it('hostile names and patterns compile; no schema string stands in the source outside a JSON literal', function () {
        const codec = compileWith(hostileSchema());
        assert.ok(codec.read !== null && codec.conforms !== null && codec.write !== null, 'the hostile schema has generated code');
        for (const source of [codec.read.source, codec.conforms.source, codec.write.source]) {
            const code = outsideLiterals(source);
            // no quote, backslash, comment, template or line separator is left to end a literal early
            for (const text of ['"', "'", '`', '\\', '/*', '*/', '${', '\u2028', '\u2029', 'process', 'throw']) {
                assert.ok(!code.includes(text), `${JSON.stringify(text)} stands in the generated source outside a literal`);
            }
        }
        assert.strictEqual(Object.prototype.minimum, undefined);
    });

    it('hostile names behave as the interpreter has them, through the generated reader', function () {
        const codec = compileBoth(hostileSchema());
        const doc = {};
        HOSTILE.forEach((n, i) => {
            const value = i % 2 === 0 ? n : { [n]: i };
            Object.defineProperty(doc, n, { value, enumerable: true, writable: true, configurable: true });
        });
        // every pattern ends in | and so matches; an inner value below its minimum fails
        assert.deepStrictEqual(codec.validate(doc), []);
        const failing = Object.assign({}, doc, { [HOSTILE[1]]: { [HOSTILE[1]]: -1 } });
        assert.deepStrictEqual(codec.validate(failing).map((p) => [p.path, p.rule]), [[`${HOSTILE[1]}.${HOSTILE[1]}`, 'minimum']]);
        assert.throws(() => codec.decode(qbson.encode(failing)), (err) => isSchemaError(err) && err.rule === 'minimum');
        const conforming = doc;
        const decoded = codec.decode(qbson.encode(conforming));
        assert.notStrictEqual(codec.generated.read(qbson.encode(conforming)), FAIL, 'the generated reader takes the document');
        assert.ok(codec.generated.conforms(conforming), 'the generated checker takes the document');
        assert.ok(codec.generated.write(conforming).equals(qbson.encode(conforming)), 'the generated writer takes the document');
        assert.deepStrictEqual(Object.keys(decoded), Object.keys(conforming));
        assert.ok(Object.prototype.hasOwnProperty.call(decoded, '__proto__'));
        assert.strictEqual(Object.getPrototypeOf(decoded), Object.prototype);
        assert.ok(codec.encode(conforming).equals(qbson.encode(conforming)));
    });

    it('documents with optional properties absent are built by a function per set present, no schema string outside its literals', function () {
        const codec = compileBoth(hostileSchema());
        const builders = () => codec.generated.read.constants.filter((c) => c instanceof Builders);
        assert.ok(builders().length > 0, 'the hostile schema\'s root has optional properties');
        const doc = {};
        HOSTILE.forEach((n, i) => {
            const value = i % 2 === 0 ? n : { [n]: i };
            Object.defineProperty(doc, n, { value, enumerable: true, writable: true, configurable: true });
        });
        // the required four, then every other optional property dropped in turn, twice over
        for (const round of [0, 1]) {
            for (let drop = 4; drop < HOSTILE.length; drop++) {
                const partial = {};
                for (const n of HOSTILE.filter((n, i) => i !== drop && (round === 0 || i % 3 !== 0 || i < 4))) {
                    Object.defineProperty(partial, n, { value: doc[n], enumerable: true, writable: true, configurable: true });
                }
                const bytes = qbson.encode(partial);
                assert.notStrictEqual(codec.generated.read(bytes), FAIL, 'the generated reader takes the document');
                const decoded = codec.decode(bytes);
                assert.deepStrictEqual(Object.keys(decoded), Object.keys(partial));
                assert.strictEqual(Object.getPrototypeOf(decoded), Object.prototype);
            }
        }
        const sources = builders().flatMap((b) => b.fns.filter((f) => f !== null).map((f) => f.source));
        // 22 sets met, builders for the first 16 (the rest are built key by key)
        assert.strictEqual(sources.length, 16);
        for (const source of sources) {
            const code = outsideLiterals(source);
            for (const text of ['"', "'", '`', '\\', '/*', '*/', '${', '\u2028', '\u2029', 'process', 'throw']) {
                assert.ok(!code.includes(text), `${JSON.stringify(text)} stands in a builder's source outside a literal`);
            }
        }
    });

    it('past 16 sets of optional properties, documents are built by a constructor of plain objects, as the interpreter builds them', function () {
        const properties = {};
        for (let i = 0; i < 24; i++) properties['f' + i] = { bsonType: 'int' };
        const codec = compileBoth({ bsonType: 'object', required: ['f0'], properties });
        for (let drop = 1; drop < 24; drop++) {
            const doc = {};
            for (let i = 0; i < 24; i++) if (i !== drop) doc['f' + i] = i;
            const bytes = qbson.encode(doc);
            assert.notStrictEqual(codec.generated.read(bytes), FAIL);
            const decoded = codec.decode(bytes);
            assert.deepStrictEqual(Object.keys(decoded), Object.keys(doc));
            assert.strictEqual(Object.getPrototypeOf(decoded), Object.prototype);
            assert.deepStrictEqual(decoded, qbson.decode(bytes));
        }
        const [builders] = codec.generated.read.constants.filter((c) => c instanceof Builders);
        assert.strictEqual(builders.masks.length, 16);
    });

    it('a document of more than 256 properties holding a few of them is read by the table, with the interpreter\'s results', function () {
        const properties = {};
        for (let i = 0; i < 600; i++) properties['f' + i] = { bsonType: i % 2 ? 'int' : 'string' };
        const codec = compileBoth({ bsonType: 'object', required: ['f300'], properties });
        const docs = [
            { f1: 1, f300: 'x', f599: 7 }, { f300: 'x' }, { f0: 'a', f300: 'b', f301: 2, f598: 'c' },
            { f300: 'x', f1: 1 }, // out of order
            { f1: 1, f599: 1 }, // the required one left out
            { f300: 'x', f599: 'y' }, // a value of another type
            { f300: 'x', zz: 1 }, // a key the schema does not name
            { f300: 'x', f300x: 1 },
        ];
        for (const doc of docs) {
            const bytes = qbson.encode(doc);
            agreeing(() => codec.decode(bytes));
        }
        for (const doc of docs.slice(0, 3)) assert.notStrictEqual(codec.generated.read(qbson.encode(doc)), FAIL, JSON.stringify(doc));
        for (const doc of docs.slice(3)) assert.strictEqual(codec.generated.read(qbson.encode(doc)), FAIL, JSON.stringify(doc));
        // a key twice: the interpreter's error
        const dup = Buffer.from(qbson.encode({ f300: 'x', f301: 1, f303: 2 }));
        dup.write('f301', dup.indexOf('f303'), 'latin1');
        assert.strictEqual(codec.generated.read(dup), FAIL);
        agreeing(() => codec.decode(dup));
    });

    it('past 30 optional properties, documents with some missing are built key by key, as the interpreter builds them', function () {
        const properties = {};
        for (let i = 0; i < 40; i++) properties['f' + i] = { bsonType: 'int' };
        const codec = compileBoth({ bsonType: 'object', properties });
        assert.strictEqual(codec.generated.read.constants.filter((c) => c instanceof Builders).length, 0);
        for (const drop of [0, 17, 39]) {
            const doc = {};
            for (let i = 0; i < 40; i++) if (i !== drop) doc['f' + i] = i;
            const bytes = qbson.encode(doc);
            assert.notStrictEqual(codec.generated.read(bytes), FAIL);
            assert.deepStrictEqual(Object.keys(codec.decode(bytes)), Object.keys(doc));
        }
    });

    it('full_bson\'s rarer types (Code with scope, regular expressions, Timestamp, Decimal128, MinKey, MaxKey) take the generated reader', function () {
        const doc = datasets.load('full_bson').docs[0];
        const bytes = qbson.encode(doc);
        assert.notStrictEqual(compileWith(inferSchema([bytes])).read(bytes), FAIL);
    });

    it('the data sets\' documents take the generated reader, checker and writer (full_bson, api_statuses and shape_changes apart)', function () {
        for (const name of ['flat_bson', 'deep_bson', 'large', 'batch1000', 'deepkit_cursor', 'deepkit_item', 'tweet', 'log_events', 'geojson_track', 'binary_heavy']) {
            const ds = datasets.load(name);
            const buffers = ds.docs.map((d) => qbson.encode(d));
            const codec = compileWith(inferSchema(buffers));
            ds.docs.forEach((doc, i) => {
                assert.notStrictEqual(codec.read(buffers[i]), FAIL, `${name} ${i}: read`);
                assert.ok(codec.conforms(doc), `${name} ${i}: conforms`);
                const written = codec.write(doc);
                assert.ok(written !== FAIL && written.equals(buffers[i]), `${name} ${i}: write`);
            });
        }
    });

    it('documents the generated reader does not take go to the interpreter with the same results', function () {
        const codec = compileBoth({
            bsonType: 'object', required: ['a'],
            properties: { a: { bsonType: 'int', maximum: 10 }, b: { bsonType: ['string', 'null'], maxLength: 3 }, c: { bsonType: 'array', items: { bsonType: 'long', minimum: 0 } }, d: {} },
        });
        const cases = [
            { a: 1, b: 'abc', c: [1n, 2n], d: /x/ },
            { b: 'abc', a: 1 }, // another order
            { a: 1, e: 1 }, // a field the schema does not name
            { a: 11 }, { a: 1, b: 'abcd' }, { a: 1, b: null }, { a: 1, c: [-1n] }, { a: 1, c: [1] }, { a: 1.5 },
            { a: 1, c: [Long.fromString('9223372036854775807')] }, { a: 1, d: { x: [1, { y: 2 }] } }, { a: 1, d: new Timestamp({ t: 1, i: 2 }) },
            // the rarer types, read by the generated reader as decode reads them, or left to decode
            { a: 1, d: new BSONRegExp('(', 'i') }, { a: 1, d: new BSONRegExp('a+', 'imsux') }, { a: 1, d: new Code('x', { $ref: 'a', $id: 1 }) },
            { a: 1, d: new Code('x', { y: [1] }) }, { a: 1, d: new Code('f()') }, { a: 1, d: new MinKey() }, { a: 1, d: new MaxKey() },
            { a: 1, d: Decimal128.fromString('-1.5E+10') }, { a: 1, d: new BSONSymbol('s') }, { a: 1, d: new qbson.BSONUndefined() },
        ];
        for (const doc of cases) {
            const bytes = qbson.encode(doc, { useBigInt64: true });
            agreeing(() => codec.decode(bytes));
            agreeing(() => codec.encode(doc));
            codec.validate(doc);
        }
        // a duplicated key, bytes cut short, bad UTF-8
        const dup = Buffer.from(qbson.encode({ a: 1, b: 'x' }));
        dup[10] = 0x61;
        for (const bytes of [dup, qbson.encode({ a: 1 }).subarray(0, 10), Buffer.from([16, 0, 0, 0, 2, 98, 0, 2, 0, 0, 0, 0xff, 0, 0, 0, 0])]) agreeing(() => codec.decode(bytes));
    });

    it('keys in another order, and sub-documents the reader does not take, stay in the generated reader', function () {
        const schema = {
            required: ['a', 'b'],
            properties: { a: { bsonType: 'int' }, b: { bsonType: 'object', required: ['x'], properties: { x: { bsonType: 'string' }, y: { bsonType: 'bool' } } }, c: { bsonType: 'string' } },
        };
        const codec = compileBoth(schema);
        const docs = [
            { b: { y: true, x: 's' }, a: 1 }, // both levels out of order
            { c: 'z', a: 1, b: { x: 's' } },
            { a: 1, b: { x: 's', extra: 1 } }, // a sub-document with a key the schema does not name: decode reads it
        ];
        for (const doc of docs) {
            const bytes = qbson.encode(doc);
            const decoded = codec.decode(bytes);
            assert.deepStrictEqual(keyOrder(decoded), keyOrder(qbson.decode(bytes)));
            assert.notStrictEqual(codec.generated.read(bytes), FAIL, JSON.stringify(doc));
        }
        // the generated checker and writer take keys in any order
        for (const doc of docs.slice(0, 2)) {
            assert.ok(codec.generated.conforms(doc), JSON.stringify(doc));
            const written = codec.generated.write(doc);
            assert.ok(written !== FAIL && written.equals(qbson.encode(doc)), JSON.stringify(doc));
        }
        // and leaves to the interpreter, out of order, what fails and a key the schema does not name
        for (const doc of [{ b: { y: 1, x: 's' }, a: 1 }, { c: 'z', b: { x: 's' } }, { b: { x: 's' }, a: undefined }, { b: { x: 's' }, a: 1, z: 1 }]) {
            assert.strictEqual(codec.generated.conforms(doc), false, JSON.stringify(doc));
            assert.deepStrictEqual(codec.validate(doc).length, Object.keys(doc).includes('z') ? 0 : 1, JSON.stringify(doc));
        }
        // a key twice, or a required one missing, out of order: the interpreter's error
        assert.throws(() => codec.decode(qbson.encode({ b: { y: true }, a: 1 })), (err) => isSchemaError(err) && err.path === 'b.x');
        assert.throws(() => codec.decode(qbson.encode({ b: { x: 1 }, a: 1 })), (err) => isSchemaError(err) && err.rule === 'bsonType');
    });

    it('learns the order documents hold their keys in where the schema lists them in another, and reads them in it', function () {
        // the schema lists the optional address last; the documents hold it after age, and
        // a note, in some, between name and age; a nested document's keys come reversed
        const schema = {
            bsonType: 'object', required: ['name', 'age', 'inner'],
            properties: {
                name: { bsonType: 'string' }, age: { bsonType: 'int' }, inner: { bsonType: 'object', properties: { x: { bsonType: 'int' }, y: { bsonType: 'string' } } },
                note: { bsonType: 'string' }, address: { bsonType: 'object', properties: { city: { bsonType: 'string' } } },
            },
        };
        const codec = compileBoth(schema);
        const docs = [];
        for (let i = 0; i < 200; i++) {
            const doc = { name: `n${i}` };
            if (i % 3 === 0) doc.note = 'x';
            doc.age = i;
            if (i % 2 === 0) doc.address = { city: 'c' };
            doc.inner = { y: 's', x: i };
            docs.push(doc);
        }
        const learner = () => [...codec.generated.orders.learners.values()];
        for (const doc of docs) {
            const bytes = qbson.encode(doc);
            const decoded = codec.decode(bytes);
            assert.deepStrictEqual(keyOrder(decoded), keyOrder(qbson.decode(bytes)));
        }
        // learnt once or twice (the note and the address join the order as they come), then read in order
        const { generations } = codec.generated.orders;
        assert.ok(generations >= 1 && generations <= 3, `${generations} generations`);
        for (const doc of docs) codec.decode(qbson.encode(doc));
        assert.strictEqual(codec.generated.orders.generations, generations);
        assert.deepStrictEqual(learner().map((l) => l.seen), learner().map(() => 0), 'no document went to an unordered reader');
        assert.deepStrictEqual(learner().map((l) => l.keys.join()).sort(), ['name,note,age,address,inner', 'y,x']);
        // a document in an order that does not fit is still read right, by the unordered reader, and teaches nothing
        const odd = { inner: { x: 1, y: 's' }, age: 1, name: 'n' };
        for (let i = 0; i < 20; i++) codec.decode(qbson.encode(odd));
        assert.strictEqual(codec.generated.orders.generations, generations);
        assert.deepStrictEqual(learner().map((l) => l.keys.join()).sort(), ['name,note,age,address,inner', 'y,x']);
    });

    it('learns no order from documents whose keys come in orders that never settle', function () {
        const names = Array.from({ length: 12 }, (_, i) => `k${i}`);
        const codec = compileBoth({ bsonType: 'object', properties: Object.fromEntries(names.map((n) => [n, { bsonType: 'int' }])) });
        // a small linear congruential generator: the same documents every run
        let seed = 7;
        const next = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
        for (let i = 0; i < 1500; i++) {
            const keys = names.slice();
            for (let j = keys.length - 1; j > 0; j--) {
                const k = next(j + 1);
                [keys[j], keys[k]] = [keys[k], keys[j]];
            }
            const doc = Object.fromEntries(keys.slice(0, 3 + next(6)).map((k) => [k, i]));
            assert.deepStrictEqual(keyOrder(codec.decode(qbson.encode(doc))), keyOrder(qbson.decode(qbson.encode(doc))));
        }
        assert.strictEqual(codec.generated.orders.generations, 0);
    });

    it('stops learning key orders after a bounded number of readers', function () {
        const { MAX_GENERATIONS } = require('../lib/schema/key-orders');
        const names = Array.from({ length: 20 }, (_, i) => `k${i}`);
        const codec = compileBoth({ bsonType: 'object', properties: Object.fromEntries(names.map((n) => [n, { bsonType: 'int' }])) });
        // each round holds one more key, at the front, in an order the last round's order keeps
        for (let n = 1; n <= names.length; n++) {
            const doc = Object.fromEntries(names.slice(names.length - n).reverse().map((k) => [k, n]));
            for (let i = 0; i < 10; i++) assert.deepStrictEqual(keyOrder(codec.decode(qbson.encode(doc))), keyOrder(qbson.decode(qbson.encode(doc))));
        }
        assert.strictEqual(codec.generated.orders.generations, MAX_GENERATIONS);
    });

    it('arrays of numbers, short and long, read and written as runs where they can be, with the interpreter\'s results', function () {
        const items = [{ bsonType: 'double', maximum: 1e6 }, { bsonType: 'int', minimum: -5 }, { bsonType: ['int', 'double'], exclusiveMinimum: true, minimum: -10 }, { bsonType: 'number' }, {}];
        const run = (n, f) => Array.from({ length: n }, (_, i) => f(i));
        const arrays = [];
        for (const n of [0, 2, 15, 16, 17, 130, 5000, 70000]) arrays.push(run(n, (i) => i + 0.5), run(n, (i) => i - 3), run(n, (i) => (i % 3 ? i : -i - 0.25)));
        // one value that breaks the run or fails a check, early, in the middle and last
        for (const at of [0, 9, 16, 4999]) {
            for (const bad of [2e6, -20, 7, 7.5, -0, NaN, 'x', new Double(3), new Int32(3), Long.fromNumber(4), null]) {
                const arr = run(5000, (i) => i + 0.5);
                arr[at] = bad;
                arrays.push(arr);
            }
        }
        for (const item of items) {
            const codec = compileBoth({ bsonType: 'object', properties: { a: { bsonType: 'array', maxItems: 60000, items: item } } });
            for (const a of arrays) {
                const doc = { a };
                const what = `${JSON.stringify(item)} over ${a.length} elements`;
                const bytes = qbson.encode(doc);
                agreeing(() => codec.decode(bytes));
                agreeing(() => codec.encode(doc));
                if (codec.interpreted.validate(doc).length === 0 && a.every((v) => typeof v === 'number')) {
                    assert.notStrictEqual(codec.generated.read(bytes), FAIL, what);
                    assert.ok(codec.generated.write(doc).equals(bytes), what);
                }
            }
        }
    });

    it('documents of more than 256 properties are read by a loop over a table, with the same results', function () {
        const properties = {};
        const doc = {};
        for (let i = 0; i < 300; i++) {
            properties[`f${i}`] = i % 3 === 0 ? { bsonType: 'int', minimum: 0 } : i % 3 === 1 ? { bsonType: ['string', 'null'], maxLength: 5 } : { bsonType: 'object', properties: { x: { bsonType: 'double' } } };
            doc[`f${i}`] = i % 3 === 0 ? i : i % 3 === 1 ? 'abc' : { x: 1.5 };
        }
        for (let i = 0; i < 5; i++) {
            properties[`g${i}`] = { bsonType: 'array', items: { bsonType: 'object', required: ['n'], properties: { n: { bsonType: 'int' }, s: { bsonType: 'string' } } } };
            doc[`g${i}`] = [{ n: 1, s: 'a' }, { n: 2 }];
        }
        const codec = compileBoth({ required: ['f0', 'f299'], properties });
        const bytes = qbson.encode(doc);
        assert.notStrictEqual(codec.generated.read(bytes), FAIL);
        assert.deepStrictEqual(keyOrder(codec.decode(bytes)), keyOrder(qbson.decode(bytes)));
        // its documents and arrays are read by generated readers of their own, one for each sub-schema
        const [table] = codec.generated.read.constants.filter((c) => c !== null && Array.isArray(c.readers));
        assert.strictEqual(table.readers.length, 2);
        assert.deepStrictEqual([table.objectReader[2], table.arrayReader[300], table.arrayReader[0]], [0, 1, -1]);
        const variants = [
            Object.assign({}, doc, { f3: -1 }), Object.assign({}, doc, { f4: 'abcdef' }), Object.assign({}, doc, { f5: { x: 1 } }),
            Object.assign({}, doc, { f1: null }), Object.assign({ extra: 1 }, doc),
            // a sub-document with a key the schema does not name, or two keys out of order; an item without its required key, or of another type
            Object.assign({}, doc, { f5: { y: 2, x: 1.5 } }), Object.assign({}, doc, { g1: [{ s: 'b', n: 3 }] }),
            Object.assign({}, doc, { g2: [{ s: 'b' }] }), Object.assign({}, doc, { g3: [{ n: 'x' }] }), Object.assign({}, doc, { g4: [5] }),
        ];
        const missing = Object.assign({}, doc);
        delete missing.f299;
        delete missing.f7;
        variants.push(missing);
        for (const d of variants) {
            agreeing(() => codec.decode(qbson.encode(d)));
            agreeing(() => codec.encode(d));
            codec.validate(d);
        }
    });

    // a process of its own, refusing code from strings by the flag, or by a Function that throws
    // EvalError as such a host's does; the interpreter must give what the generated code gives
    function compileInChild(flags, refuse) {
        const script = `
            const qbson = require(${JSON.stringify(require.resolve('..'))});
            // the modules the codecs may load, loaded first: under nyc their coverage hooks compile from strings
            const lib = ${JSON.stringify(path.join(__dirname, '..', 'lib'))};
            require(lib + '/types');
            for (const file of require('fs').readdirSync(lib + '/schema')) require(lib + '/schema/' + file);
            if (${refuse}) globalThis.Function = function Function() { throw new EvalError('Code generation from strings disallowed for this context'); };
            const codec = qbson.compile({ required: ['a'], properties: { a: { bsonType: 'int', minimum: 0 }, s: { bsonType: 'string', pattern: '^x' } } });
            const out = { read: codec.read, conforms: codec.conforms, doc: codec.decode(qbson.encode({ a: 1, s: 'xy' })), bytes: codec.encode({ a: 2 }).toString('hex') };
            try { codec.decode(qbson.encode({ a: -1 })); } catch (err) { out.error = [err.code, err.path, err.rule, err.message]; }
            out.problems = codec.validate({ a: 1, s: 'y' }).map((p) => p.rule);
            process.stdout.write(JSON.stringify(out));
        `;
        const { execFileSync } = require('child_process');
        const out = JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }));
        assert.deepStrictEqual(out, {
            read: null, conforms: null, doc: { a: 1, s: 'xy' }, bytes: qbson.encode({ a: 2 }).toString('hex'),
            error: ['ERR_BSON_SCHEMA', 'a', 'minimum', "Document failed validation: 'a': comparison failed (minimum: 0; considered value -1 of type int)"],
            problems: ['pattern'],
        });
    }

    it('a host whose Function throws EvalError gets the interpreter, with the same results', function () {
        compileInChild([], true);
    });

    // nyc's coverage hooks, which every child of the test run gets, compile code from strings themselves
    const noCodegen = 'without code generation (node --disallow-code-generation-from-strings) the interpreter gives the same results';
    if (process.env.NYC_PROCESS_ID !== undefined) it.skip(`${noCodegen} (skipped: under nyc, whose hooks cannot load in such a process)`);
    else it(noCodegen, () => compileInChild(['--disallow-code-generation-from-strings'], false));
});

describe('benchmark/schema.js: the section of npm run benchmark', function () {
    const { toAjvSchema } = require('../benchmark/schema');

    it('translates an inferred schema to JSON Schema for ajv: JSON\'s types kept, BSON\'s others as objects', function () {
        const schema = {
            bsonType: 'object', required: ['a'],
            properties: { a: { bsonType: 'int' }, b: { bsonType: ['double', 'null'] }, c: { bsonType: 'objectId' }, d: { bsonType: 'array', items: { bsonType: 'long' } } },
        };
        assert.deepStrictEqual(toAjvSchema(schema, 'decode'), {
            type: 'object', required: ['a'],
            properties: { a: { type: 'integer' }, b: { type: ['number', 'null'] }, c: { type: 'object' }, d: { type: 'array', items: { type: ['integer', 'object'] } } },
        });
        assert.deepStrictEqual(toAjvSchema(schema, 'encode').properties.a, { type: ['integer', 'object'] });
    });

    it('runs, checks every output, and prints its tables and the targets', function () {
        const { execFileSync } = require('child_process');
        const out = execFileSync(process.execPath, [require.resolve('../benchmark/schema.js'), '--quick', '--filter', 'int,deepkit_item'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
        assert.match(out, /codec against ajv/);
        assert.match(out, /codec against deepkit's typed JIT on its own case/);
        assert.match(out, /deepkit_item: codec\.decode [\d.]+× deepkit-jit \(target ≥ 1\.3×\), codec\.encode [\d.]+× \(target ≥ 1\.5×\)/);
    });
});

// lib/schema/generated-runtime.js's presetDecode: decode with options read once (the slow paths)
describe('presetDecode', function () {
    const { presetDecode } = require('../lib/schema/generated-runtime');
    const bytes = qbson.encode({ a: 1, b: 2.5, n: { c: 'x' } });

    it('gives what decode gives with the same options, call after call', function () {
        const typed = presetDecode({ promoteValues: false, maxDepth: 3 });
        const plain = presetDecode({ maxDepth: 3 });
        for (let i = 0; i < 3; i++) {
            assert.deepStrictEqual(typed(bytes), qbson.decode(bytes, { promoteValues: false }));
            assert.deepStrictEqual(plain(bytes), qbson.decode(bytes));
        }
        assert.throws(() => presetDecode({ maxDepth: 0 })(bytes), (err) => err instanceof qbson.BSONError && /maxDepth/.test(err.message));
        assert.deepStrictEqual(plain(bytes), qbson.decode(bytes));
    });

    it('called again from inside itself (a reviver), decodes with a Decoder of its own', function () {
        let inner = null;
        const preset = presetDecode({
            reviver(key, value) {
                if (key === 'a' && inner === null) inner = preset(qbson.encode({ z: 9 }));
                return value;
            },
        });
        assert.deepStrictEqual(preset(bytes), qbson.decode(bytes));
        assert.deepStrictEqual(inner, { z: 9 });
        assert.deepStrictEqual(preset(bytes), qbson.decode(bytes));
    });
});
