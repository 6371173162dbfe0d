'use strict';

// Options are read as the caller's own properties only: with any option planted on
// Object.prototype (as a prototype-pollution bug elsewhere in an application would),
// every entry point behaves exactly as without it.

const assert = require('assert');
const util = require('util');
const { Readable } = require('stream');
const qbson = require('..');

const { run } = require('./support/run-async');

// Each option of every entry point, with a value that would change the outcome
// of one of the calls below if it were read from the prototype.
const PLANTED = {
    promoteLongs: false,
    promoteValues: false,
    promoteBuffers: true,
    useBigInt64: true,
    bsonRegExp: true,
    preserveDeprecated: true,
    validation: { utf8: false },
    utf8: false,
    maxDepth: 1,
    index: 4,
    allowObjectSmallerThanBufferSize: true,
    checkKeys: true,
    serializeFunctions: true,
    ignoreUndefined: false,
    maxDocumentSize: 10,
    relaxed: false,
    legacy: true,
    raw: true,
    fieldsAsRaw: { a: true },
};

const id = new qbson.ObjectId('0123456789abcdef01234567');
const DOC = {
    int: 1,
    long: 2n ** 40n,
    big: qbson.Long.fromString('9007199254740993'),
    double: 1.5,
    bin: new qbson.Binary(Buffer.from('ab')),
    re: /a+/i,
    fn: function f() {},
    undef: undefined,
    $where: 1,
    'a.b': 2,
    ref: new qbson.DBRef('c', id),
    nested: { deeper: { deepest: [1, [2]] } },
    date: new Date(0),
};
const BYTES = qbson.encode(DOC);
// a string whose first byte is not UTF-8
const BAD_UTF8 = qbson.encode({ s: 'xa' });
BAD_UTF8[BAD_UTF8.indexOf('xa')] = 0xff;
// the deprecated types undefined (0x06) and symbol (0x0E): {u: undefined, s: Symbol('x')}
const DEPRECATED = Buffer.from('11000000' + '067500' + '0e7300' + '02000000' + '7800' + '00', 'hex');
const TWO = Buffer.concat([BYTES, qbson.encode({ second: true })]);
const EJSON_TEXT = '{"n":{"$numberLong":"5"},"d":{"$date":{"$numberLong":"0"}},"i":{"$numberInt":"7"},"x":[[{"y":1}]]}';

function outcome(fn) {
    try {
        return util.inspect(fn(), { depth: null, showHidden: false });
    } catch (err) {
        return `throws ${err.name}: ${err.message}`;
    }
}

async function asyncOutcome(fn) {
    try {
        return util.inspect(await fn(), { depth: null });
    } catch (err) {
        return `throws ${err.name}: ${err.message}`;
    }
}

async function collect(iterable) {
    const out = [];
    for await (const item of iterable) out.push(item);
    return out;
}

// Every entry point, each called as a user calls it: with no options, and with an empty object.
async function everyEntryPoint() {
    const results = {};
    for (const opts of [undefined, {}]) {
        const tag = opts === undefined ? 'no options' : '{}';
        const sync = {
            encode: () => qbson.encode(DOC, opts),
            encodeInto: () => {
                const out = Buffer.alloc(BYTES.length + 8);
                return [qbson.encodeInto(DOC, out, 4, opts), out];
            },
            calculateObjectSize: () => qbson.calculateObjectSize(DOC, opts),
            decode: () => qbson.decode(BYTES, opts),
            decodeBadUtf8: () => qbson.decode(BAD_UTF8, opts),
            decodeDeprecated: () => qbson.decode(DEPRECATED, opts),
            decodeTwo: () => qbson.decode(TWO, opts),
            decodeAll: () => qbson.decodeAll(TWO, opts),
            serialize: () => qbson.serialize(DOC, opts),
            deserialize: () => qbson.deserialize(BYTES, opts),
            serializeWithBufferAndIndex: () => {
                const out = Buffer.alloc(BYTES.length + 8);
                return [qbson.serializeWithBufferAndIndex(DOC, out, opts), out];
            },
            deserializeStream: () => {
                const docs = [];
                return [qbson.deserializeStream(TWO, 0, 2, docs, 0, opts), docs];
            },
            'EJSON.stringify': () => qbson.EJSON.stringify({ d: DOC.date, l: DOC.big, n: 1.0, re: DOC.re }, opts),
            'EJSON.parse': () => qbson.EJSON.parse(EJSON_TEXT, opts),
            'EJSON.serialize': () => qbson.EJSON.serialize({ d: DOC.date, l: DOC.big, n: 1.0 }, opts),
            'EJSON.deserialize': () => qbson.EJSON.deserialize(JSON.parse(EJSON_TEXT), opts),
            // bson's Extended JSON hooks on the type classes
            'toExtendedJSON': () => [DOC.big.toExtendedJSON(opts), id.toExtendedJSON(opts), new qbson.Int32(3).toExtendedJSON(opts), DOC.ref.toExtendedJSON(opts)],
            'fromExtendedJSON': () => [
                qbson.Int32.fromExtendedJSON({ $numberInt: '3' }, opts),
                qbson.Double.fromExtendedJSON({ $numberDouble: '1.5' }, opts),
                qbson.Long.fromExtendedJSON({ $numberLong: '5' }, opts),
                qbson.Binary.fromExtendedJSON({ $binary: { base64: 'YWI=', subType: '00' } }, opts),
            ],
        };
        for (const [name, fn] of Object.entries(sync)) results[`${name} with ${tag}`] = outcome(fn);
        results[`decodeStream with ${tag}`] = await asyncOutcome(() => collect(qbson.decodeStream(Readable.from([TWO, BAD_UTF8]), opts)));
        results[`encodeStream with ${tag}`] = await asyncOutcome(() => collect(Readable.from([DOC, { $x: 1 }]).pipe(qbson.encodeStream(opts))));
    }
    return results;
}

describe('options: read as own properties only', function () {
    let baseline;
    before(run(async () => {
        baseline = await everyEntryPoint();
    }));

    it('each option changes what some entry point does when passed as the caller\'s own', function () {
        // so that the comparison with a polluted prototype is not vacuous
        const probes = [
            (o) => qbson.encode(DOC, o),
            (o) => qbson.calculateObjectSize(DOC, o),
            (o) => qbson.decode(BYTES, o),
            (o) => qbson.decode(BAD_UTF8, o),
            (o) => qbson.decode(DEPRECATED, o),
            (o) => qbson.decode(TWO, o),
            (o) => qbson.EJSON.stringify({ d: DOC.date, l: DOC.big, n: 1.0, re: DOC.re }, o),
            (o) => qbson.EJSON.parse(EJSON_TEXT, o),
        ];
        const inert = Object.keys(PLANTED).filter((name) => {
            const opts = { [name]: PLANTED[name] };
            return probes.every((probe) => outcome(() => probe(opts)) === outcome(() => probe({})));
        });
        // utf8 only means something inside validation; raw and fieldsAsRaw are decode options of bson
        assert.deepStrictEqual(inert, ['utf8', 'raw', 'fieldsAsRaw'].filter((name) => inert.includes(name)));
    });

    for (const [name, value] of Object.entries(PLANTED)) {
        it(`Object.prototype.${name} = ${util.inspect(value)} changes nothing`, run(async () => {
            Object.prototype[name] = value;
            let polluted;
            try {
                polluted = await everyEntryPoint();
            } finally {
                delete Object.prototype[name];
            }
            for (const call of Object.keys(baseline)) assert.strictEqual(polluted[call], baseline[call], call);
        }));
    }
});
