'use strict';

// One mistake in an option is one error, whichever entry point it reaches: every
// entry point that takes an option refuses each bad value of it with a BSONError
// whose code is ERR_BSON_OPTION and whose message is the same, word for word.

const assert = require('assert');
const { Readable } = require('stream');
const qbson = require('..');

const { run } = require('./support/run-async');

const DOC = { a: 1, list: [{ b: 2 }] };
const BYTES = qbson.encode(DOC);
const TEXT = '{"a":1}';

async function collect(iterable) {
    const out = [];
    for await (const item of iterable) out.push(item);
    return out;
}

// Every entry point as a user calls it with `opts`, and the options it reads.
// Those whose errors arrive later (the streams) return a promise.
const ENCODE = ['maxDepth', 'maxDocumentSize'];
const DECODE = ['maxDepth', 'validation', 'fieldsAsRaw', 'values', 'useBigInt64'];
const ENTRY_POINTS = {
    encode: { takes: ENCODE, call: (opts) => qbson.encode(DOC, opts) },
    encodeInto: { takes: ENCODE, call: (opts) => qbson.encodeInto(DOC, Buffer.alloc(64), 0, opts) },
    calculateObjectSize: { takes: ENCODE, call: (opts) => qbson.calculateObjectSize(DOC, opts) },
    serialize: { takes: ENCODE, call: (opts) => qbson.serialize(DOC, opts) },
    // a buffer as long as BYTES, so that a bad index is worded as for decode
    // bson takes any number as its index and ignores anything else
    serializeWithBufferAndIndex: { takes: [...ENCODE, 'numeric index'], call: (opts) => qbson.serializeWithBufferAndIndex(DOC, Buffer.alloc(BYTES.length), opts) },
    encodeStream: {
        takes: [...ENCODE, 'options'],
        call: (opts) => collect(Readable.from([DOC]).pipe(qbson.encodeStream(opts))),
    },
    decode: { takes: [...DECODE, 'reviver', 'fields', 'index', 'numeric index'], call: (opts) => qbson.decode(BYTES, opts) },
    deserialize: { takes: [...DECODE, 'reviver', 'fields', 'index', 'numeric index'], call: (opts) => qbson.deserialize(BYTES, opts) },
    decodeAll: { takes: [...DECODE, 'reviver', 'fields'], call: (opts) => qbson.decodeAll(BYTES, opts) },
    deserializeStream: { takes: [...DECODE, 'reviver', 'fields'], call: (opts) => qbson.deserializeStream(BYTES, 0, 1, [], 0, opts) },
    get: { takes: [...DECODE, 'index', 'numeric index'], call: (opts) => qbson.get(BYTES, 'a', opts) },
    has: { takes: [...DECODE, 'index', 'numeric index'], call: (opts) => qbson.has(BYTES, 'a', opts) },
    lazy: { takes: [...DECODE, 'index', 'numeric index'], call: (opts) => qbson.lazy(BYTES, opts) },
    decodeStream: {
        takes: [...DECODE, 'reviver', 'fields', 'maxDocumentSize', 'options'],
        call: (opts) => collect(qbson.decodeStream([BYTES], opts)),
    },
    bsonToJSON: { takes: ['maxDepth', 'validation', 'mode', 'many', 'output', 'options'], call: (opts) => qbson.bsonToJSON(BYTES, opts) },
    jsonToBSON: { takes: ['maxDepth', 'maxDocumentSize', 'many', 'options'], call: (opts) => qbson.jsonToBSON(TEXT, opts) },
    'EJSON.parse': { takes: ['maxDepth'], call: (opts) => qbson.EJSON.parse(TEXT, opts) },
    'EJSON.stringify': { takes: ['maxDepth'], call: (opts) => qbson.EJSON.stringify(DOC, opts) },
    'EJSON.serialize': { takes: ['maxDepth'], call: (opts) => qbson.EJSON.serialize(DOC, opts) },
    'EJSON.deserialize': { takes: ['maxDepth'], call: (opts) => qbson.EJSON.deserialize(DOC, opts) },
};

const VALIDATION = 'a boolean or an object mapping top-level keys all to true or all to false';
const TYPES = "'objectId', 'date', 'int64', 'decimal128', 'binary', 'uuid', 'timestamp' or 'regex'";
const INDEX = `an integer from 0 to ${BYTES.length} (the buffer's length)`;
const SIZE = 'an integer from 5 to 2147483647';

// [the option it is about, the options given, the message]
const BAD = [
    ['options', 'x', "options must be an object, not 'x'"],
    ['options', 5, 'options must be an object, not 5'],
    ['options', true, 'options must be an object, not true'],
    ['maxDepth', { maxDepth: 'x' }, "option maxDepth must be a positive integer, not 'x'"],
    ['maxDepth', { maxDepth: 0 }, 'option maxDepth must be a positive integer, not 0'],
    ['maxDepth', { maxDepth: -1 }, 'option maxDepth must be a positive integer, not -1'],
    ['maxDepth', { maxDepth: 1.5 }, 'option maxDepth must be a positive integer, not 1.5'],
    ['maxDepth', { maxDepth: null }, 'option maxDepth must be a positive integer, not null'],
    ['maxDepth', { maxDepth: 10n }, 'option maxDepth must be a positive integer, not 10n'],
    ['maxDepth', { maxDepth: NaN }, 'option maxDepth must be a positive integer, not NaN'],
    ['maxDocumentSize', { maxDocumentSize: 'x' }, `option maxDocumentSize must be ${SIZE}, not 'x'`],
    ['maxDocumentSize', { maxDocumentSize: 4 }, `option maxDocumentSize must be ${SIZE}, not 4`],
    ['maxDocumentSize', { maxDocumentSize: 2 ** 31 }, `option maxDocumentSize must be ${SIZE}, not 2147483648`],
    ['maxDocumentSize', { maxDocumentSize: Infinity }, `option maxDocumentSize must be ${SIZE}, not Infinity`],
    ['many', { many: 'x' }, "option many must be 'array' or 'lines', not 'x'"],
    ['many', { many: true }, "option many must be 'array' or 'lines', not true"],
    ['mode', { mode: 'ejson' }, "option mode must be 'relaxed', 'canonical' or 'json', not 'ejson'"],
    ['output', { output: 'buffer' }, "option output must be 'string' or 'bytes', not 'buffer'"],
    ['validation', { validation: { utf8: null } }, `option validation.utf8 must be ${VALIDATION}, not null`],
    ['validation', { validation: { utf8: {} } }, `UTF-8 validation setting cannot be empty: option validation.utf8 must be ${VALIDATION}, not an empty object`],
    ['validation', { validation: { utf8: { a: 1 } } }, "Invalid UTF-8 validation option, must specify boolean values: option validation.utf8['a'] must be a boolean, not 1"],
    ['validation', { validation: { utf8: { a: true, b: false } } }, "Invalid UTF-8 validation option - keys must be all true or all false: option validation.utf8['b'] must be true, not false"],
    ['fieldsAsRaw', { fieldsAsRaw: 'list' }, "option fieldsAsRaw must be an object naming fields, not 'list'"],
    ['values', { values: 'hex' }, "option values must be an object mapping BSON type names to forms, not 'hex'"],
    ['values', { values: [] }, 'option values must be an object mapping BSON type names to forms, not an empty array'],
    ['values', { values: { nope: 1 } }, `option values key must be ${TYPES}, not 'nope'`],
    ['values', { values: { date: 'isostring' } }, "option values.date must be 'iso', 'ms' or 'date', not 'isostring'"],
    ['values', { values: { objectId: () => {} } }, "option values.objectId must be 'hex' or 'objectId', not a function"],
    ['useBigInt64', { useBigInt64: true, promoteLongs: false },
        'Must either request bigint or Long for int64 deserialization: option useBigInt64 must be false when promoteValues or promoteLongs is false, not true'],
    ['reviver', { reviver: 'x' }, "option reviver must be a function (key, value), not 'x'"],
    ['reviver', { reviver: {} }, 'option reviver must be a function (key, value), not an empty object'],
    ['fields', { fields: 'a' }, "option fields must be an array of paths, not 'a'"],
    ['fields', { fields: ['a', 5.5] }, 'option fields[1] must be a path (a dotted string or an array of keys and indexes), not 5.5'],
    ['fields', { fields: [[]] }, 'option fields[0] must be a path (a dotted string or an array of keys and indexes), not an empty array'],
    ['index', { index: 'x' }, `option index must be ${INDEX}, not 'x'`],
    ['numeric index', { index: -1 }, `option index must be ${INDEX}, not -1`],
    ['numeric index', { index: BYTES.length + 1 }, `option index must be ${INDEX}, not ${BYTES.length + 1}`],
];

// The error a call gives, thrown or as its promise's rejection; null if none.
async function errorOf(call, opts) {
    try {
        await call(opts);
    } catch (err) {
        return err;
    }
    return null;
}

describe('option errors: one code and one wording from every entry point', function () {
    for (const [name, opts, message] of BAD) {
        const takers = Object.keys(ENTRY_POINTS).filter((entry) => ENTRY_POINTS[entry].takes.includes(name));
        const shown = typeof opts === 'object' ? require('util').inspect(opts, { breakLength: Infinity }) : JSON.stringify(opts);
        it(`${shown}: ${takers.join(', ')}`, run(async () => {
            assert.ok(takers.length > 0);
            for (const entry of takers) {
                const err = await errorOf(ENTRY_POINTS[entry].call, opts);
                assert.ok(err instanceof qbson.BSONError, `${entry}: ${err === null ? 'no error' : err.stack}`);
                assert.strictEqual(err.code, 'ERR_BSON_OPTION', `${entry}: ${err.message}`);
                assert.strictEqual(err.message, message, entry);
            }
        }));
    }

    it('every entry point runs with none of these options', run(async () => {
        for (const [entry, { call }] of Object.entries(ENTRY_POINTS)) {
            for (const opts of [undefined, {}]) assert.strictEqual(await errorOf(call, opts), null, entry);
        }
    }));

    it('every entry point takes each of its options at a good value', run(async () => {
        const GOOD = {
            maxDepth: { maxDepth: 10 },
            maxDocumentSize: { maxDocumentSize: 1000 },
            validation: { validation: { utf8: { a: false } } },
            fieldsAsRaw: { fieldsAsRaw: { list: true } },
            values: { values: { date: 'iso' } },
            useBigInt64: { useBigInt64: true },
            reviver: { reviver: (k, v) => v },
            fields: { fields: ['a'] },
            index: { index: 0 },
            'numeric index': { index: 0 },
            mode: { mode: 'canonical' },
            many: { many: 'array' },
            output: { output: 'bytes' },
        };
        for (const [entry, { takes, call }] of Object.entries(ENTRY_POINTS)) {
            for (const name of takes) {
                if (name === 'options' || (name === 'many' && entry === 'jsonToBSON')) continue;
                const err = await errorOf(call, GOOD[name]);
                assert.strictEqual(err, null, `${entry} with ${name}: ${err && err.message}`);
            }
        }
        assert.deepStrictEqual(qbson.jsonToBSON('[' + TEXT + ']', { many: 'array' }), qbson.encode({ a: 1 }));
    }));

    it('an option no reader of part of a document can honour is refused the same way by each', function () {
        const message = 'option reviver is for decode, decodeAll and decodeStream, not get, has or lazy';
        for (const call of [() => qbson.get(BYTES, 'a', { reviver: (k, v) => v }), () => qbson.has(BYTES, 'a', { reviver: (k, v) => v }), () => qbson.lazy(BYTES, { reviver: (k, v) => v })]) {
            assert.throws(call, (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_OPTION' && err.message === message);
        }
    });
});
