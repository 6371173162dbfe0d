'use strict';

// Extended JSON.
//  corpus:   the spec corpus as data, one test per case and assertion (bson-corpus.md,
//            "codec with a language-native representation"): cB -> cEJ, cEJ -> cB,
//            cEJ -> native -> cEJ, cB -> rEJ, rEJ -> native -> rEJ, dB -> cEJ,
//            dEJ -> native -> cEJ, dEJ -> cB, the converted_* pair of deprecated
//            types, and every parseErrors case a BSONError from EJSON.parse.
//  property: seeded random documents stringified identically to bson@7's EJSON,
//            built with bson's classes and with qbson's; bson's output parsed to
//            the same values bson parses it to.
//  examples: the API's argument handling, options, legacy forms and errors, and
//            each place qbson departs from bson@7 on purpose.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');
const { EJSON_SKIPS: SKIPS } = require('./support/corpus-skips');
const { loadCorpus } = require('./support/corpus');
const { ejsonAssertions, parseErrorText, PARSE_LOSSLESS, CANONICAL, RELAXED } = require('./support/ejson-assertions');

const { EJSON, BSONError } = qbson;

// the native form that keeps every BSON type, deprecated ones included
const DECODE_LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };

const BSON_DECODE = { promoteValues: false, bsonRegExp: true };

function decodeHex(hex) {
    return qbson.decode(Buffer.from(hex, 'hex'), DECODE_LOSSLESS);
}

function encodeHex(value) {
    return qbson.encode(value).toString('hex');
}

// The same JSON value: equal after parsing (-0 apart from 0), keys in the same order.
function assertSameJSON(actualText, expectedText) {
    const actual = JSON.parse(actualText);
    const expected = JSON.parse(expectedText);
    assert.deepStrictEqual(actual, expected);
    assert.strictEqual(JSON.stringify(actual), JSON.stringify(expected), 'key order differs');
}

function assertBSONError(fn, pattern, message) {
    assert.throws(fn, (err) => {
        assert.ok(err instanceof BSONError, `expected a BSONError, got ${err && err.stack}`);
        if (pattern) assert.match(err.message, pattern);
        return true;
    }, message);
}

// The spec's assertions that apply to one valid case, as [name, check].
function validAssertions(c) {
    const sameHex = (actual, expected) => assert.strictEqual(actual, expected);
    return ejsonAssertions(c, { EJSON, decodeHex, encodeHex, sameJSON: assertSameJSON, sameHex });
}

// For a skipped assertion: the same conversion gives bson@7's text.
function matchesBSON(name, c) {
    const cB = Buffer.from(c.canonical_bson, 'hex');
    const pairs = {
        'cB -> cEJ': () => [EJSON.stringify(decodeHex(c.canonical_bson), CANONICAL), bson.EJSON.stringify(bson.deserialize(cB, BSON_DECODE), CANONICAL)],
        'cB -> rEJ': () => [EJSON.stringify(decodeHex(c.canonical_bson), RELAXED), bson.EJSON.stringify(bson.deserialize(cB, BSON_DECODE), RELAXED)],
        'cEJ -> native -> cEJ': () => [
            EJSON.stringify(EJSON.parse(c.canonical_extjson, PARSE_LOSSLESS), CANONICAL),
            bson.EJSON.stringify(bson.EJSON.parse(c.canonical_extjson, CANONICAL), CANONICAL),
        ],
        'rEJ -> native -> rEJ': () => [
            EJSON.stringify(EJSON.parse(c.relaxed_extjson, PARSE_LOSSLESS), RELAXED),
            bson.EJSON.stringify(bson.EJSON.parse(c.relaxed_extjson, CANONICAL), RELAXED),
        ],
    };
    return function () {
        const [ours, theirs] = pairs[name]();
        assert.strictEqual(ours, theirs);
    };
}

describe('EJSON: spec corpus', function () {
    for (const suite of loadCorpus()) {
        describe(`${suite.file}: ${suite.description}`, function () {
            for (const c of suite.valid || []) {
                for (const [name, check] of validAssertions(c)) {
                    const reason = SKIPS[`${suite.file}: ${c.description}: ${name}`];
                    if (reason) {
                        it.skip(`${c.description}: ${name} (skipped: ${reason})`, function () {});
                        it(`${c.description}: ${name}: gives bson@7's text instead`, matchesBSON(name, c));
                    } else {
                        it(`${c.description}: ${name}`, check);
                    }
                }
            }

            for (const c of suite.parseErrors || []) {
                it(`parse error: ${c.description}: ${JSON.stringify(c.string)}`, function () {
                    const text = parseErrorText(suite, c);
                    // well-formed JSON, so the error is Extended JSON's
                    JSON.parse(text);
                    assertBSONError(() => EJSON.parse(text));
                    assertBSONError(() => EJSON.parse(text, CANONICAL));
                });
            }
        });
    }
});

// ---------------------------------------------------------------------------
// Property tests against bson@7

const SEED = 42;
const RUNS = 2000;
const STRINGIFY_OPTIONS = [
    {},
    { relaxed: false },
    { relaxed: false, ignoreUndefined: true },
    { legacy: true },
    { legacy: true, relaxed: false },
];
// not { relaxed: false, useBigInt64: true }: bson then fails on its own $timestamp with t or i of 2^31 or more
const PARSE_OPTIONS = [{}, { relaxed: false }];

// Generated values are builders, lib => value, so one document can be made with
// bson's classes and again with qbson's.
function plain(arb) {
    return arb.map((v) => () => v);
}

const key = fc.oneof(
    fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0000')),
    fc.constantFrom('_id', 'a', '$ref', '$id', '$db', '$key', '__proto__', 'toString', 'é', '0', '12')
);
const plainKey = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('x', 'é')).filter(
    (s) => !s.includes('\u0000') && !s.startsWith('$')
);
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }));
const cleanText = text.filter((s) => !s.includes('\u0000'));
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const uint32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const bytes = fc.uint8Array({ maxLength: 24 });
const regexpOptions = fc.shuffledSubarray(['i', 'l', 'm', 's', 'u', 'x']).map((o) => o.join(''));
const binarySubtype = fc.constantFrom(0, 1, 2, 3, 5, 6, 7, 8, 9, 0x80, 0xff);

const leaf = fc.oneof(
    plain(int32),
    plain(fc.double()),
    plain(fc.constantFrom(0, -0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e21, 0.1, -1.5e-7)),
    plain(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n })),
    plain(text),
    plain(fc.boolean()),
    plain(fc.constantFrom(null, undefined)),
    fc.date({ noInvalidDate: false }).map((d) => () => new Date(d.getTime())),
    fc.constantFrom(0, -1, 1356351330501, 253402300799999, 253402300800000, -62198755200000).map((t) => () => new Date(t)),
    fc.tuple(fc.constantFrom('ab+c', '^\\d$', 'é', 'a/b', ''), fc.shuffledSubarray(['i', 'm', 's', 'u', 'g', 'y'])).map(
        ([source, flags]) => () => new RegExp(source, flags.join(''))
    ),
    bytes.map((b) => () => Buffer.from(b)),
    bytes.map((b) => () => new Uint8Array(b)),
    fc.constantFrom(
        () => new String('ab'),
        () => function f() {},
        () => Symbol.for('s')
    ),
    fc.uint8Array({ minLength: 12, maxLength: 12 }).map((b) => (L) => new L.ObjectId(Buffer.from(b))),
    int32.map((n) => (L) => new L.Int32(n)),
    fc.double().map((n) => (L) => new L.Double(n)),
    fc.tuple(int32, int32, fc.boolean()).map(([low, high, unsigned]) => (L) => L.Long.fromBits(low, high, unsigned)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => (L) => new L.Decimal128(Buffer.from(b))),
    fc.constantFrom('0', '-0', '1.5E+3', 'NaN', '-Infinity', '1E-6176', '9.999999999999999999999999999999999E+6144').map(
        (s) => (L) => L.Decimal128.fromString(s)
    ),
    fc.tuple(bytes, binarySubtype).map(([b, t]) => (L) => new L.Binary(Buffer.from(b), t)),
    fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => (L) => new L.UUID(Buffer.from(b))),
    fc.tuple(uint32, uint32).map(([t, i]) => (L) => new L.Timestamp({ t, i })),
    text.map((s) => (L) => new L.Code(s)),
    text.map((s) => (L) => new L.BSONSymbol(s)),
    fc.tuple(cleanText, regexpOptions).map(([p, o]) => (L) => new L.BSONRegExp(p, o)),
    fc.constant((L) => new L.MinKey()),
    fc.constant((L) => new L.MaxKey())
);

function buildObject(entries, L) {
    const out = {};
    for (const [k, f] of entries) Object.defineProperty(out, k, { value: f(L), enumerable: true, writable: true, configurable: true });
    return out;
}

// a root is a document; anything may sit inside it
const { doc: rootArb } = fc.letrec((tie) => ({
    value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        leaf,
        leaf,
        tie('array'),
        tie('doc'),
        tie('map'),
        tie('code'),
        tie('dbref')
    ),
    array: fc.array(tie('value'), { maxLength: 5 }).map((items) => (L) => items.map((f) => f(L))),
    entries: fc.uniqueArray(fc.tuple(key, tie('value')), { maxLength: 5, selector: ([k]) => k }),
    doc: tie('entries').map((entries) => (L) => buildObject(entries, L)),
    map: tie('entries').map((entries) => (L) => new Map(entries.map(([k, f]) => [k, f(L)]))),
    // a scope is a document; $-keys in it would make bson's parser take it for a wrapper
    code: fc
        .tuple(text, fc.uniqueArray(fc.tuple(plainKey, tie('value')), { maxLength: 4, selector: ([k]) => k }))
        .map(([code, entries]) => (L) => new L.Code(code, buildObject(entries, L))),
    // bson copies fields with Object.assign, which turns a __proto__ field into the prototype (qbson keeps it)
    fieldEntries: fc.uniqueArray(fc.tuple(key.filter((k) => k !== '__proto__'), tie('value')), { maxLength: 4, selector: ([k]) => k }),
    dbref: fc
        .tuple(fc.constantFrom('coll', 'db.coll', 'a.b.c', ''), leaf, fc.option(fc.constantFrom('db', ''), { nil: undefined }), tie('fieldEntries'))
        .map(([coll, id, db, fields]) => (L) => new L.DBRef(coll, id(L), db, buildObject(fields, L))),
}));

// qbson's stringify of `ours` equals bson's of `theirs`. Where bson throws, qbson throws a
// BSONError, or the same TypeError from JSON.stringify (a bigint in a DBRef bson copies unconverted).
function assertStringifiesLikeBSON(ours, theirs, options) {
    let expected;
    try {
        expected = bson.EJSON.stringify(theirs, options);
    } catch (theirError) {
        assert.throws(() => EJSON.stringify(ours, options), (err) => {
            const same = theirError instanceof TypeError ? err instanceof TypeError && err.message === theirError.message : err instanceof BSONError;
            assert.ok(same, `bson threw ${theirError}, qbson threw ${err && err.stack}`);
            return true;
        });
        return;
    }
    assert.strictEqual(EJSON.stringify(ours, options), expected);
}

function hasInt64OutOfRange(textIn) {
    for (const m of textIn.matchAll(/"\$numberLong":"(-?[0-9]+)"/g)) {
        const n = BigInt(m[1]);
        if (n >= 2n ** 63n || n < -(2n ** 63n)) return true;
    }
    return false;
}

function parseOrBSONError(textIn, options) {
    try {
        EJSON.parse(textIn, options);
    } catch (err) {
        assert.ok(err instanceof BSONError, `expected a value or a BSONError, got ${err && err.stack}`);
    }
}

describe('EJSON: property tests against bson@7', function () {
    it(`stringifies ${RUNS} documents of bson's classes as bson does, in each mode`, function () {
        fc.assert(
            fc.property(rootArb, (build) => {
                for (const options of STRINGIFY_OPTIONS) {
                    assertStringifiesLikeBSON(build(bson), build(bson), options);
                }
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });

    it(`stringifies ${RUNS} documents of qbson's classes as bson does the same documents of its own`, function () {
        fc.assert(
            fc.property(rootArb, (build) => {
                for (const options of STRINGIFY_OPTIONS) {
                    assertStringifiesLikeBSON(build(qbson), build(bson), options);
                }
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });

    it(`parses bson's Extended JSON of ${RUNS} documents to the values bson parses it to`, function () {
        fc.assert(
            fc.property(rootArb, fc.constantFrom({}, { relaxed: false }), (build, stringifyOptions) => {
                let textOut;
                try {
                    textOut = bson.EJSON.stringify(build(bson), stringifyOptions);
                } catch (err) {
                    return;
                }
                if (hasInt64OutOfRange(textOut)) {
                    // bson writes the number ±2^63 as $numberLong "±9223372036854776000", beyond int64;
                    // its parser wraps that to another number, qbson's refuses it
                    for (const options of PARSE_OPTIONS) assertBSONError(() => EJSON.parse(textOut, options), /64-bit integer range/);
                    return;
                }
                for (const options of PARSE_OPTIONS) {
                    let expected;
                    try {
                        expected = bson.EJSON.parse(textOut, options);
                    } catch (err) {
                        if (err instanceof bson.BSONError) {
                            assertBSONError(() => EJSON.parse(textOut, options), undefined, `bson refused ${textOut}: ${err}`);
                        } else {
                            // bson crashed (a DBRef with $ref "" trips its $dbPointer check): qbson must not
                            parseOrBSONError(textOut, options);
                        }
                        continue;
                    }
                    assert.deepStrictEqual(normalize(EJSON.parse(textOut, options)), normalize(expected));
                }
            }),
            { seed: SEED, numRuns: RUNS }
        );
    });
});

// ---------------------------------------------------------------------------
// Examples

const OID = '0123456789abcdef01234567';

describe('EJSON.stringify', function () {
    it('takes options in the replacer or the space position, as bson does', function () {
        const doc = { a: 1 };
        const canonical = '{"a":{"$numberInt":"1"}}';
        assert.strictEqual(EJSON.stringify(doc, { relaxed: false }), canonical);
        assert.strictEqual(EJSON.stringify(doc, null, { relaxed: false }), canonical);
        assert.strictEqual(EJSON.stringify(doc, null, null, { relaxed: false }), canonical);
        assert.strictEqual(EJSON.stringify(doc, { relaxed: false }, 2), JSON.stringify(JSON.parse(canonical), null, 2));
        assert.strictEqual(EJSON.stringify(doc, null, 2, { relaxed: false }), JSON.stringify(JSON.parse(canonical), null, 2));
        assert.strictEqual(EJSON.stringify({ a: 1, b: 2 }, ['a']), '{"a":1}');
        assert.strictEqual(EJSON.stringify({ a: 1, b: 2 }, (k, v) => (k === 'b' ? undefined : v), { relaxed: false }), canonical);
    });

    it('is relaxed by default, and canonical when relaxed is given as any falsy value', function () {
        assert.strictEqual(EJSON.stringify({ a: 1 }), '{"a":1}');
        assert.strictEqual(EJSON.stringify({ a: 1 }, { relaxed: undefined }), '{"a":{"$numberInt":"1"}}');
    });

    it('writes numbers as the smallest BSON type holding them, in canonical mode', function () {
        const doc = { i: 42, l: 2 ** 40, d: 1.5, z: -0, e: 1e21, inf: -Infinity, nan: NaN };
        assert.strictEqual(
            EJSON.stringify(doc, CANONICAL),
            '{"i":{"$numberInt":"42"},"l":{"$numberLong":"1099511627776"},"d":{"$numberDouble":"1.5"},' +
                '"z":{"$numberDouble":"-0.0"},"e":{"$numberDouble":"1e+21"},"inf":{"$numberDouble":"-Infinity"},' +
                '"nan":{"$numberDouble":"NaN"}}'
        );
        assert.strictEqual(EJSON.stringify({ x: Infinity, y: 2.5 }), '{"x":{"$numberDouble":"Infinity"},"y":2.5}');
    });

    it('writes a bigint as its low 64 bits', function () {
        assert.strictEqual(EJSON.stringify({ n: 2n ** 64n + 5n }, CANONICAL), '{"n":{"$numberLong":"5"}}');
        assert.strictEqual(EJSON.stringify({ n: -(2n ** 63n) }), '{"n":-9223372036854776000}');
    });

    it('writes each type class, qbson\'s and bson\'s alike', function () {
        for (const L of [qbson, bson]) {
            const doc = {
                oid: new L.ObjectId(OID),
                i: new L.Int32(7),
                l: L.Long.fromString('-5'),
                d: new L.Double(2),
                dec: L.Decimal128.fromString('1.50'),
                bin: new L.Binary(Buffer.from([1, 2, 3]), 0x80),
                uuid: new L.UUID('73ffd264-44b3-4c69-90e8-e7d1dfc035d4'),
                ts: new L.Timestamp({ t: 1, i: 2 }),
                code: new L.Code('f()', { x: 1 }),
                re: new L.BSONRegExp('a+', 'mi'),
                sym: new L.BSONSymbol('s'),
                ref: new L.DBRef('c', new L.ObjectId(OID), 'db', { extra: true }),
                min: new L.MinKey(),
                max: new L.MaxKey(),
            };
            assert.deepStrictEqual(EJSON.serialize(doc, CANONICAL), {
                oid: { $oid: OID },
                i: { $numberInt: '7' },
                l: { $numberLong: '-5' },
                d: { $numberDouble: '2.0' },
                dec: { $numberDecimal: '1.50' },
                bin: { $binary: { base64: 'AQID', subType: '80' } },
                uuid: { $binary: { base64: 'c//SZESzTGmQ6OfR38A11A==', subType: '04' } },
                ts: { $timestamp: { t: 1, i: 2 } },
                code: { $code: 'f()', $scope: { x: { $numberInt: '1' } } },
                re: { $regularExpression: { pattern: 'a+', options: 'im' } },
                sym: { $symbol: 's' },
                ref: { $ref: 'c', $id: { $oid: OID }, $db: 'db', extra: true },
                min: { $minKey: 1 },
                max: { $maxKey: 1 },
            });
        }
    });

    it('writes qbson\'s deprecated types in their Extended JSON forms', function () {
        const doc = { p: new qbson.DBPointer('db.c', new qbson.ObjectId(OID)), u: new qbson.BSONUndefined() };
        assert.strictEqual(EJSON.stringify(doc), `{"p":{"$dbPointer":{"$ref":"db.c","$id":{"$oid":"${OID}"}}},"u":{"$undefined":true}}`);
    });

    it('writes dates as ISO strings in relaxed mode only for years 1970 to 9999', function () {
        const doc = { a: new Date(1356351330501), b: new Date(0), c: new Date(-1), d: new Date(253402300800000) };
        assert.strictEqual(
            EJSON.stringify(doc),
            '{"a":{"$date":"2012-12-24T12:15:30.501Z"},"b":{"$date":"1970-01-01T00:00:00Z"},' +
                '"c":{"$date":{"$numberLong":"-1"}},"d":{"$date":{"$numberLong":"253402300800000"}}}'
        );
        assert.strictEqual(EJSON.stringify({ b: new Date(0) }, CANONICAL), '{"b":{"$date":{"$numberLong":"0"}}}');
    });

    it('writes legacy (v1) forms with the legacy option', function () {
        const doc = {
            date: new Date(5),
            bin: new qbson.Binary(Buffer.from([255]), 2),
            re: /a/i,
            ref: new qbson.DBRef('c', new qbson.ObjectId(OID), 'db', { x: 1 }),
            i: new qbson.Int32(3),
        };
        assert.strictEqual(
            EJSON.stringify(doc, { legacy: true }),
            `{"date":{"$date":5},"bin":{"$binary":"/w==","$type":"02"},"re":{"$regex":"a","$options":"i"},` +
                `"ref":{"$ref":"c","$id":{"$oid":"${OID}"}},"i":3}`
        );
        assert.strictEqual(EJSON.stringify({ date: new Date(5) }, { legacy: true, relaxed: false }), '{"date":{"$date":"1970-01-01T00:00:00.005Z"}}');
    });

    it('writes only the bytes a Binary holds, not the spare room put() leaves', function () {
        const b = new qbson.Binary();
        b.put(1);
        b.put(2);
        assert.strictEqual(EJSON.stringify({ b }), '{"b":{"$binary":{"base64":"AQI=","subType":"00"}}}');
    });

    it('turns a Map with string keys into a document', function () {
        const doc = new Map([['a', 1], ['b', new Map([['c', new qbson.Int32(2)]])]]);
        assert.strictEqual(EJSON.stringify(doc, CANONICAL), '{"a":{"$numberInt":"1"},"b":{"c":{"$numberInt":"2"}}}');
        assertBSONError(() => EJSON.stringify({ m: new Map([[1, 1]]) }), /Map key must be a string.*'m'/);
    });

    it('writes undefined as null, or leaves it out with ignoreUndefined', function () {
        assert.strictEqual(EJSON.stringify({ a: undefined, b: [undefined] }), '{"a":null,"b":[null]}');
        assert.strictEqual(EJSON.stringify({ a: undefined, b: [undefined] }, { ignoreUndefined: true }), '{"b":[null]}');
    });

    it('keeps __proto__ as an own key', function () {
        const doc = JSON.parse('{"__proto__": {"x": 1}}');
        assert.strictEqual(EJSON.stringify(doc, CANONICAL), '{"__proto__":{"x":{"$numberInt":"1"}}}');
    });

    it('writes documents of more than 16 keys as bson does, __proto__ and key order included', function () {
        // past 16 keys the wrapper objects are WideObjects (lib/wide-object.js)
        for (const count of [16, 17, 40, 300]) {
            const pairs = Array.from({ length: count }, (_, i) => `"k${i}": ${i % 2 ? i : `"s${i}"`}`);
            pairs[count > 20 ? 20 : 2] = '"__proto__": {"x": 1}';
            pairs.push('"7": 1.5');
            const doc = JSON.parse(`{${pairs.join(',')}}`);
            assert.strictEqual(EJSON.stringify(doc, CANONICAL), bson.EJSON.stringify(doc, CANONICAL));
            const tree = EJSON.serialize(doc, CANONICAL);
            assert.strictEqual(Object.getPrototypeOf(tree), Object.prototype);
            assert.deepStrictEqual(Object.keys(tree), Object.keys(doc));
            assert.ok(Object.prototype.hasOwnProperty.call(tree, '__proto__'));
        }
    });

    it('refuses an object with a _bsontype that is not a BSON 7 type instance, naming its path', function () {
        assertBSONError(() => EJSON.stringify({ a: { b: { _bsontype: 'ObjectId', id: 'x' } } }), /not a BSON 7\.x type instance at key path 'a\.b'/);
        assertBSONError(() => EJSON.stringify({ a: { _bsontype: 5 } }), /_bsontype must be a string/);
        const unknown = { _bsontype: 'Nothing', [Symbol.for('@@mdb.bson.version')]: 7 };
        assertBSONError(() => EJSON.stringify({ a: unknown }), /Unrecognized or invalid _bsontype: Nothing/);
        assertBSONError(() => EJSON.stringify({ a: { _bsontype: 'toString', [Symbol.for('@@mdb.bson.version')]: 7 } }), /Unrecognized or invalid _bsontype: toString/);
    });

    it('refuses a cycle, naming where it closes', function () {
        const doc = { a: { b: {} } };
        doc.a.b.c = doc.a;
        assertBSONError(() => EJSON.stringify(doc), /circular structure.*'a\.b\.c'.*'a'/);
        const list = [];
        list.push({ list });
        assertBSONError(() => EJSON.stringify({ list }), /circular structure.*'list\.0\.list'/);
        // the same object twice, side by side, is no cycle
        const shared = { x: 1 };
        assert.strictEqual(EJSON.stringify({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
    });

    it('refuses regular expression flags BSON does not have, and an invalid vector', function () {
        assertBSONError(() => EJSON.stringify({ r: /a/g }), /flag 'g'.*'r'/);
        assertBSONError(() => EJSON.stringify({ v: new qbson.Binary(Buffer.from([0x27, 1]), 9) }), /Vector/);
    });
});

describe('EJSON.parse', function () {
    it('is relaxed by default: JSON numbers and number wrappers become numbers', function () {
        const doc = EJSON.parse('{"a": 1, "b": {"$numberInt": "2"}, "c": {"$numberLong": "3"}, "d": {"$numberDouble": "4.5"}}');
        assert.deepStrictEqual(doc, { a: 1, b: 2, c: 3, d: 4.5 });
    });

    it('gives BSON number types in canonical mode, bigints with useBigInt64', function () {
        const text = '{"a": 1, "b": 3000000000, "c": 1.5, "d": {"$numberLong": "-7"}}';
        assert.deepStrictEqual(normalize(EJSON.parse(text, CANONICAL)), normalize({
            a: new qbson.Int32(1),
            b: qbson.Long.fromNumber(3000000000),
            c: new qbson.Double(1.5),
            d: qbson.Long.fromNumber(-7),
        }));
        assert.deepStrictEqual(EJSON.parse(text, { relaxed: false, useBigInt64: true }).b, 3000000000n);
        assert.strictEqual(EJSON.parse('{"d": {"$numberLong": "-7"}}', { useBigInt64: true }).d, -7n);
    });

    it('gives qbson\'s classes', function () {
        const doc = EJSON.parse(
            `{"o": {"$oid": "${OID}"}, "u": {"$uuid": "73ffd26444b34c6990e8e7d1dfc035d4"}, "r": {"$regex": "a", "$options": "mi"},` +
                ` "t": {"$timestamp": {"t": 1, "i": 2}}, "m": {"$minKey": 1}, "ref": {"$ref": "c", "$id": 1}}`
        );
        assert.ok(doc.o instanceof qbson.ObjectId);
        assert.ok(doc.u instanceof qbson.UUID);
        assert.ok(doc.r instanceof qbson.BSONRegExp);
        assert.strictEqual(doc.r.options, 'im');
        assert.ok(doc.t instanceof qbson.Timestamp);
        assert.ok(doc.m instanceof qbson.MinKey);
        assert.ok(doc.ref instanceof qbson.DBRef);
    });

    it('reads the date forms: {$numberLong}, ISO string, and milliseconds with the legacy option', function () {
        assert.strictEqual(EJSON.parse('{"d": {"$date": {"$numberLong": "-5"}}}').d.getTime(), -5);
        assert.strictEqual(EJSON.parse('{"d": {"$date": "2012-12-24T12:15:30.501Z"}}').d.getTime(), 1356351330501);
        assert.strictEqual(EJSON.parse('{"d": {"$date": 42}}', { legacy: true }).d.getTime(), 42);
        assertBSONError(() => EJSON.parse('{"d": {"$date": 42}}'), /\$date must be an ISO-8601 string.*'d'/);
        assertBSONError(() => EJSON.parse('{"d": {"$date": "soon"}}'), /not an ISO-8601 date/);
        assertBSONError(() => EJSON.parse('{"d": {"$date": {"$numberLong": "9000000000000000"}}}'), /range of a JavaScript Date/);
    });

    it('reads the legacy $binary form only with the legacy option, as bson does', function () {
        const text = '{"b": {"$binary": "AQI=", "$type": "80"}}';
        const b = EJSON.parse(text, { legacy: true }).b;
        assert.ok(b instanceof qbson.Binary);
        assert.strictEqual(b.sub_type, 0x80);
        assert.deepStrictEqual([...b.buffer], [1, 2]);
        assertBSONError(() => EJSON.parse(text), /legacy form/);
    });

    it('gives bson\'s values for deprecated types, or qbson\'s with preserveDeprecated', function () {
        const text = `{"p": {"$dbPointer": {"$ref": "db.c", "$id": {"$oid": "${OID}"}}}, "u": {"$undefined": true}, "s": {"$symbol": "x"}}`;
        const converted = EJSON.parse(text);
        assert.ok(converted.p instanceof qbson.DBRef);
        assert.strictEqual(converted.p.collection, 'c');
        assert.strictEqual(converted.p.db, 'db');
        assert.strictEqual(converted.u, null);
        assert.ok(converted.s instanceof qbson.BSONSymbol);
        const kept = EJSON.parse(text, { preserveDeprecated: true });
        assert.ok(kept.p instanceof qbson.DBPointer);
        assert.strictEqual(kept.p.namespace, 'db.c');
        assert.ok(kept.u instanceof qbson.BSONUndefined);
    });

    it('leaves query operators and unknown $-keys as documents', function () {
        const doc = EJSON.parse('{"a": {"$type": "string"}, "b": {"$regex": {"$regularExpression": {"pattern": "x", "options": ""}}, "$options": "i"}, "c": {"$gt": 1}}');
        assert.deepStrictEqual(doc.a, { $type: 'string' });
        assert.ok(doc.b.$regex instanceof qbson.BSONRegExp);
        assert.strictEqual(doc.b.$options, 'i');
        assert.deepStrictEqual(doc.c, { $gt: 1 });
    });

    it('leaves a document resembling a DBRef alone unless it follows the convention', function () {
        const notRef = EJSON.parse('{"a": {"$ref": "c", "$id": 1, "$x": 2}, "b": {"$ref": "c"}}');
        assert.deepStrictEqual(notRef, { a: { $ref: 'c', $id: 1, $x: 2 }, b: { $ref: 'c' } });
        const ref = EJSON.parse('{"r": {"$ref": "c", "$id": 1, "x": {"$numberInt": "2"}, "__proto__": 3}}').r;
        assert.ok(ref instanceof qbson.DBRef);
        assert.deepStrictEqual(Object.keys(ref.fields), ['x', '__proto__']);
    });

    it('refuses malformed wrappers with a BSONError naming the key path', function () {
        const cases = [
            ['{"a": {"b": [0, {"$oid": "xyz"}]}}', /\$oid must be 24 hexadecimal digits.*'a\.b\.1'/],
            ['{"a": {"$numberInt": "2147483648"}}', /not a 32-bit integer/],
            ['{"a": {"$numberLong": "9223372036854775808"}}', /outside the 64-bit integer range/],
            ['{"a": {"$numberLong": "007"}}', /not a decimal 64-bit integer/],
            ['{"a": {"$numberDouble": "1.5abc"}}', /not a number/],
            ['{"a": {"$numberDecimal": "1..2"}}', /not a Decimal128 value/],
            ['{"a": {"$binary": {"base64": "!!", "subType": "00"}}}', /not base64/],
            ['{"a": {"$timestamp": {"t": -1, "i": 0}}}', /t must be an integer from 0/],
            ['{"a": {"$timestamp": {"t": 1.5, "i": 0}}}', /t must be an integer from 0/],
            ['{"a": {"$regularExpression": {"pattern": "a", "options": "g"}}}', /option 'g'/],
            ['{"a": {"$undefined": false}}', /\$undefined must be true/],
            ['{"a": {"$oid": "' + OID + '", "$symbol": "x"}}', /both \$oid and \$symbol/],
            ['{"a": {"$code": "x", "$scope": []}}', /\$scope must be a document/],
            ['{"a": {"$dbPointer": {"$ref": "b", "$id": "' + OID + '"}}}', /\$dbPointer \$id/],
            ['{"a": {"b\\u0000": 1}}', /null bytes.*'a'/],
        ];
        for (const [text, pattern] of cases) assertBSONError(() => EJSON.parse(text), pattern);
    });

    it('leaves JSON syntax errors to JSON.parse, as bson does', function () {
        assert.throws(() => EJSON.parse('{"a": '), SyntaxError);
    });
});

describe('EJSON: where qbson departs from bson@7', function () {
    it('refuses a numeric $date unless legacy is set (the spec corpus\'s "Bad $date"; bson reads it in relaxed mode)', function () {
        assert.strictEqual(bson.EJSON.parse('{"d": {"$date": 42}}').d.getTime(), 42);
        assertBSONError(() => EJSON.parse('{"d": {"$date": 42}}'), /\$date/);
        assert.strictEqual(EJSON.parse('{"d": {"$date": 42}}', { legacy: true }).d.getTime(), 42);
    });

    it('refuses numbers outside their type\'s range, which bson wraps', function () {
        assert.strictEqual(bson.EJSON.parse('{"a": {"$numberLong": "9223372036854775808"}}', CANONICAL).a.toString(), '-9223372036854775808');
        assertBSONError(() => EJSON.parse('{"a": {"$numberLong": "9223372036854775808"}}', CANONICAL), /64-bit integer range/);
        assertBSONError(() => EJSON.parse('{"a": {"$timestamp": {"t": 4294967296, "i": 0}}}', CANONICAL), /\$timestamp t/);
    });

    it('reads a $timestamp with useBigInt64 in canonical mode, where bson fails for t or i of 2^31 or more', function () {
        const text = '{"t": {"$timestamp": {"t": 4294967295, "i": 2147483648}}}';
        assert.throws(() => bson.EJSON.parse(text, { relaxed: false, useBigInt64: true }));
        const t = EJSON.parse(text, { relaxed: false, useBigInt64: true }).t;
        assert.ok(t instanceof qbson.Timestamp);
        assert.deepStrictEqual([t.t, t.i], [4294967295, 2147483648]);
    });

    it('reads a DBRef whose $ref is "", where bson throws a TypeError', function () {
        assert.throws(() => bson.EJSON.parse('{"r": {"$ref": "", "$id": 1}}'), TypeError);
        assert.ok(EJSON.parse('{"r": {"$ref": "", "$id": 1}}').r instanceof qbson.DBRef);
    });

    it('reads $binary subtype 04 of other than 16 bytes as a Binary, where bson throws', function () {
        const text = '{"b": {"$binary": {"base64": "AQI=", "subType": "04"}}}';
        assert.throws(() => bson.EJSON.parse(text));
        const b = EJSON.parse(text).b;
        assert.ok(b instanceof qbson.Binary && !(b instanceof qbson.UUID));
        assert.strictEqual(b.sub_type, 4);
    });

    it('keeps a __proto__ field of a DBRef, which bson\'s Object.assign turns into a prototype', function () {
        const fields = JSON.parse('{"__proto__": {"x": 1}}');
        const out = EJSON.stringify({ r: new qbson.DBRef('c', new qbson.ObjectId(OID), undefined, fields) });
        assert.strictEqual(out, `{"r":{"$ref":"c","$id":{"$oid":"${OID}"},"__proto__":{"x":1}}}`);
    });

    it('throws a BSONError for an invalid Date in legacy mode, where bson throws a RangeError', function () {
        assert.throws(() => bson.EJSON.stringify({ d: new Date(NaN) }, { legacy: true }), RangeError);
        assertBSONError(() => EJSON.stringify({ d: new Date(NaN) }, { legacy: true }), /invalid Date.*'d'/);
    });
});

describe('EJSON.serialize and EJSON.deserialize', function () {
    it('serialize gives the Extended JSON as an object tree', function () {
        const tree = EJSON.serialize({ a: new qbson.Int32(1), d: new Date(5) }, CANONICAL);
        assert.deepStrictEqual(tree, { a: { $numberInt: '1' }, d: { $date: { $numberLong: '5' } } });
        assert.deepStrictEqual(EJSON.serialize({ a: new qbson.Int32(1) }), { a: 1 });
    });

    it('deserialize reads an Extended JSON object tree without changing it', function () {
        const tree = { a: { $numberInt: '1' }, o: { $oid: OID } };
        const doc = EJSON.deserialize(tree, CANONICAL);
        assert.ok(doc.a instanceof qbson.Int32);
        assert.ok(doc.o instanceof qbson.ObjectId);
        assert.deepStrictEqual(tree, { a: { $numberInt: '1' }, o: { $oid: OID } });
    });

    it('EJSON is frozen', function () {
        assert.ok(Object.isFrozen(EJSON));
        assert.deepStrictEqual(Object.keys(EJSON).sort(), ['deserialize', 'parse', 'serialize', 'stringify']);
    });
});
