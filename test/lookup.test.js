'use strict';

// get, has, decode's fields option and lazy views: named cases, then every path
// of 300 seeded generated documents, each answer compared with walking a full
// decode of the same bytes (test/support/paths.js). The mutation fuzzer
// (test/fuzz.test.js) puts the same entry points through damaged bytes.

const assert = require('assert');
const qbson = require('..');
const F = require('./support/fuzz');
const P = require('./support/paths');
const { normalize } = require('./support/normalize');

const DOC = {
    ok: 1,
    cursor: { id: qbson.Long.fromNumber(2 ** 60), ns: 'db.c', nextBatch: [{ _id: 1, price: 9.5 }, { _id: 2 }, 'x', [{ price: 3 }]] },
    user: { name: 'Ann', 'a.b': true, é: 'accent', '': 'empty key' },
    ref: new qbson.DBRef('users', 7, 'db', { extra: 1 }),
    code: new qbson.Code('x', { inScope: 1 }),
    tags: ['a', 'b'],
};
const BYTES = qbson.encode(DOC);

// Options under which each entry point must agree with decode.
const OPTION_SETS = [
    {},
    { promoteValues: false },
    { promoteLongs: false, promoteBuffers: true },
    { useBigInt64: true },
    { bsonRegExp: true, preserveDeprecated: true },
    { validation: { utf8: false } },
    { validation: { utf8: { a: false } } },
    { raw: true },
    { fieldsAsRaw: { a: true, 0: true, b: true } },
    { raw: true, maxDepth: 5, validation: { utf8: false } },
];

function throwsBSONError(fn, pattern) {
    assert.throws(fn, (err) => err instanceof qbson.BSONError && (pattern === undefined || pattern.test(err.message)));
}

describe('get and has', function () {
    const cases = [
        ['ok', 1],
        ['cursor.ns', 'db.c'],
        [['cursor', 'nextBatch', 0, 'price'], 9.5],
        ['cursor.nextBatch.1._id', 2],
        ['cursor.nextBatch.2', 'x'],
        ['cursor.nextBatch.3.0.price', 3],
        [['user', 'a.b'], true],
        ['user.é', 'accent'],
        ['user.', 'empty key'],
        ['ref.$ref', 'users'],
        ['ref.$id', 7],
        ['ref.extra', 1],
        ['tags.1', 'b'],
    ];
    for (const [path, expected] of cases) {
        it(`get ${JSON.stringify(path)} gives ${JSON.stringify(expected)}, and has says true`, function () {
            assert.deepStrictEqual(qbson.get(BYTES, path), expected);
            assert.strictEqual(qbson.has(BYTES, path), true);
        });
    }

    it('a key with a lone surrogate names nothing, as decode never gives such a key', function () {
        const bytes = qbson.encode({ '\ud800': 1, ok: 2 });
        assert.deepStrictEqual(Object.keys(qbson.decode(bytes)), ['\ufffd', 'ok']);
        assert.strictEqual(qbson.get(bytes, '\ud800'), undefined);
        assert.strictEqual(qbson.get(bytes, '\ufffd'), 1);
        assert.strictEqual(qbson.lazy(bytes).get('\ud800'), undefined);
        assert.deepStrictEqual(qbson.decode(bytes, { fields: ['\udc00x', '\ufffd'] }), { '\ufffd': 1 });
    });

    const missing = ['nope', 'ok.x', 'cursor.nextBatch.4', 'cursor.nextBatch.x', 'cursor.nextBatch.01', 'tags.-1', 'code.inScope', 'user.a.b', ['tags', 2]];
    for (const path of missing) {
        it(`get ${JSON.stringify(path)} is undefined and has is false`, function () {
            assert.strictEqual(qbson.get(BYTES, path), undefined);
            assert.strictEqual(qbson.has(BYTES, path), false);
        });
    }

    it('gives documents, arrays, DBRefs and Code whole, as decode does', function () {
        const full = qbson.decode(BYTES);
        for (const key of Object.keys(full)) assert.deepStrictEqual(qbson.get(BYTES, key), full[key], key);
    });

    it('reads with decode options', function () {
        assert.deepStrictEqual(qbson.get(BYTES, 'ok', { promoteValues: false }), new qbson.Int32(1));
        assert.strictEqual(qbson.get(BYTES, 'cursor.id', { useBigInt64: true }), 2n ** 60n);
        const two = Buffer.concat([qbson.encode({ a: 1 }), BYTES]);
        assert.strictEqual(qbson.get(two, 'ok', { index: 12 }), 1);
        assert.strictEqual(qbson.get(two, 'a', { allowObjectSmallerThanBufferSize: true }), 1);
        throwsBSONError(() => qbson.get(two, 'a'), /does not match/);
    });

    it('a BSON undefined is there (has) but reads as undefined, as decode reads it', function () {
        const bytes = qbson.encode({ u: undefined }, { ignoreUndefined: false });
        const withUndefined = Buffer.from(bytes);
        withUndefined[4] = 0x06;
        const shorter = Buffer.concat([withUndefined.subarray(0, 7), Buffer.from([0])]);
        shorter.writeInt32LE(shorter.length, 0);
        assert.strictEqual(qbson.has(shorter, 'u'), true);
        assert.strictEqual(qbson.get(shorter, 'u'), undefined);
    });

    it('takes the first of a key stored twice (decode keeps the last)', function () {
        const bytes = Buffer.from('1b000000106100010000001062000200000010610003000000' + '00', 'hex');
        bytes.writeInt32LE(bytes.length, 0);
        assert.deepStrictEqual(qbson.decode(bytes), { a: 3, b: 2 });
        assert.strictEqual(qbson.get(bytes, 'a'), 1);
    });

    it('refuses a path that is not a string or an array of keys and indexes', function () {
        for (const path of [undefined, null, 3, {}, [], ['a', -1], ['a', 1.5], ['a', null]]) {
            throwsBSONError(() => qbson.get(BYTES, path));
            throwsBSONError(() => qbson.has(BYTES, path));
        }
        throwsBSONError(() => qbson.get('not bytes', 'a'));
    });

    it('throws the error decode throws on the damaged element it steps over, and ignores damage past the value', function () {
        const bytes = qbson.encode({ a: 'xyz', b: 1, c: 'tail' });
        const damaged = Buffer.from(bytes);
        damaged.writeInt32LE(1000, 7); // a's string length
        const error = (fn) => {
            try {
                fn();
            } catch (err) {
                return err;
            }
            return assert.fail('no error');
        };
        const ours = error(() => qbson.get(damaged, 'b'));
        const theirs = error(() => qbson.decode(damaged));
        assert.ok(ours instanceof qbson.BSONError);
        assert.strictEqual(ours.message, theirs.message);
        assert.strictEqual(ours.offset, 7);
        const late = Buffer.from(bytes);
        late[late.length - 3] = 0xff; // invalid UTF-8 in c's value
        throwsBSONError(() => qbson.decode(late), /UTF-8/);
        assert.strictEqual(qbson.get(late, 'b'), 1);
        throwsBSONError(() => qbson.get(late, 'c'), /UTF-8/);
    });

    it('counts nesting as decode does', function () {
        const deep = F.nestedBytes(10);
        const path = 'a.'.repeat(10).slice(0, -1);
        assert.deepStrictEqual(qbson.get(deep, path), {});
        throwsBSONError(() => qbson.get(deep, path, { maxDepth: 5 }), /maxDepth 5/);
        assert.strictEqual(qbson.has(deep, 'a.a.a', { maxDepth: 5 }), true);
    });
});

describe('decode with fields', function () {
    const cases = [
        [['ok'], { ok: 1 }],
        [['user.name', 'ok'], { ok: 1, user: { name: 'Ann' } }],
        [['cursor.nextBatch.price'], { cursor: { nextBatch: [{ price: 9.5 }, {}, [{ price: 3 }]] } }],
        [['user', 'user.name'], { user: DOC.user }],
        [['user.nothing', 'none'], { user: {} }],
        [['ok.x', 'code.inScope'], {}],
        [['ref'], { ref: DOC.ref }],
        [['ref.$id', 'ref.extra'], { ref: { $id: 7, extra: 1 } }],
        [[['user', 'a.b']], { user: { 'a.b': true } }],
        [[], {}],
    ];
    for (const [fields, expected] of cases) {
        it(`fields ${JSON.stringify(fields)}`, function () {
            assert.deepStrictEqual(qbson.decode(BYTES, { fields }), expected);
        });
    }

    it('keeps document order, not the order of fields', function () {
        assert.deepStrictEqual(Object.keys(qbson.decode(BYTES, { fields: ['tags', 'ok', 'user.é', 'user.name'] })), ['ok', 'user', 'tags']);
        assert.deepStrictEqual(Object.keys(qbson.decode(BYTES, { fields: ['user.é', 'user.name'] }).user), ['name', 'é']);
    });

    it('applies to decodeStream too', function (done) {
        (async () => {
            const out = [];
            for await (const doc of qbson.decodeStream([BYTES, BYTES], { fields: ['ok'] })) out.push(doc);
            assert.deepStrictEqual(out, [{ ok: 1 }, { ok: 1 }]);
        })().then(() => done(), done);
    });

    it('applies to decodeAll and deserialize, and is read as an own property only', function () {
        const two = Buffer.concat([BYTES, BYTES]);
        assert.deepStrictEqual(qbson.decodeAll(two, { fields: ['ok'] }), [{ ok: 1 }, { ok: 1 }]);
        assert.deepStrictEqual(qbson.deserialize(BYTES, { fields: ['ok'] }), { ok: 1 });
        Object.prototype.fields = ['ok'];
        try {
            assert.deepStrictEqual(qbson.decode(BYTES), qbson.decode(BYTES, { fields: null }));
            assert.ok(Object.keys(qbson.decode(BYTES)).length > 1);
        } finally {
            delete Object.prototype.fields;
        }
    });

    it('refuses fields that are not an array of paths', function () {
        for (const fields of ['ok', 3, {}, [3], [[]]]) throwsBSONError(() => qbson.decode(BYTES, { fields }));
    });
});

describe('lazy', function () {
    it('reads fields on first access, keeps them, and gives views of documents and arrays', function () {
        const doc = qbson.lazy(BYTES);
        assert.strictEqual(doc.isArray, false);
        assert.strictEqual(doc.get('ok'), 1);
        const cursor = doc.get('cursor');
        assert.ok(cursor instanceof qbson.LazyDocument);
        assert.strictEqual(doc.get('cursor'), cursor);
        const batch = cursor.get('nextBatch');
        assert.strictEqual(batch.isArray, true);
        assert.strictEqual(batch.get(0).get('price'), 9.5);
        assert.strictEqual(batch.get('1').get('_id'), 2);
        assert.strictEqual(batch.get(9), undefined);
        assert.strictEqual(batch.get('x'), undefined);
        assert.deepStrictEqual([...batch.keys()], [0, 1, 2, 3]);
        assert.deepStrictEqual([...doc.keys()], Object.keys(DOC));
        assert.strictEqual(doc.has('tags'), true);
        assert.strictEqual(doc.has('nope'), false);
        assert.strictEqual(doc.get('nope'), undefined);
        assert.deepStrictEqual(doc.get('ref').toObject(), DOC.ref);
        assert.deepStrictEqual(doc.toObject(), qbson.decode(BYTES));
        assert.notStrictEqual(doc.toObject(), doc.toObject());
    });

    it('is read-only and shows no fields', function () {
        const doc = qbson.lazy(BYTES);
        assert.ok(Object.isFrozen(doc));
        assert.deepStrictEqual(Object.keys(doc), []);
        assert.throws(() => {
            'use strict';
            doc.ok = 2;
        }, TypeError);
    });

    it('is made by lazy(buf): new LazyDocument(...) is refused with a BSONError', function () {
        throwsBSONError(() => new qbson.LazyDocument(BYTES), /lazy\(buf\)/);
        throwsBSONError(() => new qbson.LazyDocument(), /lazy\(buf\)/);
    });

    it('reads with decode options, and refuses bad keys', function () {
        assert.deepStrictEqual(qbson.lazy(BYTES, { promoteValues: false }).get('ok'), new qbson.Int32(1));
        throwsBSONError(() => qbson.lazy(BYTES).get({}));
        throwsBSONError(() => qbson.lazy(Buffer.from([5, 0, 0, 0, 1])), /NUL/);
    });

    it('refuses a buffer changed under the view instead of reading past its document', function () {
        const bytes = Buffer.from(BYTES);
        const doc = qbson.lazy(bytes);
        bytes[bytes.length - 1] = 1;
        throwsBSONError(() => doc.get('zzz'), /changed/);
        throwsBSONError(() => [...doc.keys()], /changed/);
    });
});

describe('get, has, fields and lazy agree with a full decode on 300 generated documents', function () {
    // a DBPointer decodes to a DBRef, which the reference would take for a stored document
    const docs = F.generatedDocuments(7, 300).filter((bytes) => !P.hasDBPointer(bytes));

    it(`keeps ${docs.length} of the 300 documents (those without a DBPointer)`, function () {
        assert.ok(docs.length > 200);
    });
    for (const [n, opts] of OPTION_SETS.entries()) {
        it(`option set ${n}: ${JSON.stringify(opts)}`, function () {
            let paths = 0;
            let skipped = 0;
            for (const bytes of docs) {
                let full;
                try {
                    full = qbson.decode(bytes, opts);
                } catch (err) {
                    // a regex JavaScript cannot compile, or useBigInt64 with promoteLongs false
                    assert.ok(err instanceof qbson.BSONError);
                    skipped++;
                    continue;
                }
                // under raw options the walk goes on into the bytes decode keeps
                const open = P.opener(opts);
                const view = qbson.lazy(bytes, opts);
                assert.deepStrictEqual(normalize(view.toObject()), normalize(full));
                assert.deepStrictEqual(normalize(P.readAll(view)), normalize(P.storedForm(full, open)));
                const all = P.pathsOf(full, 200, open);
                for (const path of all) {
                    const expected = P.navigate(full, path, open);
                    assert.strictEqual(qbson.has(bytes, path, opts), true, path.join('.'));
                    assert.deepStrictEqual(normalize(qbson.get(bytes, path, opts)), normalize(expected.value), path.join('.'));
                    paths++;
                }
                const chosen = all.filter((_, i) => i % 3 === 0).slice(0, 6);
                const projected = qbson.decode(bytes, { ...opts, fields: chosen });
                assert.deepStrictEqual(normalize(projected), normalize(P.project(full, chosen, open)), JSON.stringify(chosen));
            }
            assert.ok(paths > 500, `only ${paths} paths`);
            assert.ok(skipped < docs.length / 4, `${skipped} documents do not decode`);
        });
    }
});
