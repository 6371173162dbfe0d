'use strict';

// decode's values and reviver options. Every form the values option names is held
// to decode followed by a conversion written here, over generated documents of
// every type; the reviver is held to JSON.parse's on documents JSON can hold.

const assert = require('assert');
const fc = require('fast-check');
const bson = require('bson');
const qbson = require('..');
const { documentArbitraries } = require('./support/arbitraries');
const { run } = require('./support/run-async');

const RUNS = Number(process.env.QBSON_PROPERTY_RUNS) || 2000;
const SEED = Number(process.env.QBSON_PROPERTY_SEED) || 20261125;
const { Binary, UUID, ObjectId, Long, Decimal128, Timestamp, Code, DBRef, BSONRegExp } = qbson;

// every type and form the option takes
const FORMS = {
    objectId: ['hex', 'objectId'],
    date: ['iso', 'ms', 'date'],
    int64: ['number', 'bigint', 'string', 'long'],
    decimal128: ['string', 'number', 'decimal128'],
    binary: ['base64', 'hex', 'buffer', 'uint8array', 'binary'],
    uuid: ['string', 'hex', 'base64', 'buffer', 'uint8array', 'uuid'],
    timestamp: ['object', 'bigint', 'timestamp'],
    regex: ['string', 'regexp', 'bsonRegExp'],
};

function bytesIn(form, bytes) {
    const b = Buffer.from(bytes);
    switch (form) {
        case 'base64': return b.toString('base64');
        case 'hex': return b.toString('hex');
        case 'buffer': return b;
        case 'uint8array': return new Uint8Array(b);
        default: throw new Error(`no bytes form ${form}`);
    }
}

// One decoded leaf as the values option would have it, or `undefined` when the
// option leaves it alone; the reference the decoder is held to.
function convertLeaf(v, values) {
    if (v instanceof ObjectId) return values.objectId === 'hex' ? v.toHexString() : undefined;
    if (v instanceof Date) {
        if (values.date === 'iso') return v.toISOString();
        return values.date === 'ms' ? v.getTime() : undefined;
    }
    if (v instanceof Timestamp) {
        if (values.timestamp === undefined || values.timestamp === 'timestamp') return undefined;
        if (values.timestamp === 'object') return { t: v.t, i: v.i };
        return (BigInt(v.t) << 32n) + BigInt(v.i);
    }
    if (v instanceof Long && values.int64 !== undefined) {
        const n = BigInt(v.toString());
        if (values.int64 === 'number') return Number(n);
        if (values.int64 === 'string') return String(n);
        return values.int64 === 'long' ? v : n;
    }
    if (v instanceof Decimal128 && values.decimal128 !== undefined && values.decimal128 !== 'decimal128') {
        return values.decimal128 === 'string' ? v.toString() : Number(v.toString());
    }
    if (v instanceof UUID) {
        const form = values.uuid !== undefined ? values.uuid : values.binary;
        // binary: 'binary' is decode's own form, a UUID for subtype 4
        if (form === undefined || form === 'uuid' || form === 'binary') return undefined;
        return form === 'string' ? v.toHexString() : bytesIn(form, v.buffer);
    }
    if (v instanceof Binary) {
        if (values.binary === undefined || values.binary === 'binary') return undefined;
        return bytesIn(values.binary, v.buffer.subarray(0, v.position));
    }
    if (v instanceof BSONRegExp && values.regex === 'string') return `/${v.pattern}/${v.options}`;
    return undefined;
}

// decoded with every leaf converted, a new tree (Code scopes and DBRefs included)
function convert(v, values) {
    const leaf = convertLeaf(v, values);
    if (leaf !== undefined) return leaf;
    if (Array.isArray(v)) return v.map((x) => convert(x, values));
    if (v instanceof Code) return new Code(v.code, v.scope == null ? v.scope : convertFields(v.scope, values));
    if (v instanceof DBRef) return new DBRef(v.collection, convert(v.oid, values), v.db, convert(v.fields, values));
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return asDBRef(convertFields(v, values));
    return v;
}

function convertFields(v, values) {
    const out = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: convert(v[k], values), writable: true, enumerable: true, configurable: true });
    return out;
}

// A document is a DBRef by its values as converted: one whose $ref was a binary,
// now a base64 string, becomes one (decode's rule: $-keys only $ref, $id, $db;
// $ref a string, $id not null, $db a string if there)
const DBREF_KEYS = ['$ref', '$id', '$db'];
function asDBRef(doc) {
    const keys = Object.keys(doc);
    const dollar = keys.filter((k) => k.startsWith('$'));
    if (dollar.length === 0 || !dollar.every((k) => DBREF_KEYS.includes(k))) return doc;
    if (doc.$id == null || typeof doc.$ref !== 'string' || ('$db' in doc && typeof doc.$db !== 'string')) return doc;
    const fields = {};
    for (const k of keys) if (!DBREF_KEYS.includes(k)) Object.defineProperty(fields, k, { value: doc[k], writable: true, enumerable: true, configurable: true });
    return new DBRef(doc.$ref, doc.$id, doc.$db, fields);
}

// decode's own form of what the values option converts: every int64 a Long when
// it names int64, and BSONRegExp when it wants regexes as strings
function referenceDecode(bytes, values, base) {
    const opts = { ...base };
    if (values.int64 !== undefined) opts.promoteLongs = false;
    if (values.regex === 'string' || values.regex === 'bsonRegExp') opts.bsonRegExp = true;
    if (values.regex === 'regexp') opts.bsonRegExp = false;
    if (values.binary === 'binary') opts.promoteBuffers = false;
    // Binary must reach the conversion as Binary
    if (values.binary !== undefined || values.uuid !== undefined) opts.promoteBuffers = false;
    // with promoteBuffers, the binaries values leaves alone are Buffers
    const forms = { ...values };
    if (forms.binary === undefined && forms.uuid !== undefined && base.promoteBuffers && base.promoteValues !== false) forms.binary = 'buffer';
    return convert(qbson.decode(bytes, opts), forms);
}

const valuesArb = fc.record(Object.fromEntries(Object.entries(FORMS).map(([t, forms]) => [t, fc.constantFrom(...forms)])), { requiredKeys: [] });

// bson's bytes for a generated document, or null where bson refuses it
function encodable(doc) {
    try {
        return Buffer.from(bson.serialize(doc));
    } catch (err) {
        return null;
    }
}

describe('values option', function () {
    const { rootArb } = documentArbitraries(fc, bson, (bytes) => Buffer.from(bytes));

    it(`converts every type as decode and a conversion afterwards do, ${RUNS} generated documents`, function () {
        fc.assert(
            fc.property(rootArb, valuesArb, (doc, values) => {
                const bytes = encodable(doc);
                fc.pre(bytes !== null);
                const copy = Buffer.from(bytes);
                const entries = Object.entries(values);
                assert.deepStrictEqual(qbson.decode(bytes, { values }), referenceDecode(bytes, values, {}));
                assert.deepStrictEqual(bytes, copy, 'the input is not changed');
                assert.deepStrictEqual(Object.entries(values), entries, 'the option is not changed');
            }),
            { numRuns: RUNS, seed: SEED },
        );
    });

    it('converts the same with promoteValues, promoteLongs and promoteBuffers set for the types it does not name', function () {
        const bases = [{ promoteValues: false }, { promoteLongs: false }, { promoteBuffers: true }];
        fc.assert(
            fc.property(rootArb, valuesArb, fc.constantFrom(...bases), (doc, values, base) => {
                const bytes = encodable(doc);
                fc.pre(bytes !== null);
                assert.deepStrictEqual(qbson.decode(bytes, { ...base, values }), referenceDecode(bytes, values, base));
            }),
            { numRuns: Math.ceil(RUNS / 4), seed: SEED + 1 },
        );
    });

    it('writes every date of years 0 to 9999 and beyond as Date#toISOString does', function () {
        fc.assert(
            fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
                const bytes = qbson.encode({ d: new Date(ms) });
                assert.strictEqual(qbson.decode(bytes, { values: { date: 'iso' } }).d, new Date(ms).toISOString());
            }),
            { numRuns: RUNS * 5, seed: SEED + 2 },
        );
        for (const ms of [0, -1, -62167219200000, -62167219200001, 253402300799999, 253402300800000, 951782400000, 8.64e15, -8.64e15]) {
            assert.strictEqual(qbson.decode(qbson.encode({ d: new Date(ms) }), { values: { date: 'iso' } }).d, new Date(ms).toISOString(), String(ms));
        }
    });

    it('refuses a datetime no ISO string can show, naming its offset', function () {
        const bytes = qbson.encode({ d: new Date(0) });
        bytes.writeBigInt64LE(2n ** 62n, 7);
        assert.throws(() => qbson.decode(bytes, { values: { date: 'iso' } }),
            (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_VALUE' && err.offset === 7 && /outside the range/.test(err.message));
        // as milliseconds, or as a Date (an invalid one, as bson gives), it decodes
        assert.strictEqual(qbson.decode(bytes, { values: { date: 'ms' } }).d, 2 ** 62);
        assert.ok(Number.isNaN(qbson.decode(bytes).d.getTime()));
    });
});

describe('values option: mutated input', function () {
    const F = require('./support/fuzz');
    const FUZZ = Math.ceil(RUNS * 1.5);
    // every type named, each input with the forms of one of these
    const ALL_FORMS = [0, 1, 2, 3, 4, 5].map((k) => Object.fromEntries(Object.entries(FORMS).map(([t, forms]) => [t, forms[k % forms.length]])));

    it(`fails where decode fails and agrees with it elsewhere, ${FUZZ} mutated inputs`, function () {
        const seeds = F.corpusDocuments().concat(F.generatedDocuments(SEED, 100));
        const failures = [];
        for (let i = 0; i < FUZZ && failures.length < 5; i++) {
            const input = F.makeInput(F.inputRandom(SEED, i), seeds, []);
            const values = ALL_FORMS[i % ALL_FORMS.length];
            let plain;
            let plainError = null;
            try {
                plain = referenceDecode(input, values, {});
            } catch (err) {
                plainError = err;
            }
            try {
                const mapped = qbson.decode(input, { values });
                if (plainError !== null) failures.push(`input ${i}: decode throws ${plainError.message}, with values it succeeds`);
                else assert.deepStrictEqual(mapped, plain);
            } catch (err) {
                if (err instanceof assert.AssertionError) throw err;
                F.checkError(err, input, `input ${i} with values`);
                // a datetime no ISO string shows may come before what decode finds wrong
                if (err.code === 'ERR_BSON_VALUE') continue;
                if (plainError === null || plainError.message !== err.message) failures.push(`input ${i}: ${err.message} where decode gives ${plainError && plainError.message}`);
            }
        }
        assert.deepStrictEqual(failures, []);
    });
});

describe('values option: validation', function () {
    const bytes = qbson.encode({ a: 1 });
    const cases = [
        [{ objectID: 'hex' }, "option values key must be 'objectId', 'date', 'int64', 'decimal128', 'binary', 'uuid', 'timestamp' or 'regex', not 'objectID'"],
        [{ date: 'isostring' }, "option values.date must be 'iso', 'ms' or 'date', not 'isostring'"],
        [{ int64: 'Number' }, "option values.int64 must be 'number', 'bigint', 'string' or 'long', not 'Number'"],
        [{ binary: 1 }, "option values.binary must be 'base64', 'hex', 'buffer', 'uint8array' or 'binary', not 1"],
        [{ uuid: null }, "option values.uuid must be 'string', 'hex', 'base64', 'buffer', 'uint8array' or 'uuid', not null"],
        [['hex'], 'option values must be an object mapping BSON type names to forms, not an array'],
        ['hex', "option values must be an object mapping BSON type names to forms, not 'hex'"],
        [null, 'option values must be an object mapping BSON type names to forms, not null'],
    ];
    for (const [values, message] of cases) {
        it(`refuses values ${JSON.stringify(values)}`, function () {
            for (const call of [() => qbson.decode(bytes, { values }), () => qbson.decodeAll(bytes, { values }), () => qbson.get(bytes, 'a', { values })]) {
                assert.throws(call, (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_OPTION' && err.message === message);
            }
        });
    }

    it('takes an entry whose form is undefined as no entry', function () {
        assert.deepStrictEqual(qbson.decode(qbson.encode({ d: new Date(5) }), { values: { date: undefined } }), { d: new Date(5) });
    });

    it('refuses a reviver that is not a function', function () {
        assert.throws(() => qbson.decode(bytes, { reviver: 'x' }), { name: 'BSONError', code: 'ERR_BSON_OPTION', message: "option reviver must be a function (key, value), not 'x'" });
    });

    it('does not read values or reviver from Object.prototype', function () {
        Object.prototype.values = { objectId: 'hex' };
        Object.prototype.reviver = () => 1;
        try {
            const id = new ObjectId();
            assert.deepStrictEqual(qbson.decode(qbson.encode({ id }), {}), { id });
        } finally {
            delete Object.prototype.values;
            delete Object.prototype.reviver;
        }
    });
});

describe('values option: with the other options', function () {
    const id = new ObjectId('0123456789abcdef01234567');
    const uuid = new UUID('01234567-89ab-4def-8123-456789abcdef');
    const DOC = {
        id,
        n: 7,
        x: 1.5,
        big: Long.fromString('9007199254740993'),
        small: Long.fromNumber(5),
        bin: new Binary(Buffer.from('hi')),
        uuid,
        re: new BSONRegExp('a+', 'is'),
        sub: { when: new Date(0), list: [id, { id }] },
    };
    const BYTES = qbson.encode(DOC);

    it('promoteValues: false keeps Int32 and Double, and the named types take their forms', function () {
        const out = qbson.decode(BYTES, { promoteValues: false, values: { objectId: 'hex', int64: 'string' } });
        assert.deepStrictEqual([out.id, out.n, out.x, out.big, out.small], ['0123456789abcdef01234567', new qbson.Int32(7), new qbson.Double(1.5), '9007199254740993', '5']);
    });

    it('int64 takes over from promoteLongs and useBigInt64', function () {
        assert.deepStrictEqual(qbson.decode(BYTES, { promoteLongs: false, values: { int64: 'number' } }).small, 5);
        assert.deepStrictEqual(qbson.decode(BYTES, { useBigInt64: true, values: { int64: 'long' } }).small, Long.fromNumber(5));
        assert.deepStrictEqual(qbson.decode(BYTES, { promoteLongs: false, values: { int64: 'bigint' } }).big, 9007199254740993n);
        assert.strictEqual(qbson.decode(BYTES, { values: { int64: 'number' } }).big, 9007199254740992);
    });

    it("keeps bson's refusal of useBigInt64 with promoteLongs: false", function () {
        assert.throws(() => qbson.decode(BYTES, { useBigInt64: true, promoteLongs: false, values: { int64: 'string' } }), /Must either request bigint or Long/);
    });

    it('binary takes over from promoteBuffers; a UUID not named goes with it', function () {
        const out = qbson.decode(BYTES, { promoteBuffers: true, values: { binary: 'base64' } });
        assert.deepStrictEqual([out.bin, out.uuid], ['aGk=', Buffer.from(uuid.buffer).toString('base64')]);
        const kept = qbson.decode(BYTES, { promoteBuffers: true, values: { binary: 'binary' } });
        assert.deepStrictEqual([kept.bin, kept.uuid], [new Binary(Buffer.from('hi')), uuid]);
        const strings = qbson.decode(BYTES, { promoteBuffers: true, values: { uuid: 'string' } });
        assert.deepStrictEqual([strings.bin, strings.uuid], [Buffer.from('hi'), '01234567-89ab-4def-8123-456789abcdef']);
        const asUUID = qbson.decode(BYTES, { values: { binary: 'hex', uuid: 'uuid' } });
        assert.deepStrictEqual([asUUID.bin, asUUID.uuid], ['6869', uuid]);
    });

    it('regex takes over from bsonRegExp', function () {
        assert.strictEqual(qbson.decode(BYTES, { bsonRegExp: true, values: { regex: 'string' } }).re, '/a+/is');
        // the flags in order, and checked as BSONRegExp checks them
        const bytes = qbson.encode({ re: new BSONRegExp('x', 'mi') });
        assert.strictEqual(qbson.decode(bytes, { values: { regex: 'string' } }).re, '/x/im');
        bytes[bytes.indexOf(Buffer.from('x\0')) + 3] = 0x09;
        assert.throws(() => qbson.decode(bytes, { values: { regex: 'string' } }), { code: 'ERR_BSON_REGEXP' });
        assert.deepStrictEqual(qbson.decode(BYTES, { bsonRegExp: true, values: { regex: 'regexp' } }).re, /a+/gi);
        assert.deepStrictEqual(qbson.decode(BYTES, { values: { regex: 'bsonRegExp' } }).re, new BSONRegExp('a+', 'is'));
    });

    it('leaves raw documents as the input bytes', function () {
        const out = qbson.decode(BYTES, { raw: true, values: { objectId: 'hex', date: 'iso' } });
        assert.strictEqual(out.id, '0123456789abcdef01234567');
        assert.ok(Buffer.isBuffer(out.sub));
        assert.deepStrictEqual(qbson.decode(out.sub), DOC.sub);
        const arrays = qbson.decode(BYTES, { fieldsAsRaw: { list: true }, values: { date: 'ms' } });
        assert.strictEqual(arrays.sub.when, 0);
        assert.strictEqual(arrays.sub.list[0], '0123456789abcdef01234567'.length ? arrays.sub.list[0] : null);
        assert.ok(Buffer.isBuffer(arrays.sub.list[1]));
    });

    it('applies to the fields option, get, lazy, decodeAll and decodeStream', run(async () => {
        const values = { objectId: 'hex', date: 'iso' };
        const want = { id: '0123456789abcdef01234567', sub: { when: '1970-01-01T00:00:00.000Z', list: ['0123456789abcdef01234567', { id: '0123456789abcdef01234567' }] } };
        assert.deepStrictEqual(qbson.decode(BYTES, { fields: ['id', 'sub'], values }), want);
        assert.deepStrictEqual(qbson.get(BYTES, 'sub', { values }), want.sub);
        assert.deepStrictEqual(qbson.get(BYTES, 'sub.list.1.id', { values }), want.id);
        assert.deepStrictEqual(qbson.lazy(BYTES, { values }).get('sub').get('when'), want.sub.when);
        const all = qbson.decodeAll(Buffer.concat([BYTES, BYTES]), { values });
        assert.deepStrictEqual(all.map((d) => d.sub), [want.sub, want.sub]);
        const streamed = [];
        for await (const d of qbson.decodeStream([BYTES.subarray(0, 10), BYTES.subarray(10)], { values })) streamed.push(d.id);
        assert.deepStrictEqual(streamed, [want.id]);
    }));

    it('maps the $id of a DBRef and the values of a Code scope', function () {
        const bytes = qbson.encode({ ref: new DBRef('c', id), code: new Code('f()', { at: new Date(1) }) });
        const out = qbson.decode(bytes, { values: { objectId: 'hex', date: 'ms' } });
        assert.deepStrictEqual(out, { ref: new DBRef('c', '0123456789abcdef01234567'), code: new Code('f()', { at: 1 }) });
    });
});

// documents JSON can hold: as JSON.parse gives them back, so that BSON and JSON hold the same
const jsonDoc = fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => !k.includes('\u0000')), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 })
    .map((d) => JSON.parse(JSON.stringify(d)))
    .filter((d) => !JSON.stringify(d).includes('\\u0000'));

// revivers of several kinds: pure ones, one that deletes, one that replaces containers
const REVIVERS = {
    identity: (k, v) => v,
    'doubles numbers': (k, v) => (typeof v === 'number' ? v * 2 : v),
    'deletes keys starting with a and odd numbers': (k, v) => (k.startsWith('a') || (typeof v === 'number' && v % 2 === 1) ? undefined : v),
    'replaces arrays by their length': (k, v) => (Array.isArray(v) ? v.length : v),
    'wraps the root': (k, v) => (k === '' ? { root: v } : v),
    'reads this': function (k, v) {
        return typeof v === 'string' ? `${v}:${Array.isArray(this) ? 'array' : typeof this}` : v;
    },
};

describe('reviver', function () {
    for (const [name, reviver] of Object.entries(REVIVERS)) {
        it(`gives what JSON.parse gives: ${name}`, function () {
            fc.assert(
                fc.property(jsonDoc, (doc) => {
                    const text = JSON.stringify(doc);
                    assert.deepStrictEqual(qbson.decode(qbson.encode(doc), { reviver }), JSON.parse(text, reviver));
                }),
                { numRuns: Math.ceil(RUNS / 4), seed: SEED + 3 },
            );
        });
    }

    it("makes JSON.parse's calls: the same keys and values, each document's fields after its nested documents'", function () {
        fc.assert(
            fc.property(jsonDoc, (doc) => {
                const calls = (parse) => {
                    const seen = [];
                    parse(function (k, v) {
                        seen.push(JSON.stringify([k, v]));
                        return v;
                    });
                    return seen;
                };
                const mine = calls((reviver) => qbson.decode(qbson.encode(doc), { reviver }));
                const json = calls((reviver) => JSON.parse(JSON.stringify(doc), reviver));
                assert.deepStrictEqual(mine.slice().sort(), json.slice().sort());
                assert.strictEqual(mine[mine.length - 1], json[json.length - 1]);
            }),
            { numRuns: Math.ceil(RUNS / 4), seed: SEED + 4 },
        );
        const order = [];
        qbson.decode(qbson.encode({ a: [1, { c: 2 }], b: 3 }), { reviver: (k, v) => (order.push(k), v) });
        assert.deepStrictEqual(order, ['c', '0', '1', 'a', 'b', '']);
    });

    it('sees values in the forms the values option gives, and holes where it deleted array elements', function () {
        const id = new ObjectId('0123456789abcdef01234567');
        const seen = [];
        const out = qbson.decode(qbson.encode({ id, list: [1, 2, 3] }), {
            values: { objectId: 'hex' },
            reviver(k, v) {
                seen.push([k, v]);
                return k === '1' ? undefined : v;
            },
        });
        assert.deepStrictEqual(seen[seen.length - 3], ['id', '0123456789abcdef01234567']);
        assert.strictEqual(out.list.length, 3);
        assert.ok(!(1 in out.list));
    });

    it('does not walk into Code scopes, DBRefs or raw documents, and numbers arrays reach it too', function () {
        const bytes = qbson.encode({ code: new Code('f()', { s: 1 }), ref: new DBRef('c', 1), raw: { r: 1 }, nums: [1.5, 2] });
        const keys = [];
        qbson.decode(bytes, { fieldsAsRaw: {}, reviver: (k, v) => (keys.push(k), v) });
        assert.deepStrictEqual(keys, ['r', '0', '1', 'code', 'ref', 'raw', 'nums', '']);
        const rawKeys = [];
        qbson.decode(bytes, { raw: true, reviver: (k, v) => (rawKeys.push(k), v) });
        assert.deepStrictEqual(rawKeys, ['0', '1', 'code', 'ref', 'raw', 'nums', '']);
    });

    it('applies to decodeAll and decodeStream, each document with its own root call', run(async () => {
        const bytes = Buffer.concat([qbson.encode({ a: 1 }), qbson.encode({ a: 2 })]);
        const reviver = (k, v) => (k === '' ? { wrapped: v } : v);
        assert.deepStrictEqual(qbson.decodeAll(bytes, { reviver }), [{ wrapped: { a: 1 } }, { wrapped: { a: 2 } }]);
        const out = [];
        for await (const d of qbson.decodeStream([bytes], { reviver })) out.push(d);
        assert.deepStrictEqual(out, [{ wrapped: { a: 1 } }, { wrapped: { a: 2 } }]);
    }));

    it('is refused by the readers of part of a document', function () {
        const bytes = qbson.encode({ a: { b: 1 } });
        const reviver = (k, v) => v;
        for (const call of [() => qbson.get(bytes, 'a', { reviver }), () => qbson.has(bytes, 'a', { reviver }), () => qbson.lazy(bytes, { reviver }),
            () => qbson.decode(bytes, { fields: ['a'], reviver })]) {
            assert.throws(call, (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_OPTION' && /option reviver is for decode, decodeAll and decodeStream/.test(err.message));
        }
    });

    it('may decode with other options inside its calls, and the outer decode keeps its own', function () {
        const inner = qbson.encode({ at: new Date(0) });
        const bytes = qbson.encode({ id: new ObjectId('0123456789abcdef01234567'), nested: inner, d: new Date(1) });
        const out = qbson.decode(bytes, {
            values: { objectId: 'hex', date: 'ms' },
            reviver: (k, v) => (k === 'nested' ? qbson.decode(v.buffer, { values: { date: 'iso' } }) : v),
        });
        assert.deepStrictEqual(out, { id: '0123456789abcdef01234567', nested: { at: '1970-01-01T00:00:00.000Z' }, d: 1 });
        // and a later call starts from the defaults
        assert.deepStrictEqual(qbson.decode(bytes, { promoteValues: true }).d, new Date(1));
    });

    it('a reviver that throws stops the decode with its error', function () {
        const boom = new Error('boom');
        assert.throws(() => qbson.decode(qbson.encode({ a: 1 }), { reviver: () => { throw boom; } }), (err) => err === boom);
    });
});
