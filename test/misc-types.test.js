'use strict';

const assert = require('assert');
const util = require('util');
const fc = require('fast-check');
const bson = require('bson');
const { Code } = require('../lib/types/code');
const { BSONRegExp } = require('../lib/types/bson-regexp');
const { BSONSymbol } = require('../lib/types/bson-symbol');
const { DBRef } = require('../lib/types/dbref');
const { MinKey, MaxKey } = require('../lib/types/min-max-key');
const { DBPointer, BSONUndefined } = require('../lib/types/deprecated');
const { ObjectId } = require('../lib/types/objectid');
const { BSONError } = require('../lib/errors');
const { assertSameOutcome } = require('./support/same-outcome');

const FC = { seed: 42, numRuns: 1000 };
const OURS = { Code, BSONRegExp, BSONSymbol, DBRef, MinKey, MaxKey, ObjectId };
const HEX = '5e9f1c2a3b4d5e6f708192a3';
const LONG_FUNCTION = 'function add(alpha, beta) {\n  const total = alpha + beta;\n  return total * 2 + someOtherLongIdentifierName;\n}';

// The ways a value shows up as text: JSON, util.inspect plain and coloured, nested, and inspect() called directly
// (JSON.stringify is skipped when the value holds a bigint: it throws, in both libraries)
function textForms(value, { json = true } = {}) {
    return {
        json: json ? JSON.stringify({ v: value }) : null,
        inspect: util.inspect(value),
        colors: util.inspect(value, { colors: true }),
        nested: util.inspect({ a: [value] }),
        direct: value.inspect(),
        keys: Object.keys(value),
    };
}

function commonChecks(value, bsontype) {
    assert.strictEqual(value._bsontype, bsontype);
    assert.strictEqual(value[Symbol.for('@@mdb.bson.version')], 7);
    assert.strictEqual(value[Symbol.for('@@mdb.bson.type')], bsontype);
    assert.ok(!Object.keys(value).includes('_bsontype'));
}

// Runs fn(library) with qbson's classes and with bson's.
function sameOutcome(fn, label, options) {
    assertSameOutcome(() => fn(OURS), () => fn(bson), label, options);
}

describe('Code', function () {
    const cases = [
        ['a string', ['x + 1']],
        ['a function', [function f(a) { return a + 1; }]],
        ['a number', [5]],
        ['a scope', ['x', { x: 1, y: [1, 2] }]],
        ['a null scope', ['x', null]],
        ['an empty scope', ['x', {}]],
        ['a long multi-line function', [LONG_FUNCTION]],
        ['a long multi-line function with scope', [LONG_FUNCTION, { x: 1 }]],
        ['a scope with a bigint and a Map', ['x', { n: 5n, m: new Map([['k', 1]]) }]],
    ];
    for (const [label, args] of cases) {
        it(`matches bson for ${label}`, function () {
            sameOutcome((lib) => {
                const c = new lib.Code(...args);
                const forms = textForms(c, { json: !(args[1] && typeof args[1].n === 'bigint') });
                return { code: c.code, scope: c.scope, ...forms };
            }, label);
        });
    }

    it('is a BSON value with the tag Code', function () {
        commonChecks(new Code('x'), 'Code');
        assert.deepStrictEqual(new Code('x').toJSON(), { code: 'x' });
        assert.deepStrictEqual(new Code('x', { a: 1 }).toJSON(), { code: 'x', scope: { a: 1 } });
    });

    it('rejects a missing code with a BSONError', function () {
        for (const code of [undefined, null]) {
            assert.throws(() => new Code(code), { name: 'BSONError', message: /string or a function/ });
        }
    });

    it('bson serializes qbson Code like its own', function () {
        for (const args of [['x'], ['y', { a: 1 }]]) {
            assert.deepStrictEqual(bson.serialize({ c: new Code(...args) }), bson.serialize({ c: new bson.Code(...args) }));
        }
    });
});

describe('BSONRegExp', function () {
    const cases = [
        ['no options', ['a+b']],
        ['undefined options', ['a', undefined]],
        ['null options', ['a', null]],
        ['unsorted options', ['a', 'xsmi']],
        ['every option', ['a', 'uxsmli']],
        ['repeated options', ['a', 'ii']],
        ['an unsupported option', ['a', 'ig']],
        ['two unsupported options', ['a', 'zg']],
        ['a null byte in the pattern', ['a\x00b', 'i']],
        ['a null byte in the options', ['a', 'i\x00']],
        ['quotes in the pattern', ["it's \"q\"", '']],
        ['an empty pattern', ['', '']],
    ];
    for (const [label, args] of cases) {
        it(`matches bson for ${label}`, function () {
            sameOutcome((lib) => {
                const r = new lib.BSONRegExp(...args);
                return { pattern: r.pattern, options: r.options, ...textForms(r) };
            }, label, { sameMessage: true });
        });
    }

    it('sorts and validates options like bson for random strings', function () {
        const letters = fc.constantFrom(...'ilmsuxgyz\x00A');
        fc.assert(
            fc.property(fc.string({ maxLength: 8 }), fc.string({ unit: letters, maxLength: 6 }), (pattern, options) => {
                sameOutcome((lib) => {
                    const r = new lib.BSONRegExp(pattern, options);
                    return [r.pattern, r.options, util.inspect(r), r.inspect()];
                }, JSON.stringify([pattern, options]), { sameMessage: true });
                assert.strictEqual(BSONRegExp.parseOptions(options), bson.BSONRegExp.parseOptions(options));
            }),
            FC
        );
    });

    it('parseOptions matches bson', function () {
        for (const o of [undefined, null, '', 'mi', 'xyz']) {
            assert.strictEqual(BSONRegExp.parseOptions(o), bson.BSONRegExp.parseOptions(o));
        }
    });

    it('is a BSON value with the tag BSONRegExp', function () {
        commonChecks(new BSONRegExp('a'), 'BSONRegExp');
    });

    it('rejects a non-string pattern or options with a BSONError', function () {
        assert.throws(() => new BSONRegExp(/a/), BSONError);
        assert.throws(() => new BSONRegExp(5), BSONError);
        assert.throws(() => new BSONRegExp('a', 5), BSONError);
    });

    it('bson serializes a qbson BSONRegExp like its own', function () {
        assert.deepStrictEqual(bson.serialize({ r: new BSONRegExp('a.b', 'mi') }), bson.serialize({ r: new bson.BSONRegExp('a.b', 'mi') }));
    });
});

describe('BSONSymbol', function () {
    for (const value of ['sym', '', "it's", 'ünïcödé']) {
        it(`matches bson for ${JSON.stringify(value)}`, function () {
            sameOutcome((lib) => {
                const s = new lib.BSONSymbol(value);
                return { value: s.value, valueOf: s.valueOf(), toString: s.toString(), toJSON: s.toJSON(), concat: `${s}`, ...textForms(s) };
            }, value);
        });
    }

    it('is a BSON value with the tag BSONSymbol', function () {
        commonChecks(new BSONSymbol('s'), 'BSONSymbol');
    });

    it('bson serializes a qbson BSONSymbol like its own', function () {
        assert.deepStrictEqual(bson.serialize({ s: new BSONSymbol('s') }), bson.serialize({ s: new bson.BSONSymbol('s') }));
    });
});

describe('DBRef', function () {
    const cases = [
        ['a collection', ['coll']],
        ['a db.collection namespace', ['db.coll']],
        ['a namespace overriding the db argument', ['db.coll', undefined, 'other']],
        ['a name with two dots (not split)', ['a.b.c']],
        ['a db argument', ['coll', undefined, 'mydb']],
        ['an empty db argument', ['coll', undefined, '']],
        ['extra fields', ['coll', undefined, undefined, { x: 1, y: 'two' }]],
        ['fields that clash with $ref/$db', ['coll', undefined, 'd', { $ref: 'zzz', $db: 'q', z: 1 }]],
        ['fields with a bigint', ['coll', undefined, undefined, { n: 7n }]],
    ];
    for (const [label, [collection, , db, fields]] of cases) {
        it(`matches bson for ${label}`, function () {
            sameOutcome((lib) => {
                const ref = new lib.DBRef(collection, new lib.ObjectId(HEX), db, fields);
                const forms = textForms(ref, { json: !(fields && typeof fields.n === 'bigint') });
                return {
                    collection: ref.collection,
                    namespace: ref.namespace,
                    oid: ref.oid.toHexString(),
                    db: ref.db,
                    fields: ref.fields,
                    ...forms,
                    jsonKeys: Object.keys(ref.toJSON()),
                };
            }, label);
        });
    }

    it('takes any value as oid, as bson does', function () {
        sameOutcome((lib) => {
            const ref = new lib.DBRef('c', 42);
            return [ref.oid, JSON.stringify(ref), util.inspect(ref)];
        }, 'number oid');
    });

    it('namespace is an alias for collection', function () {
        const ref = new DBRef('a', new ObjectId(HEX));
        ref.namespace = 'b';
        assert.strictEqual(ref.collection, 'b');
        assert.strictEqual(ref.namespace, 'b');
        assert.ok(!Object.keys(ref).includes('namespace'));
    });

    it('is a BSON value with the tag DBRef', function () {
        commonChecks(new DBRef('a', new ObjectId()), 'DBRef');
    });

    it('rejects a non-string collection with a BSONError', function () {
        assert.throws(() => new DBRef(undefined, new ObjectId()), BSONError);
        assert.throws(() => new DBRef(5, new ObjectId()), BSONError);
    });

    it('bson serializes a qbson DBRef like its own', function () {
        const ours = new DBRef('db.c', new ObjectId(HEX), undefined, { x: 1 });
        const theirs = new bson.DBRef('db.c', new bson.ObjectId(HEX), undefined, { x: 1 });
        assert.deepStrictEqual(bson.serialize({ r: ours }), bson.serialize({ r: theirs }));
    });
});

describe('MinKey and MaxKey', function () {
    for (const name of ['MinKey', 'MaxKey']) {
        it(`${name} matches bson`, function () {
            sameOutcome((lib) => textForms(new lib[name]()), name);
            commonChecks(new OURS[name](), name);
            assert.deepStrictEqual(bson.serialize({ k: new OURS[name]() }), bson.serialize({ k: new bson[name]() }));
        });
    }
});

describe('deprecated types', function () {
    describe('DBPointer', function () {
        it('holds a namespace and an ObjectId', function () {
            const oid = new ObjectId(HEX);
            const p = new DBPointer('db.coll', oid);
            assert.strictEqual(p._bsontype, 'DBPointer');
            assert.strictEqual(p[Symbol.for('@@mdb.bson.version')], 7);
            assert.strictEqual(p.namespace, 'db.coll');
            assert.strictEqual(p.oid, oid);
            assert.deepStrictEqual(Object.keys(p), ['namespace', 'oid']);
        });

        it('toJSON is {$ref, $id}', function () {
            const p = new DBPointer('db.coll', new ObjectId(HEX));
            assert.deepStrictEqual(p.toJSON(), { $ref: 'db.coll', $id: p.oid });
            assert.strictEqual(JSON.stringify(p), `{"$ref":"db.coll","$id":"${HEX}"}`);
        });

        it('inspects like a constructor call', function () {
            const p = new DBPointer('db.coll', new ObjectId(HEX));
            assert.strictEqual(util.inspect(p), `new DBPointer('db.coll', new ObjectId('${HEX}'))`);
            assert.strictEqual(p.inspect(), `new DBPointer("db.coll", new ObjectId("${HEX}"))`);
        });

        it('accepts bson ObjectIds and rejects other values with a BSONError', function () {
            assert.strictEqual(new DBPointer('n', new bson.ObjectId(HEX)).oid.toHexString(), HEX);
            assert.throws(() => new DBPointer(5, new ObjectId()), BSONError);
            assert.throws(() => new DBPointer('n', HEX), BSONError);
            assert.throws(() => new DBPointer('n'), BSONError);
        });
    });

    describe('BSONUndefined', function () {
        it('is BSON undefined, JSON null', function () {
            const u = new BSONUndefined();
            assert.strictEqual(u._bsontype, 'Undefined');
            assert.strictEqual(u[Symbol.for('@@mdb.bson.version')], 7);
            assert.strictEqual(u.toJSON(), null);
            assert.strictEqual(JSON.stringify({ a: u }), '{"a":null}');
            assert.strictEqual(util.inspect(u), 'new BSONUndefined()');
            assert.deepStrictEqual(Object.keys(u), []);
            assert.deepStrictEqual(new BSONUndefined(), u);
        });
    });
});

describe('types index', function () {
    it('exports every type class', function () {
        const types = require('../lib/types');
        for (const name of [
            'BSONValue', 'ObjectId', 'Binary', 'UUID', 'Long', 'Timestamp', 'Int32', 'Double', 'Decimal128',
            'Code', 'BSONRegExp', 'BSONSymbol', 'DBRef', 'MinKey', 'MaxKey', 'DBPointer', 'BSONUndefined',
        ]) {
            assert.strictEqual(typeof types[name], 'function', name);
        }
        assert.strictEqual(types.ObjectId, ObjectId);
        assert.strictEqual(types.Code, Code);
        assert.strictEqual(types.DBPointer, DBPointer);
    });
});
