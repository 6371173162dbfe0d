'use strict';

// bsonToJSON: BSON bytes to JSON text with no value tree between.
//  corpus:   every valid case in every mode gives the text of the decoded value
//            (JSON.stringify(decode(b)); EJSON.stringify(decode(b, lossless))),
//            and parsed, the Extended JSON equals the case's canonical_extjson
//            and relaxed_extjson; every decodeErrors case fails as decode fails.
//  property: generated documents of every type against JSON.stringify(decode()),
//            qbson's EJSON and bson@7's EJSON.stringify(deserialize()).
//  fuzz:     every input of the mutation fuzzer, in every mode and under
//            decode's options: the same error as decode (class, code, offset,
//            message), or the same text.
//  examples: many documents, bytes output, the rare shapes of a decoded object
//            (duplicate keys, integer-like keys, DBRefs), errors, nesting, options.

const assert = require('assert');
const crypto = require('crypto');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const F = require('./support/fuzz');
const { loadCorpus } = require('./support/corpus');
const { EJSON_SKIPS } = require('./support/corpus-skips');
const { documentArbitraries } = require('./support/arbitraries');
const { DEFAULT_MAX_DEPTH } = require('../lib/constants');

const { bsonToJSON, BSONError } = qbson;

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 3000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261125;
const FUZZ_N = Number(process.env.QBSON_FUZZ_N) || 10000;
const FUZZ_SEED = process.env.QBSON_FUZZ_SEED !== undefined ? Number(process.env.QBSON_FUZZ_SEED) : 1;

// the decode under which Extended JSON keeps every BSON type as stored
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };
const MODES = ['json', 'relaxed', 'canonical'];
// decode's options bsonToJSON takes, one set per fuzz input in turn
const DECODE_OPTION_SETS = [{}, { maxDepth: 3 }, { validation: { utf8: false } }, { validation: { utf8: { a: false } } }, { validation: { utf8: { b: true } } }];

// What the text must be: the decoded value's, under the same decode options.
function expectedText(bytes, mode, opts) {
    const decodeOptions = mode === 'json' ? opts : { ...LOSSLESS, ...opts };
    const value = qbson.decode(bytes, decodeOptions);
    return mode === 'json' ? JSON.stringify(value) : qbson.EJSON.stringify(value, { relaxed: mode === 'relaxed' });
}

function outcome(fn) {
    try {
        return { value: fn() };
    } catch (err) {
        return { error: err };
    }
}

// bsonToJSON fails exactly where decode fails, with the same error, and otherwise gives its text.
function assertAgrees(bytes, mode, opts, label) {
    const expected = outcome(() => expectedText(bytes, mode, opts));
    const actual = outcome(() => bsonToJSON(bytes, { ...opts, mode }));
    if (expected.error !== undefined) {
        assert.ok(actual.error !== undefined, `${label}: decode fails (${expected.error.message}) but bsonToJSON gives ${actual.value}`);
        assert.ok(actual.error instanceof BSONError, `${label}: not a BSONError: ${actual.error.stack}`);
        assert.strictEqual(actual.error.constructor, expected.error.constructor, label);
        assert.strictEqual(actual.error.code, expected.error.code, label);
        assert.strictEqual(actual.error.offset, expected.error.offset, label);
        assert.strictEqual(actual.error.message, expected.error.message, label);
        return;
    }
    if (actual.error !== undefined) throw new Error(`${label}: decode succeeds but bsonToJSON throws ${actual.error.stack}`);
    assert.strictEqual(actual.value, expected.value, label);
}

describe('bsonToJSON: the corpus', function () {
    let skipped = 0;
    for (const suite of loadCorpus()) {
        describe(`${suite.file}: ${suite.description}`, function () {
            for (const c of suite.valid || []) {
                const bytes = Buffer.from(c.canonical_bson, 'hex');
                it(`valid: ${c.description}: every mode gives the decoded value's text`, function () {
                    for (const mode of MODES) assertAgrees(bytes, mode, {}, mode);
                });
                const checks = [['cB -> cEJ', 'canonical', c.canonical_extjson]];
                if (c.relaxed_extjson !== undefined) checks.push(['cB -> rEJ', 'relaxed', c.relaxed_extjson]);
                for (const [name, mode, text] of checks) {
                    const skip = EJSON_SKIPS[`${suite.file}: ${c.description}: ${name}`];
                    if (skip !== undefined) {
                        skipped++;
                        it.skip(`valid: ${c.description}: ${mode} parsed equals the corpus (skipped: ${skip})`, function () {});
                        continue;
                    }
                    it(`valid: ${c.description}: ${mode} parsed equals the corpus`, function () {
                        assert.deepStrictEqual(JSON.parse(bsonToJSON(bytes, { mode })), JSON.parse(text));
                    });
                }
            }
            for (const c of suite.decodeErrors || []) {
                it(`decodeError: ${c.description}: fails as decode fails`, function () {
                    for (const mode of MODES) assertAgrees(Buffer.from(c.bson, 'hex'), mode, {}, mode);
                });
            }
        });
    }
    it('skips only the corpus assertions the Extended JSON tests skip (bson@7\'s text)', function () {
        assert.strictEqual(skipped, Object.keys(EJSON_SKIPS).filter((k) => /cB -> [cr]EJ$/.test(k)).length);
    });
});

describe('bsonToJSON: property', function () {
    const { rootArb } = documentArbitraries(fc, bson, (bytes) => Buffer.from(bytes));

    function bsonBytes(doc) {
        try {
            return Buffer.from(bson.serialize(doc));
        } catch (err) {
            return null;
        }
    }

    it(`${RUNS} generated documents: every mode gives the text of qbson's decoded value`, function () {
        fc.assert(
            fc.property(rootArb, (doc) => {
                const bytes = bsonBytes(doc);
                fc.pre(bytes !== null);
                for (const mode of MODES) assertAgrees(bytes, mode, {}, mode);
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });

    it(`${RUNS} generated documents: relaxed and canonical give bson@7's EJSON.stringify(deserialize()), but within DBRefs`, function () {
        let withDBRef = 0;
        let compared = 0;
        fc.assert(
            fc.property(rootArb, (doc) => {
                const bytes = bsonBytes(doc);
                fc.pre(bytes !== null);
                for (const relaxed of [true, false]) {
                    const theirs = outcome(() => bson.EJSON.stringify(bson.deserialize(bytes, { promoteValues: false, bsonRegExp: true }), { relaxed }));
                    // bson leaves a DBRef's $id and fields unconverted (docs/differences.md)
                    if (theirs.error !== undefined || theirs.value.includes('"$ref"')) {
                        withDBRef++;
                        continue;
                    }
                    compared++;
                    assert.strictEqual(bsonToJSON(bytes, { mode: relaxed ? 'relaxed' : 'canonical' }), theirs.value);
                }
            }),
            { seed: SEED + 1, numRuns: RUNS }
        );
        // most generated documents hold a DBRef somewhere; a quarter of them at least are compared
        assert.ok(compared >= RUNS / 2, `compared ${compared}, left out ${withDBRef} with a DBRef`);
    });

    it(`${RUNS} generated documents: 'json' mode gives JSON.stringify(bson.deserialize()) where bson's values are qbson's`, function () {
        fc.assert(
            fc.property(rootArb, (doc) => {
                const bytes = bsonBytes(doc);
                fc.pre(bytes !== null);
                const theirs = outcome(() => JSON.stringify(bson.deserialize(bytes)));
                const ours = outcome(() => JSON.stringify(qbson.decode(bytes)));
                // where the two decoders differ, decode's own test says why; here the text follows decode
                fc.pre(theirs.value !== undefined && theirs.value === ours.value);
                assert.strictEqual(bsonToJSON(bytes, { mode: 'json' }), theirs.value);
            }),
            { seed: SEED + 2, numRuns: RUNS }
        );
    });
});

describe(`bsonToJSON: fuzz, ${FUZZ_N} mutated inputs from seed ${FUZZ_SEED}`, function () {
    const seeds = F.corpusDocuments().concat(F.generatedDocuments(FUZZ_SEED, 300), F.corpusDecodeErrors());
    const special = [F.nestedBytes(DEFAULT_MAX_DEPTH), F.nestedBytes(DEFAULT_MAX_DEPTH + 1), F.nestedBytes(DEFAULT_MAX_DEPTH + 1, true), F.nestedBytes(3000)];

    it(`every seed document agrees with decode in every mode`, function () {
        for (const bytes of seeds) for (const mode of MODES) assertAgrees(bytes, mode, {}, `${mode} ${bytes.toString('hex')}`);
    });

    for (let from = 0; from < FUZZ_N; from += 2000) {
        const to = Math.min(FUZZ_N, from + 2000);
        it(`inputs ${from} to ${to - 1}: fails where decode fails, with its error, and otherwise gives its text`, function () {
            const failures = [];
            for (let i = from; i < to && failures.length < 5; i++) {
                const input = F.makeInput(F.inputRandom(FUZZ_SEED, i), seeds, special);
                const before = input.toString('hex');
                const opts = DECODE_OPTION_SETS[i % DECODE_OPTION_SETS.length];
                try {
                    for (const mode of MODES) {
                        assertAgrees(input, mode, {}, mode);
                        assertAgrees(input, mode, opts, `${mode} ${JSON.stringify(opts)}`);
                    }
                    assert.strictEqual(input.toString('hex'), before, 'the input changed');
                } catch (err) {
                    failures.push(`seed ${FUZZ_SEED} input ${i}: ${err.message}\n  input ${before.slice(0, 4096)}`);
                }
            }
            if (failures.length) assert.fail(`${failures.length} failures:\n${failures.join('\n')}`);
        });
    }
});

describe('bsonToJSON: many documents', function () {
    const docs = [{ a: 1 }, { b: 'two', c: [1, 2] }, {}];
    const joined = Buffer.concat(docs.map((d) => qbson.encode(d)));

    it("documents back to back as a JSON array with many: 'array'", function () {
        assert.strictEqual(bsonToJSON(joined, { many: 'array', mode: 'json' }), JSON.stringify(qbson.decodeAll(joined)));
    });

    it("one a line with many: 'lines', each line ended, as jsonToBSON reads them back", function () {
        const text = bsonToJSON(joined, { many: 'lines', mode: 'canonical' });
        assert.strictEqual(text, qbson.decodeAll(joined, LOSSLESS).map((d) => qbson.EJSON.stringify(d, { relaxed: false }) + '\n').join(''));
        assert.ok(qbson.jsonToBSON(text, { many: 'lines', relaxed: false }).equals(joined));
    });

    it('an array of documents, as a JSON array by default, or one a line', function () {
        const list = docs.map((d) => qbson.encode(d));
        assert.strictEqual(bsonToJSON(list, { mode: 'json' }), JSON.stringify(docs));
        assert.strictEqual(bsonToJSON(list, { mode: 'json', many: 'lines' }), docs.map((d) => JSON.stringify(d) + '\n').join(''));
    });

    it('no documents: [] or nothing', function () {
        assert.strictEqual(bsonToJSON(Buffer.alloc(0), { many: 'array' }), '[]');
        assert.strictEqual(bsonToJSON(Buffer.alloc(0), { many: 'lines' }), '');
        assert.strictEqual(bsonToJSON([], {}), '[]');
    });

    it("a damaged document among many fails as decodeAll fails (or decode, for an array's)", function () {
        const damaged = Buffer.concat([qbson.encode({ a: 1 }), Buffer.from('0600000008610002', 'hex').subarray(0, 6), qbson.encode({ b: 1 })]);
        damaged.writeInt32LE(6, 12);
        const expected = outcome(() => qbson.decodeAll(damaged, LOSSLESS)).error;
        const actual = outcome(() => bsonToJSON(damaged, { many: 'lines' })).error;
        assert.ok(expected instanceof BSONError);
        assert.deepStrictEqual([actual.message, actual.code, actual.offset], [expected.message, expected.code, expected.offset]);
        const list = [qbson.encode({ a: 1 }), Buffer.from('0700000008610002', 'hex')];
        const listError = outcome(() => bsonToJSON(list, { mode: 'json' })).error;
        assert.strictEqual(listError.message, outcome(() => qbson.decode(list[1])).error.message);
    });
});

describe('bsonToJSON: output and input', function () {
    const bytes = qbson.encode({ s: 'é日本🙂', n: 1.5, _id: new qbson.ObjectId('0123456789abcdef01234567') });

    it("output: 'bytes' gives the text's UTF-8 bytes, as a new buffer", function () {
        for (const mode of MODES) {
            const out = bsonToJSON(bytes, { mode, output: 'bytes' });
            assert.ok(out instanceof Uint8Array);
            assert.ok(Buffer.from(out).equals(Buffer.from(bsonToJSON(bytes, { mode }))));
        }
        const first = bsonToJSON(bytes, { output: 'bytes' });
        const copy = Buffer.from(first);
        bsonToJSON(qbson.encode({ other: 'document' }), { output: 'bytes' });
        assert.ok(Buffer.from(first).equals(copy), 'a later call changed the bytes returned');
    });

    it('takes any Uint8Array, and leaves it as it was', function () {
        const view = new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
        const hash = crypto.createHash('sha256').update(view).digest('hex');
        assert.strictEqual(bsonToJSON(view, { mode: 'json' }), JSON.stringify(qbson.decode(bytes)));
        assert.strictEqual(crypto.createHash('sha256').update(view).digest('hex'), hash);
    });

    it('relaxed is the default mode', function () {
        assert.strictEqual(bsonToJSON(bytes), bsonToJSON(bytes, { mode: 'relaxed' }));
        assert.strictEqual(bsonToJSON(bytes), '{"s":"é日本🙂","n":1.5,"_id":{"$oid":"0123456789abcdef01234567"}}');
    });
});

describe('bsonToJSON: what a decoded object does to keys', function () {
    // bytes written here: encode would not write these documents
    function documentOf(elements) {
        const body = Buffer.concat(elements.map(([type, key, value]) => Buffer.concat([Buffer.from([type]), Buffer.from(key + '\0', 'utf8'), value])));
        const doc = Buffer.alloc(body.length + 5);
        doc.writeInt32LE(doc.length, 0);
        body.copy(doc, 4);
        return doc;
    }
    const int32 = (n) => {
        const b = Buffer.alloc(4);
        b.writeInt32LE(n);
        return b;
    };
    const string = (s) => {
        const b = Buffer.from(s + '\0', 'utf8');
        return Buffer.concat([int32(b.length), b]);
    };

    it('a key seen twice: its last value, at its first place', function () {
        const doc = documentOf([[0x10, 'a', int32(1)], [0x10, 'b', int32(2)], [0x10, 'a', int32(3)]]);
        assert.strictEqual(bsonToJSON(doc, { mode: 'json' }), '{"a":3,"b":2}');
        for (const mode of MODES) assertAgrees(doc, mode, {}, mode);
    });

    it('integer-like keys first, ascending; others as stored', function () {
        const doc = documentOf([[0x10, 'b', int32(1)], [0x10, '10', int32(2)], [0x10, '2', int32(3)], [0x10, '01', int32(4)]]);
        assert.strictEqual(bsonToJSON(doc, { mode: 'json' }), '{"2":3,"10":2,"b":1,"01":4}');
        for (const mode of MODES) assertAgrees(doc, mode, {}, mode);
    });

    it('a DBRef in the order its toJSON and its Extended JSON give, a "db.collection" $ref split', function () {
        const oid = Buffer.from('0123456789abcdef01234567', 'hex');
        const doc = documentOf([[0x03, 'r', documentOf([[0x10, 'x', int32(1)], [0x02, '$ref', string('db.c')], [0x07, '$id', oid]])]]);
        assert.strictEqual(bsonToJSON(doc, { mode: 'json' }), '{"r":{"$ref":"c","$id":"0123456789abcdef01234567","x":1,"$db":"db"}}');
        assert.strictEqual(bsonToJSON(doc), '{"r":{"$ref":"c","$id":{"$oid":"0123456789abcdef01234567"},"$db":"db","x":1}}');
        for (const mode of MODES) assertAgrees(doc, mode, {}, mode);
    });

    it("'json' leaves out a key whose value is undefined, and writes null in an array", function () {
        const doc = documentOf([[0x06, 'u', Buffer.alloc(0)], [0x04, 'a', documentOf([[0x06, '0', Buffer.alloc(0)]])]]);
        assert.strictEqual(bsonToJSON(doc, { mode: 'json' }), '{"a":[null]}');
        assert.strictEqual(bsonToJSON(doc), '{"u":{"$undefined":true},"a":[{"$undefined":true}]}');
    });

    it('text that is not UTF-8: refused as decode refuses it, or with validation off each bad sequence a U+FFFD', function () {
        const doc = documentOf([[0x02, 's', Buffer.concat([int32(4), Buffer.from([0x61, 0xff, 0x62, 0])])]]);
        const err = outcome(() => bsonToJSON(doc)).error;
        assert.strictEqual(err.message, outcome(() => qbson.decode(doc)).error.message);
        assert.strictEqual(bsonToJSON(doc, { mode: 'json', validation: { utf8: false } }), '{"s":"a\ufffdb"}');
    });

    it('writes doubles as the engine does: 20,000 of every magnitude and length of digits, alone and in arrays', function () {
        const rnd = F.inputRandom(7, 0);
        const gens = [() => rnd.next() * 360 - 180, () => rnd.next(), () => (rnd.next() - 0.5) * 10 ** (rnd.next() * 40 - 20),
            () => Math.round(rnd.next() * 1e6) / 1e3, () => rnd.next() * 1e15, () => 1 / (1 + rnd.next() * 1000)];
        for (let i = 0; i < 20000; i++) {
            const x = gens[i % gens.length]();
            const bytes = qbson.encode({ a: x, b: [x, -x], c: new qbson.Double(x) });
            assert.strictEqual(bsonToJSON(bytes, { mode: 'json' }), JSON.stringify(qbson.decode(bytes)), String(x));
            assert.strictEqual(bsonToJSON(bytes, { mode: 'canonical' }), expectedText(bytes, 'canonical', {}), String(x));
        }
    });

    it('escapes as JSON.stringify does, U+2028 and U+2029 left as they are', function () {
        const s = 'q"b\\c\n\t\u0001\u001f\u007f\u2028\u2029';
        assert.strictEqual(bsonToJSON(qbson.encode({ s }), { mode: 'json' }), JSON.stringify({ s }));
    });
});

describe('bsonToJSON: errors, nesting and options', function () {
    it('bytes that are no document: decode\'s error and offset', function () {
        for (const hex of ['', '05000000', '0600000000', '0c000000106100010000', '0d0000000261000500000061620000']) {
            const bytes = Buffer.from(hex, 'hex');
            const expected = outcome(() => qbson.decode(bytes)).error;
            assert.ok(expected instanceof BSONError, hex);
            for (const mode of MODES) assertAgrees(bytes, mode, {}, `${mode} ${hex}`);
        }
    });

    it('nesting to maxDepth is written; one level deeper is ERR_BSON_TOO_DEEP, as in decode', function () {
        const fine = F.nestedBytes(DEFAULT_MAX_DEPTH);
        assert.strictEqual(bsonToJSON(fine, { mode: 'json' }), JSON.stringify(qbson.decode(fine)));
        for (const bytes of [F.nestedBytes(DEFAULT_MAX_DEPTH + 1), F.nestedBytes(DEFAULT_MAX_DEPTH + 1, true), F.nestedBytes(3000)]) {
            const err = outcome(() => bsonToJSON(bytes)).error;
            assert.strictEqual(err.code, 'ERR_BSON_TOO_DEEP');
            assert.strictEqual(err.offset, outcome(() => qbson.decode(bytes)).error.offset);
        }
        assert.strictEqual(outcome(() => bsonToJSON(F.nestedBytes(4), { maxDepth: 3 })).error.code, 'ERR_BSON_TOO_DEEP');
        assert.strictEqual(bsonToJSON(F.nestedBytes(3), { maxDepth: 3, mode: 'json' }), '{"a":{"a":{"a":{}}}}');
    });

    it('nesting beyond the call stack under a raised maxDepth: a BSONError, never a RangeError', function () {
        const bytes = F.nestedBytes(200000);
        const result = outcome(() => bsonToJSON(bytes, { maxDepth: 1e6 }));
        if (result.error !== undefined) {
            assert.ok(result.error instanceof BSONError, String(result.error));
            assert.strictEqual(result.error.code, 'ERR_BSON_TOO_DEEP');
        }
    });

    it('bad options and inputs are named', function () {
        const bytes = qbson.encode({ a: 1 });
        assert.throws(() => bsonToJSON(bytes, { mode: 'ejson' }), /option mode must be 'relaxed', 'canonical' or 'json', not 'ejson'/);
        assert.throws(() => bsonToJSON(bytes, { many: true }), /option many must be 'array' or 'lines', not true/);
        assert.throws(() => bsonToJSON(bytes, { output: 'buffer' }), /option output must be 'string' or 'bytes', not 'buffer'/);
        assert.throws(() => bsonToJSON(bytes, { maxDepth: 0 }), /option maxDepth must be a positive integer/);
        assert.throws(() => bsonToJSON('{}'), /bsonToJSON needs a Buffer or Uint8Array, or with many an array of them, not string/);
        assert.throws(() => bsonToJSON([bytes, 7]), BSONError);
    });

    it('options inherited from Object.prototype are not read', function () {
        const bytes = qbson.encode({ a: 1 });
        Object.prototype.mode = 'json';
        try {
            assert.strictEqual(bsonToJSON(bytes, {}), '{"a":1}');
            assert.strictEqual(bsonToJSON(bytes, { mode: 'canonical' }), '{"a":{"$numberInt":"1"}}');
        } finally {
            delete Object.prototype.mode;
        }
    });
});
