'use strict';

// jsonToBSON: text straight to BSON, held to encode(EJSON.parse(text, opts), opts).
//  corpus:   every valid case's canonical, relaxed and degenerate Extended JSON, and
//            every parseErrors case a BSONError with an offset.
//  property: generated documents of every type, written by bson's and qbson's
//            EJSON.stringify in both modes and by JSON.stringify, give exactly
//            encode(EJSON.parse(text)) / encode(JSON.parse(text)).
//  fuzz:     mutated text gives encode(EJSON.parse(text))'s bytes, or a BSONError
//            where that throws, and nothing else.
//  examples: JSON.parse's own semantics, options, many documents, hostile text.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { makeRandom, randomDocument } = require('./support/fuzz');

const { jsonToBSON, EJSON, BSONError } = qbson;

const { loadCorpus } = require('./support/corpus');
const { parseErrorText } = require('./support/ejson-assertions');
const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 2000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261125;
const FUZZ_N = Number(process.env.QBSON_FUZZ_N) || 5000;
const OPTION_SETS = [undefined, { relaxed: false }, { relaxed: false, useBigInt64: true }, { legacy: true }, { relaxed: false, preserveDeprecated: true }];

// encode(EJSON.parse(text, opts), opts) as hex, or null where that throws
function expectedHex(text, opts) {
    let value;
    try {
        value = EJSON.parse(text, opts);
    } catch (err) {
        return null;
    }
    try {
        return qbson.encode(value, opts).toString('hex');
    } catch (err) {
        assert.ok(err instanceof BSONError, `encode threw ${err}`);
        return null;
    }
}

function assertBSONError(fn, what) {
    let thrown = null;
    try {
        fn();
    } catch (err) {
        thrown = err;
    }
    assert.ok(thrown !== null, `${what}: no error`);
    assert.ok(thrown instanceof BSONError, `${what}: threw ${thrown && thrown.stack}`);
    return thrown;
}

// jsonToBSON of text (as a string and as UTF-8 bytes) gives the expected bytes, or a BSONError where they are null
function assertSame(text, opts, expected) {
    if (expected === undefined) expected = expectedHex(text, opts);
    for (const input of [text, Buffer.from(text, 'utf8')]) {
        const what = `${JSON.stringify(text)} ${JSON.stringify(opts)} ${typeof input}`;
        if (expected === null) assertBSONError(() => jsonToBSON(input, opts), what);
        else assert.strictEqual(jsonToBSON(input, opts).toString('hex'), expected, what);
    }
}

describe('jsonToBSON: spec corpus', function () {
    for (const suite of loadCorpus()) {
        describe(`${suite.file}: ${suite.description}`, function () {
            for (const c of suite.valid || []) {
                it(`${c.description}: canonical Extended JSON to canonical BSON`, function () {
                    const expected = expectedHex(c.canonical_extjson, { relaxed: false });
                    assertSame(c.canonical_extjson, { relaxed: false }, expected);
                    // where encode(EJSON.parse) gives the corpus's bytes, so does jsonToBSON
                    if (!c.lossy && expected === c.canonical_bson.toLowerCase()) {
                        assert.strictEqual(jsonToBSON(c.canonical_extjson, { relaxed: false }).toString('hex'), c.canonical_bson.toLowerCase());
                    }
                    assertSame(c.canonical_extjson);
                });
                if (c.relaxed_extjson) {
                    it(`${c.description}: relaxed Extended JSON`, function () {
                        assertSame(c.relaxed_extjson);
                        assertSame(c.relaxed_extjson, { relaxed: false });
                    });
                }
                if (c.degenerate_extjson) {
                    it(`${c.description}: degenerate Extended JSON`, function () {
                        assertSame(c.degenerate_extjson, { relaxed: false });
                        assertSame(c.degenerate_extjson);
                    });
                }
                if (c.converted_extjson) {
                    it(`${c.description}: converted Extended JSON`, function () {
                        for (const opts of OPTION_SETS) assertSame(c.converted_extjson, opts);
                    });
                }
            }
            for (const c of suite.parseErrors || []) {
                it(`parse error: ${c.description}: ${JSON.stringify(c.string)}`, function () {
                    const text = parseErrorText(suite, c);
                    for (const opts of [undefined, { relaxed: false }]) {
                        const err = assertBSONError(() => jsonToBSON(text, opts), text);
                        assert.strictEqual(typeof err.offset, 'number', err.message);
                        assert.ok(err.message.includes(`offset ${err.offset}`), err.message);
                    }
                });
            }
        });
    }
});

// ---------------------------------------------------------------------------
// property

const key = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('_id', 'a', 'b', '__proto__', 'constructor', 'é', '日本', '0', '1', '10', '01', '4294967295', '$a', '$ref', '$id', 'a.b'),
    fc.string({ unit: 'binary', maxLength: 6 })
);
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const bytes = fc.uint8Array({ maxLength: 24 });
const leaf = fc.oneof(
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    fc.double(),
    fc.constantFrom(0, -0, 0.1, 1e21, 1e-7, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, -(2 ** 63), Number.MAX_SAFE_INTEGER, 5e-324, 1.7976931348623157e308),
    text,
    fc.boolean(),
    fc.constant(null),
    int64,
    fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
    fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => new bson.ObjectId(b)),
    int64.map((n) => bson.Long.fromBigInt(n)),
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((n) => new bson.Int32(n)),
    fc.double().map((n) => new bson.Double(n)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.Decimal128(Buffer.from(b))),
    fc.tuple(bytes, fc.constantFrom(0, 1, 2, 3, 5, 0x80)).map(([b, t]) => new bson.Binary(Buffer.from(b), t)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => new bson.UUID(Buffer.from(b))),
    fc.tuple(fc.nat(), fc.nat()).map(([t, i]) => new bson.Timestamp({ t: t >>> 0, i: i >>> 0 })),
    text.map((s) => new bson.Code(s)),
    text.filter((s) => !s.includes('\u0000')).map((s) => new bson.BSONSymbol(s)),
    fc.tuple(fc.constantFrom('a.b', '^x$', ''), fc.constantFrom('', 'i', 'mi')).map(([p, o]) => new bson.BSONRegExp(p, o)),
    fc.constant(new bson.MinKey()),
    fc.constant(new bson.MaxKey())
);
const { value: valueArb } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, leaf, leaf, tie('array'), tie('doc'), tie('code'), tie('dbref')),
    array: fc.array(tie('value'), { maxLength: 6 }),
    doc: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    code: fc.tuple(text, tie('doc')).map(([c, scope]) => new bson.Code(c, scope)),
    dbref: fc.tuple(fc.string({ maxLength: 6 }), leaf, fc.option(tie('doc'), { nil: undefined })).map(([coll, id, fields]) => new bson.DBRef(coll, id === null ? 1 : id, undefined, fields)),
}));
const rootArb = fc.dictionary(key, valueArb, { maxKeys: 8 });

// The texts a document is written as: bson's and qbson's Extended JSON in both modes
function textsOf(doc) {
    const out = [];
    for (const relaxed of [true, false]) {
        for (const ejson of [bson.EJSON, EJSON]) {
            try {
                out.push(ejson.stringify(doc, { relaxed }));
            } catch (err) {
                // a value one of them cannot write (an invalid Date in relaxed mode): nothing to compare
            }
        }
    }
    return out;
}

describe('jsonToBSON: property against encode(EJSON.parse(text))', function () {
    it(`${RUNS} generated documents, as Extended JSON written by bson and qbson, relaxed and canonical`, function () {
        let compared = 0;
        fc.assert(
            fc.property(rootArb, fc.constantFrom(...OPTION_SETS), (doc, opts) => {
                for (const t of textsOf(doc)) {
                    assertSame(t, opts);
                    compared++;
                }
            }),
            { numRuns: RUNS, seed: SEED }
        );
        assert.ok(compared >= RUNS * 2, `${compared} texts compared`);
    });

    it(`${RUNS} generated documents as plain JSON give encode(JSON.parse(text))`, function () {
        fc.assert(
            fc.property(rootArb, (doc) => {
                const plain = JSON.stringify(doc, (k, v) => (typeof v === 'bigint' ? Number(v) : v));
                for (const s of [plain, ...textsOf(doc).slice(0, 1)]) {
                    let expected = null;
                    try {
                        expected = qbson.encode(JSON.parse(s)).toString('hex');
                        // plain JSON is read as Extended JSON: a $-key object may be a wrapper
                        if (s.includes('"$')) expected = expectedHex(s);
                    } catch (err) {
                        expected = null;
                    }
                    assertSame(s, undefined, expected);
                }
            }),
            { numRuns: RUNS, seed: SEED + 1 }
        );
    });
});

// ---------------------------------------------------------------------------
// fuzz

const PUNCTUATION = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', '-', '.', 'e', '1', '$', 'n', 't', 'u', '\u00e9', '\ud800', '"$oid"', '{"$numberLong":"1"}'];

function mutate(rng, s) {
    const n = 1 + rng.int(3);
    for (let m = 0; m < n && s.length > 0; m++) {
        const at = rng.int(s.length + 1);
        switch (rng.int(5)) {
            case 0:
                s = s.slice(0, at) + s.slice(at + 1);
                break;
            case 1:
                s = s.slice(0, at) + rng.pick(PUNCTUATION) + s.slice(at);
                break;
            case 2:
                s = s.slice(0, at) + rng.pick(PUNCTUATION) + s.slice(at + 1);
                break;
            case 3:
                s = s.slice(0, at);
                break;
            default: {
                const from = rng.int(s.length);
                s = s.slice(0, at) + s.slice(from, from + 1 + rng.int(12)) + s.slice(at);
            }
        }
    }
    return s;
}

describe('jsonToBSON: fuzz', function () {
    it(`${FUZZ_N} mutated texts: encode(EJSON.parse)'s bytes or a BSONError`, function () {
        const rng = makeRandom(SEED);
        const outcomes = { same: 0, error: 0, unwritable: 0 };
        for (let n = 0; n < FUZZ_N; n++) {
            const doc = randomDocument(rng, 0);
            const relaxed = rng.chance(0.5);
            const opts = rng.chance(0.5) ? undefined : { relaxed: false };
            let written;
            try {
                written = EJSON.stringify(doc, { relaxed });
            } catch (err) {
                // a value Extended JSON has no form for (a RegExp flag BSON lacks)
                outcomes.unwritable++;
                continue;
            }
            const t = mutate(rng, written);
            const expected = expectedHex(t, opts);
            assertSame(t, opts, expected);
            outcomes[expected === null ? 'error' : 'same']++;
        }
        // the mutations must reach both outcomes
        assert.ok(outcomes.same > FUZZ_N / 20 && outcomes.error > FUZZ_N / 20, JSON.stringify(outcomes));
    });

    it('mutated bytes that are not UTF-8 are a BSONError naming the offset', function () {
        const rng = makeRandom(SEED + 7);
        for (let n = 0; n < 500; n++) {
            let b;
            try {
                b = Buffer.from(EJSON.stringify(randomDocument(rng, 0)));
            } catch (err) {
                continue;
            }
            const at = rng.int(b.length);
            b[at] = rng.pick([0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff, 0xed]);
            if (require('buffer').isUtf8(b)) continue;
            const err = assertBSONError(() => jsonToBSON(b), b.toString('hex'));
            assert.ok(err.offset <= at, `${err.offset} > ${at}`);
        }
    });
});

// ---------------------------------------------------------------------------
// examples

describe('jsonToBSON: JSON.parse and EJSON.parse semantics', function () {
    const CASES = [
        '{"a":1,"a":2,"b":3}',
        '{"b":1,"1":2,"0":3}',
        '{"0":1,"1":2,"b":3}',
        '{"01":1,"1":2}',
        '{"4294967295":1,"4294967294":2}',
        '{"__proto__":{"x":1}}',
        '{"constructor":1,"toString":2}',
        '{"a":"\\ud800x","\\udc00":"\\ud83d\\ude00"}',
        '{"a\\u0000":1}',
        '{"a":"\\u0000\\n\\t\\"\\\\\\/\\b\\f\\r"}',
        '{"a":1.0,"b":1e2,"c":-0,"d":-0.0,"e":2147483648,"f":-2147483649,"g":1e400,"h":-1e400,"i":1e-400}',
        '{"a":9007199254740993,"b":9223372036854775807,"c":9223372036854775808,"d":-9223372036854775808,"e":1e19}',
        '{"a":0.1,"b":0.30000000000000004,"c":123456789.123456789,"d":4.9e-324,"e":2.2250738585072014e-308,"f":1.7976931348623157e308}',
        '{"a":{"$numberInt":"-0"},"b":{"$numberInt":"+1"},"c":{"$numberInt":"007"},"d":{"$numberInt":"2147483648"}}',
        '{"a":{"$numberLong":"-0"},"b":{"$numberLong":"9223372036854775807"},"c":{"$numberLong":"1.5"}}',
        '{"a":{"$numberDouble":"1.0"},"b":{"$numberDouble":"-0.0"},"c":{"$numberDouble":"Infinity"},"d":{"$numberDouble":"1e400"}}',
        '{"a":{"$oid":"507F1F77BCF86CD799439011"},"b":{"$oid":"507f1f77bcf86cd79943901g"}}',
        '{"a":{"$date":"2020-02-30T00:00:00Z"},"b":{"$date":"1970-01-01T00:00:00.001+01:00"},"c":{"$date":{"$numberLong":"-1"}},"d":{"$date":12}}',
        '{"a":{"$oid":"507f1f77bcf86cd799439011","b":1}}',
        '{"a":{"b":1,"$oid":"507f1f77bcf86cd799439011"}}',
        '{"a":{"$ref":"c","$id":1,"$db":"d","x":2}}',
        '{"a":{"$gt":1}}',
        '{"$oid":"507f1f77bcf86cd799439011"}',
        '{"a":{"$undefined":true},"b":[{"$undefined":true}]}',
        '{"a":{"$regex":"x","$options":"i"},"b":{"$regex":{"$regularExpression":{"pattern":"x","options":""}}}}',
        '{"a":{"$code":"f()","$scope":{"x":{"$numberLong":"1"}}}}',
        '{"a":{"$binary":"AQI=","$type":"00"},"b":{"$uuid":"00112233-4455-6677-8899-aabbccddeeff"}}',
        '{"a": {"a.b": 1}, "$x": 1}',
        'null',
        ' \n\t{ } \r\n',
        '[]',
        '[{}]',
        '5',
        '"x"',
        'true',
    ];
    for (const c of CASES) {
        it(c, function () {
            for (const opts of OPTION_SETS) assertSame(c, opts);
            assertSame(c, { checkKeys: true });
            assertSame(c, { ignoreUndefined: false, relaxed: false, preserveDeprecated: true });
        });
    }

    it('syntax errors name the offset, in characters for a string and bytes for bytes', function () {
        let err = assertBSONError(() => jsonToBSON('{"é": tru}'), 'é');
        assert.strictEqual(err.offset, 6);
        assert.ok(err.message.includes('offset 6'), err.message);
        err = assertBSONError(() => jsonToBSON(Buffer.from('{"é": tru}')), 'é');
        assert.strictEqual(err.offset, 7);
        for (const bad of ['', '{', '{"a"', '{"a":', '{"a":1', '{"a":1,}', '{,}', '{"a":[1,]}', '{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":+1}', '{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\t"}', '{"a":1}x', '{"a":NaN}', '\ufeff{}']) {
            assert.strictEqual(expectedHex(bad), null, bad);
            assertSame(bad);
        }
    });

    it('nesting beyond maxDepth is a BSONError, never a stack overflow', function () {
        for (const md of [1, 3, 5]) {
            for (let n = 1; n <= md + 3; n++) {
                assertSame('{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1), { maxDepth: md });
                assertSame('{"a":' + '['.repeat(n - 1) + '1' + ']'.repeat(n - 1) + '}', { maxDepth: md });
            }
        }
        const deep = '{"a":'.repeat(100000) + '1' + '}'.repeat(100000);
        const err = assertBSONError(() => jsonToBSON(deep), 'deep');
        assert.strictEqual(err.code, 'ERR_BSON_TOO_DEEP');
        assertBSONError(() => jsonToBSON('['.repeat(1e6)), 'brackets');
        assertBSONError(() => jsonToBSON('{"a":' + '['.repeat(1e6)), 'open brackets');
    });

    it('huge numbers and long texts', function () {
        assertSame(`{"a":${'9'.repeat(5000)},"b":0.${'0'.repeat(5000)}1,"c":1e${'9'.repeat(400)}}`);
        assertSame(`{"a":"${'x'.repeat(300000)}","b":"${'é\\n'.repeat(100000)}"}`);
        const wide = {};
        for (let i = 0; i < 3000; i++) wide[`k${i}`] = i;
        assertSame(JSON.stringify(wide));
        assertSame(JSON.stringify(Object.assign({ k17: 'again' }, wide)).replace('"k0":0', '"k17":"dup"'));
    });

    it('a short text after a longer one ends where it ends', function () {
        jsonToBSON('{"a":"a long string, longer than the next text"}');
        assertBSONError(() => jsonToBSON('{ '), 'unfinished');
        assertBSONError(() => jsonToBSON('{"a":1'), 'unfinished');
        assert.deepStrictEqual(jsonToBSON('{}'), qbson.encode({}));
    });

    it('maxDocumentSize refuses a document, as encode does', function () {
        assertSame('{"a":"xxxxxxxxxx"}', { maxDocumentSize: 20 });
        assertSame('{"a":"xxxxxxxxxx"}', { maxDocumentSize: 30 });
    });

    it('bad arguments are BSONErrors', function () {
        assertBSONError(() => jsonToBSON(5), 'number');
        assertBSONError(() => jsonToBSON(null), 'null');
        assertBSONError(() => jsonToBSON({}), 'object');
        assertBSONError(() => jsonToBSON('{}', { many: 'yes' }), 'many');
        assertBSONError(() => jsonToBSON('{}', { maxDepth: 0 }), 'maxDepth');
    });

    it('takes any Uint8Array and leaves it as it was', function () {
        const b = new Uint8Array(Buffer.from('{"a":[1,"x"]}'));
        const copy = Buffer.from(b);
        assert.deepStrictEqual(jsonToBSON(b), qbson.encode({ a: [1, 'x'] }));
        assert.deepStrictEqual(Buffer.from(b), copy);
        assert.ok(Buffer.isBuffer(jsonToBSON(b)));
    });
});

describe('jsonToBSON: many documents', function () {
    const docs = ['{"a":1}', '{"b":{"$oid":"507f1f77bcf86cd799439011"}}', '{}', '{"a":1,"a":2}', '{"c":[1,{"$numberLong":"7"}]}'];
    const concat = (opts) => Buffer.concat(docs.map((d) => qbson.encode(EJSON.parse(d, opts), opts)));

    it("many: 'lines' reads one document a line, blank lines and a document over lines included", function () {
        for (const opts of [{}, { relaxed: false }]) {
            const lines = docs.join('\n') + '\n';
            assert.deepStrictEqual(jsonToBSON(lines, { many: 'lines', ...opts }), concat(opts));
            assert.deepStrictEqual(jsonToBSON(Buffer.from(docs.join('\r\n\n')), { many: 'lines', ...opts }), concat(opts));
            assert.deepStrictEqual(jsonToBSON('{\n "a": 1\n}\n{"b":2}', { many: 'lines', ...opts }), Buffer.concat([qbson.encode({ a: 1 }), qbson.encode({ b: 2 })]));
        }
        assert.strictEqual(jsonToBSON('', { many: 'lines' }).length, 0);
        assert.strictEqual(jsonToBSON(' \n\n', { many: 'lines' }).length, 0);
        let err = assertBSONError(() => jsonToBSON('{"a":1} {"b":2}\n', { many: 'lines' }), 'two on a line');
        assert.strictEqual(err.offset, 8);
        err = assertBSONError(() => jsonToBSON('{"a":1}\n[1]\n', { many: 'lines' }), 'array line');
        assert.strictEqual(err.offset, 8);
        err = assertBSONError(() => jsonToBSON('{"a":1}\n{"a":{"$numberInt":"x"}}\n', { many: 'lines' }), 'bad wrapper');
        // the wrapper's offset, then its document's
        assert.strictEqual(err.offset, 13);
        assert.ok(err.message.includes("at key path 'a' at offset 13 (in the document at offset 8)"), err.message);
    });

    it("many: 'array' reads a JSON array of documents", function () {
        assert.deepStrictEqual(jsonToBSON(`[${docs.join(',')}]`, { many: 'array' }), concat());
        assert.deepStrictEqual(jsonToBSON(Buffer.from(` [ \n${docs.join(' ,\n')} ] `), { many: 'array' }), concat());
        assert.strictEqual(jsonToBSON('[]', { many: 'array' }).length, 0);
        for (const bad of ['{}', '[', '[{}', '[{},]', '[1]', '[{} {}]', '[{}]]', '[null]']) assertBSONError(() => jsonToBSON(bad, { many: 'array' }), bad);
    });
});
