'use strict';

// Objects of repeated shapes written by writers generated for them (lib/shape-writer.js):
// the same bytes as bson's and as the encoder's own path, the same toBSON calls and the
// same errors, whatever value or key differs, for any key, with bounded memory, and the
// same results where code cannot be generated.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const { spawnSync } = require('child_process');
const shapeWriter = require('../lib/shape-writer');

const { COMPILE_AFTER, COMPILE_WITHIN, SLOTS, MISS } = shapeWriter;
// the slot objects with these own keys are learnt in
const slotOf = (keys) => shapeWriter.slots.get(shapeWriter.slotName(keys));
const ROUNDS = COMPILE_AFTER + 4;
// checkKeys keeps the writers off and changes nothing for keys without '$' or '.': the encoder's own path
const GENERIC = { checkKeys: true };

// the encoder's bytes or error for doc, as something to compare
function outcome(make, opts) {
    try {
        return { bytes: Buffer.from(qbson.encode(make(), opts)).toString('hex') };
    } catch (err) {
        return { error: err.name, code: err.code, path: err.path, message: err.message };
    }
}

// encodes make() enough times for its writer to be compiled and used, each time
// comparing with the encoder's own path (and bson's bytes where bson encodes it)
// (keys with '$' or '.', which checkKeys refuses, against bson's bytes alone)
function sameEveryRound(make, opts) {
    let expected = null;
    try {
        expected = Buffer.from(bson.serialize(make(), opts)).toString('hex');
    } catch (err) {
        // bson refuses some values qbson writes (test/differences.test.js)
    }
    const checkable = Object.keys(make()).every((k) => !k.startsWith('$') && !k.includes('.'));
    assert.ok(checkable || expected !== null);
    const generic = checkable ? outcome(make, { ...opts, ...GENERIC }) : { bytes: expected };
    if (expected !== null && generic.bytes !== undefined) assert.strictEqual(generic.bytes, expected, 'bson');
    for (let round = 0; round < ROUNDS; round++) assert.deepStrictEqual(outcome(make, opts), generic, `round ${round}`);
}

// the writer for shape() compiled, then doc encoded through it
function learnt(shape) {
    for (let i = 0; i < COMPILE_AFTER + 1; i++) qbson.encode(shape());
}

const ITEM = () => ({ id: 7, name: 'Peter', ready: true, priority: 0, tags: ['a', 'b', 'c'] });
// every kind of value a writer writes itself, and some it leaves to the encoder
const EVERY_KIND = () => ({
    _id: new bson.ObjectId('64b7f0c2a1b2c3d4e5f60718'), d: 1.5, i: -5, s: 'text é日本😀', t: true, f: false, nil: null, when: new Date(12345),
    strs: ['p', 'q'], sub: { a: 1, b: [1, 2.5], c: { d: 'x', e: [{ f: 1, g: 2 }] } }, docs: [{ x: 1 }, { x: 2 }], people: [{ n: 'a', k: 1 }, { n: 'b', k: 2 }], big: 2n ** 40n, long: bson.Long.fromNumber(42), bin: new Uint8Array([1, 2]),
    'a key longer than twenty-four bytes, with é': 'long key', '': 'empty key', last: 'end',
});

// values of every kind, put in the place of each field of a learnt shape
const HAS_TO_BSON = { toBSON: () => ({ converted: 1 }) };
const VALUES = () => [
    0, -0, 1, -1, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 1.5, NaN, Infinity, -Infinity, Number.MAX_VALUE, '', 'x', 'é日本😀', '\ud800 lone', 'z'.repeat(5000),
    true, false, null, undefined, new Date(0), new Date(NaN), new Date(-1e15), [], ['a'], ['a', 1], [1, 2], [null], [['a']], ['a'.repeat(3000), 'b'],
    {}, { a: 1 }, new bson.ObjectId('64b7f0c2a1b2c3d4e5f60718'), bson.Long.fromNumber(-3), new bson.Int32(5), new bson.Double(2), 5n, -(2n ** 63n),
    new Uint8Array([1]), new Map([['m', 1]]), /re/i, () => 1, Symbol('s'), HAS_TO_BSON, Object.assign(new Date(5), { toBSON: () => 'date as text' }),
    Object.assign(['a', 'b'], { toBSON: () => ['converted'] }), Object.assign(['a'], { _bsontype: 'nope' }), Object.create(Date.prototype),
];

describe('writers generated for repeated shapes', function () {
    // the tests below count the objects a writer is learnt from: the table starts empty,
    // as in a process of its own, whatever the test files run before in this one left in it
    // (near SLOTS names, it is emptied while a shape is learnt, and no writer comes)
    before(function () {
        shapeWriter.slots.clear();
    });

    it('write what bson and the encoder write, every round', function () {
        sameEveryRound(ITEM);
        sameEveryRound(() => ({ cursor: { firstBatch: Array.from({ length: 50 }, ITEM), id: bson.Long.fromNumber(0), ns: 'db.c' }, ok: 1 }));
        sameEveryRound(EVERY_KIND);
        sameEveryRound(ITEM, { ignoreUndefined: false, serializeFunctions: true });
    });

    it('compile a writer for a repeated shape, and not for keys the encoder refuses', function () {
        const first = 'compiledShape' + Date.now();
        const make = () => ({ [first]: 1, b: 'x' });
        learnt(make);
        assert.strictEqual(typeof slotOf(Object.keys(make())).writer, 'function');
        const nul = 'nul' + Date.now();
        for (let i = 0; i < ROUNDS; i++) {
            assert.throws(() => qbson.encode({ [nul]: 1, 'a\u0000b': 2 }), (err) => err instanceof qbson.BSONError && /null bytes/.test(err.message) && err.path === 'a\u0000b');
        }
        assert.strictEqual(slotOf([nul, 'a\u0000b']).writer, null);
    });

    it('write any value of another kind at any field as the encoder does, with its toBSON calls and errors', function () {
        const base = EVERY_KIND();
        const keys = Object.keys(base);
        for (let k = 0; k < keys.length; k++) {
            for (const [v, value] of VALUES().entries()) {
                const make = () => {
                    const doc = EVERY_KIND();
                    doc[keys[k]] = VALUES()[v];
                    return doc;
                };
                learnt(EVERY_KIND);
                assert.strictEqual(typeof slotOf(keys).writer, 'function');
                assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `${keys[k]} = value ${v} (${typeof value})`);
                for (const opts of [{ ignoreUndefined: false }, { serializeFunctions: true }, { maxDepth: 1 }, { maxDocumentSize: 200 }]) {
                    learnt(EVERY_KIND);
                    assert.deepStrictEqual(outcome(make, opts), outcome(make, { ...opts, ...GENERIC }), `${keys[k]} = value ${v}, ${JSON.stringify(opts)}`);
                }
            }
        }
    });

    it('write any value in documents and arrays of documents inside a shape as the encoder does', function () {
        const paths = [['sub', 'a'], ['sub', 'c', 'd'], ['people', 0, 'n'], ['people', 1, 'k'], ['sub', 'c', 'e', 0, 'g'], ['sub', 'c'], ['people', 1], ['people', 0], ['people', 2], ['sub', 'c', 'e']];
        for (const at of paths) {
            for (const [v, value] of VALUES().entries()) {
                const make = () => {
                    const doc = EVERY_KIND();
                    let parent = doc;
                    for (const step of at.slice(0, -1)) parent = parent[step];
                    parent[at[at.length - 1]] = VALUES()[v];
                    return doc;
                };
                learnt(EVERY_KIND);
                assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `${at.join('.')} = value ${v} (${typeof value})`);
            }
        }
        // items of other shapes and kinds in an array of documents, and documents of other shapes
        const mixed = () => ({ ...EVERY_KIND(), people: [{ n: 'a', k: 1 }, { k: 1, n: 'a' }, { n: 'a' }, 5, null, [{ n: 'a', k: 1 }], { n: 'a', k: 1, z: 0 }],
            sub: { a: 1, b: [1], c: { d: 'x', e: [] }, extra: true } });
        learnt(EVERY_KIND);
        sameEveryRound(mixed);
    });

    it('miss objects whose keys differ in any way, before writing anything', function () {
        const variants = [
            () => ({ id: 7, name: 'Peter', ready: true, priority: 0 }),
            () => ({ id: 7, name: 'Peter', ready: true, priority: 0, tags: ['a'], extra: 1 }),
            () => ({ name: 'Peter', id: 7, ready: true, priority: 0, tags: ['a'] }),
            () => ({ id: 7, name: 'Peter', ready: true, priorities: 0, tags: ['a'] }),
            () => Object.assign(Object.create({ tags: ['inherited'] }), { id: 7, name: 'Peter', ready: true, priority: 0 }),
            () => Object.defineProperty({ id: 7, name: 'Peter', ready: true, priority: 0 }, 'tags', { value: ['hidden'], enumerable: false }),
            () => new Map(Object.entries(ITEM())),
            // the same keys on another prototype: the same shape, written as the encoder writes it
            () => Object.assign(Object.create(null), ITEM()),
        ];
        const writer = () => {
            learnt(ITEM);
            return slotOf(Object.keys(ITEM())).writer;
        };
        for (const [i, make] of variants.entries()) {
            const w = writer();
            const obj = make();
            if (i < 6) assert.strictEqual(w(null, 0, obj, Object.keys(obj)), MISS, `variant ${i}`);
            assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `variant ${i}`);
        }
        // objects alternating between two shapes of one slot
        for (let round = 0; round < 4 * ROUNDS; round++) {
            const make = variants[round % 2];
            assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `round ${round}`);
        }
    });

    it('keep a writer for each of two collections whose objects begin with _id, written in turn', function () {
        const id = (i) => new bson.ObjectId(i.toString(16).padStart(24, '0'));
        const user = (i) => ({ _id: id(i), name: 'user' + i, email: 'u' + i + '@example.com', age: 20 + i, active: i % 3 === 0 });
        const order = (i) => ({ _id: id(2 * i), userId: id(i), total: 12.5 + i, status: 'open', qty: i });
        for (let round = 0; round < 4 * ROUNDS; round++) {
            for (const make of [() => user(round), () => order(round)]) {
                assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `round ${round}`);
            }
        }
        for (const doc of [user(1), order(1)]) {
            const slot = slotOf(Object.keys(doc));
            assert.strictEqual(typeof slot.writer, 'function', 'no writer for ' + Object.keys(doc));
            assert.deepStrictEqual(slot.keys, Object.keys(doc), 'the writer is of other keys');
        }
    });

    it('keep the encoder\'s cycle and depth errors, with their key paths', function () {
        const cyclic = () => {
            const doc = { a: 1, b: { c: 1, d: null } };
            doc.b.d = doc;
            return doc;
        };
        const make = () => ({ a: 1, b: { c: 1, d: 'x' } });
        for (let i = 0; i < ROUNDS; i++) qbson.encode(make());
        const err = outcome(cyclic);
        assert.strictEqual(err.code, 'ERR_BSON_CYCLE');
        assert.deepStrictEqual(err, outcome(cyclic, GENERIC));
        const deep = () => ({ x: 1, y: { x: 1, y: { x: 1, y: ['a'] } } });
        for (const maxDepth of [1, 2, 3]) assert.deepStrictEqual(outcome(deep, { maxDepth }), outcome(deep, { maxDepth, ...GENERIC }), `maxDepth ${maxDepth}`);
    });

    it('take any key as a literal: quotes, backslashes, line separators, __proto__, non-ASCII, long', function () {
        const hostile = ['"', "'", '\\', '`${process.exit(9)}`', '"]; process.exit(9); ["', '\u2028\u2029', '</script>', '__proto__', 'constructor', 'toString',
            'é日本😀', 'k'.repeat(300), '0', '1e3', 'ключ', '\ud800'];
        for (let i = 0; i + 1 < hostile.length; i++) {
            const make = () => JSON.parse(JSON.stringify({ [hostile[i]]: i, [hostile[i + 1]]: 'v', tail: [hostile[i]] }));
            sameEveryRound(make);
        }
    });

    it('compile no writer for shapes that each come back only after many others, and one for a shape as common as 1 in 32', function () {
        // maps of keys of their own (ids), encoded over and over in turn: each shape repeats,
        // but a writer per map would cost more than it saves
        const tag = 'rare' + Date.now();
        const maps = Array.from({ length: COMPILE_WITHIN / COMPILE_AFTER + 8 }, (_, m) => ({ [`${tag}-${m}-a`]: m, [`${tag}-${m}-b`]: 'x', [`${tag}-${m}-c`]: true }));
        for (let round = 0; round < 2 * COMPILE_AFTER; round++) {
            for (const map of maps) assert.deepStrictEqual(outcome(() => map), outcome(() => map, GENERIC), `round ${round}`);
        }
        for (const map of maps) assert.strictEqual(slotOf(Object.keys(map)).writer, null, 'a writer for ' + Object.keys(map)[0]);
        // a shape among 31 others that do not repeat (all in one slot) gets its writer
        const common = () => ({ [tag + '-common']: 1, b: 'x' });
        for (let i = 0; i < (COMPILE_AFTER + 1) * 32; i++) {
            if (i % 32 === 0) qbson.encode(common());
            else qbson.encode({ [tag + '-once']: i, ['b' + i]: 'x' });
        }
        assert.strictEqual(typeof slotOf(Object.keys(common())).writer, 'function');
    });

    it('hold at most SLOTS first keys, over a stream whose shape changes every object', function () {
        for (let i = 0; i < 3 * SLOTS; i++) {
            const make = () => ({ ['key' + i]: i, other: 'x', [i % 7 === 0 ? 'seven' : 'n' + i]: [i] });
            assert.deepStrictEqual(outcome(make), outcome(make, GENERIC), `object ${i}`);
            assert.ok(shapeWriter.slots.size <= SLOTS);
        }
    });

    // a child process that encodes ITEM 40 times (its writer compiled after 8) and reports
    // the bytes and whether its slot holds a writer; `prelude` runs after qbson is loaded
    function encodeInChild(flags, prelude) {
        const script = `const qbson = require('.');
            ${prelude}
            const make = () => ({ id: 7, name: 'Peter', ready: true, priority: 0, tags: ['a', 'b', 'c'] });
            const first = Buffer.from(qbson.encode(make())).toString('hex');
            for (let i = 0; i < 40; i++) if (Buffer.from(qbson.encode(make())).toString('hex') !== first) throw new Error('bytes differ at ' + i);
            const writers = require('./lib/shape-writer');
            const slot = writers.slots.get(writers.slotName(Object.keys(make())));
            console.log(JSON.stringify({ first, writer: slot.writer }));`;
        const res = spawnSync(process.execPath, [...flags, '-e', script], { cwd: __dirname + '/..', encoding: 'utf8' });
        assert.strictEqual(res.status, 0, res.stderr);
        const out = JSON.parse(res.stdout);
        assert.strictEqual(out.first, Buffer.from(bson.serialize(ITEM())).toString('hex'));
        assert.strictEqual(out.writer, null);
    }

    it('write the same bytes in a host whose Function throws EvalError', function () {
        // every module is loaded first: under nyc its hooks compile each module through Function
        encodeInChild([], "globalThis.Function = function () { throw new EvalError('code generation from strings disallowed'); };");
    });
    // nyc's coverage hooks, which every child of the test run gets, compile code from strings themselves
    const name = 'write the same bytes under node --disallow-code-generation-from-strings';
    if (process.env.NYC_PROCESS_ID !== undefined) it.skip(`${name} (skipped: under nyc, whose hooks cannot load in such a process)`);
    else it(name, () => encodeInChild(['--disallow-code-generation-from-strings'], ''));
});
