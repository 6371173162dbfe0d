'use strict';

// Objects built by constructors compiled for repeated key sequences (lib/shapes.js).

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const path = require('path');
const { spawnSync } = require('child_process');
const { normalize } = require('./support/normalize');
const { COMPILE_AFTER, MAX_SHAPE_FIELDS } = require('../lib/shapes');
const { makeRandom } = require('./support/fuzz');

// decoded often enough for every shape in it to be compiled, and checked each time
const ROUNDS = COMPILE_AFTER + 8;
// fields that make a document longer than one run of 16 elements, so that it is
// staged (ELEMENTS_PER_RUN in lib/decoder.js): "pad0": 0 ... "pad15": 15
const PADDING_FIELDS = 16;
const padding = () => Object.fromEntries(Array.from({ length: PADDING_FIELDS }, (_, i) => [`pad${i}`, i]));

function sameAsBsonEveryRound(bytes, opts) {
    const expected = normalize(bson.deserialize(bytes, opts));
    for (let round = 0; round < ROUNDS; round++) {
        assert.deepStrictEqual(normalize(qbson.decode(bytes, opts)), expected, `round ${round}`);
    }
}

// a document of the given keys, as bytes written by hand (duplicates kept), values
// int32 i, then the padding fields
function documentOfKeys(keys) {
    const all = keys.concat(Object.keys(padding()));
    const parts = all.map((key, i) => {
        const value = Buffer.alloc(4);
        value.writeInt32LE(i);
        return Buffer.concat([Buffer.from([0x10]), Buffer.from(key, 'utf8'), Buffer.from([0]), value]);
    });
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(4);
    head.writeInt32LE(body.length + 5);
    return Buffer.concat([head, body, Buffer.from([0])]);
}

describe('objects of repeated shapes', function () {
    it('are what bson gives, plain, with writable enumerable own fields in order, every time', function () {
        const bytes = Buffer.from(bson.serialize({ a: 1, b: 'two', c: { d: 3.5, e: [1, { f: null, g: true }], h: new Date(5), ...padding() }, i: 'end', ...padding() }));
        sameAsBsonEveryRound(bytes);
        const doc = qbson.decode(bytes);
        assert.strictEqual(Object.getPrototypeOf(doc), Object.prototype);
        assert.strictEqual(Object.getPrototypeOf(doc.c), Object.prototype);
        assert.strictEqual(doc.constructor, Object);
        assert.deepStrictEqual(Object.getOwnPropertyDescriptors(doc), Object.getOwnPropertyDescriptors(bson.deserialize(bytes)));
        doc.added = 1;
        delete doc.a;
        assert.deepStrictEqual(Object.keys(doc), ['b', 'c', 'i', ...Object.keys(padding()), 'added']);
    });

    it('keys that are not identifiers stay data: quotes, backslashes, line ends, code, numbers, Object.prototype names', function () {
        const HOSTILE = [
            '"', "'", '\\', '`', '${globalThis.qbsonShapeHit = 1}', '"]; globalThis.qbsonShapeHit = 1; //', "'); globalThis.qbsonShapeHit = 1; ('",
            '\n', '\r\n', '\u2028', '\u2029', '*/', '/*', '</script>', '', ' ', '0', '1', '-1', '1.5', '4294967295', '4294967294', '007',
            'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'this', 'values', 'base', 'ключ', '鍵', '😀', 'a\u0000b'.slice(0, 1),
        ];
        for (let i = 0; i < HOSTILE.length; i += 4) {
            const keys = HOSTILE.slice(i, i + 4);
            // each alone and with others, so that shapes of one and of several fields form
            sameAsBsonEveryRound(documentOfKeys(keys));
            sameAsBsonEveryRound(documentOfKeys([keys[0], 'x']));
        }
        assert.strictEqual(globalThis.qbsonShapeHit, undefined);
    });

    it('repeated and __proto__ keys decode as bson decodes them, Object.prototype untouched', function () {
        for (const keys of [['a', 'b', 'a'], ['a', 'a'], ['__proto__', 'x'], ['x', '__proto__', 'y'], ['__proto__', '__proto__']]) {
            const bytes = documentOfKeys(keys);
            const expected = bson.deserialize(bytes);
            for (let round = 0; round < ROUNDS; round++) {
                const doc = qbson.decode(bytes);
                assert.deepStrictEqual(Object.entries(doc), Object.entries(expected), keys.join());
                assert.strictEqual(Object.getPrototypeOf(doc), Object.prototype);
            }
        }
        assert.strictEqual(Object.prototype.x, undefined);
        assert.strictEqual({}.a, undefined);
    });

    it(`documents around 16 fields (where staging starts) and ${MAX_SHAPE_FIELDS} (the most a shape holds)`, function () {
        for (const count of [2, 15, 16, 17, 31, 32, 33, MAX_SHAPE_FIELDS - 1, MAX_SHAPE_FIELDS, MAX_SHAPE_FIELDS + 1, MAX_SHAPE_FIELDS + 16, 300]) {
            const doc = {};
            for (let i = 0; i < count; i++) doc[`f${i}`] = i % 3 === 0 ? { inner: i, more: [i] } : i % 3 === 1 ? `s${i}` : i;
            sameAsBsonEveryRound(Buffer.from(bson.serialize({ doc, after: 1 })));
        }
    });

    it('random nested documents of repeated shapes, with values that differ each round, match bson', function () {
        const random = makeRandom(20261123).next;
        const pick = (list) => list[Math.floor(random() * list.length)];
        const KEYS = ['a', 'b', 'id', 'name', 'value', 'x', 'y', 'tags', 'meta', 'ключ', 'k_with_a_longer_name', '0', '1'];
        const makeShape = (depth) => {
            const count = 1 + Math.floor(random() * 6);
            const shape = [];
            for (let i = 0; i < count; i++) {
                const kind = depth < 3 ? pick(['int', 'string', 'double', 'doc', 'array', 'null']) : pick(['int', 'string', 'null']);
                shape.push([pick(KEYS) + (random() < 0.3 ? i : ''), kind, kind === 'doc' || kind === 'array' ? makeShape(depth + 1) : null]);
            }
            return shape;
        };
        const fill = (shape) => {
            const doc = {};
            for (const [key, kind, inner] of shape) {
                if (kind === 'int') doc[key] = Math.floor(random() * 1000);
                else if (kind === 'string') doc[key] = 'v' + Math.floor(random() * 100);
                else if (kind === 'double') doc[key] = random() + 0.5;
                else if (kind === 'doc') doc[key] = fill(inner);
                else if (kind === 'array') doc[key] = [fill(inner), 1, fill(inner)];
                else doc[key] = null;
            }
            return random() < 0.5 ? Object.assign(doc, padding()) : doc;
        };
        for (let s = 0; s < 25; s++) {
            const shape = makeShape(0);
            for (let round = 0; round < ROUNDS; round++) {
                const bytes = Buffer.from(bson.serialize(fill(shape)));
                assert.deepStrictEqual(normalize(qbson.decode(bytes)), normalize(bson.deserialize(bytes)), `shape ${s} round ${round}`);
            }
        }
    });

    it('a setter on Object.prototype that decodes while a shape is built leaves both documents whole', function () {
        const inner = qbson.encode({ p: 1, q: 'two', r: { s: 3 } });
        const outer = qbson.encode({ a: 'before', b: { c: 1, d: 2 }, ...padding(), hook: 1, e: 'after', f: [1, 2] });
        const seen = [];
        Object.defineProperty(Object.prototype, 'hook', { set() { seen.push(qbson.decode(inner)); }, configurable: true });
        try {
            for (let round = 0; round < ROUNDS; round++) {
                const doc = qbson.decode(outer);
                assert.deepStrictEqual({ a: doc.a, b: doc.b, e: doc.e, f: doc.f }, { a: 'before', b: { c: 1, d: 2 }, e: 'after', f: [1, 2] });
            }
        } finally {
            delete Object.prototype.hook;
        }
        assert.strictEqual(seen.length, ROUNDS);
        for (const doc of seen) assert.deepStrictEqual(doc, { p: 1, q: 'two', r: { s: 3 } });
    });

    it('the values of a decoded document, or of one that failed, are not kept alive by the decoder', function () {
        // measured in a process of its own, which can collect garbage on demand
        const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
            const big = () => new qbson.Binary(Buffer.alloc(32 << 20, 7));
            const pad = ${JSON.stringify(padding())};
            const good = qbson.encode({ ...pad, a: big(), b: 1, c: 'x' });
            const one = qbson.encode({ a: big() });
            const bad = Buffer.from(qbson.encode({ ...pad, a: big(), b: 1, c: 'x' }));
            bad.writeInt32LE(1 << 30, bad.length - 7); // the string c's length: far too long
            const held = () => { global.gc(); global.gc(); return process.memoryUsage().arrayBuffers; };
            const before = held();
            const out = {};
            for (let i = 0; i < ${ROUNDS}; i++) qbson.decode(good);
            out.good = held() - before;
            qbson.decode(one);
            out.one = held() - before;
            try { qbson.decode(bad); } catch (err) { out.error = err.name; }
            out.bad = held() - before;
            console.log(JSON.stringify(out));`;
        const res = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
        assert.strictEqual(res.status, 0, res.stderr);
        const out = JSON.parse(res.stdout);
        assert.strictEqual(out.error, 'BSONError');
        // a decoded Binary kept alive would hold 32 MiB
        for (const what of ['good', 'one', 'bad']) assert.ok(out[what] < 16 << 20, `${what}: ${out[what]} bytes still held`);
    });

    describe('without code generation', function () {
        const pad = JSON.stringify(padding());
        const expected = { a: 1, b: { c: 'two', d: [3, { e: 4 }] }, ...padding() };
        // a process of its own: compiling stays off in it once refused
        function decodeInChild(flags, refuse) {
            const script = `const qbson = require(${JSON.stringify(path.join(__dirname, '..'))});
                const bytes = qbson.encode({ a: 1, b: { c: 'two', d: [3, { e: 4 }] }, ...${pad} });
                // loaded before Function is replaced: under nyc, whose hooks compile every module
                // loaded later through Function, the element scanner that learning a shape loads
                // would add refusals that are not the library's
                require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'elements'))});
                let refusals = 0;
                if (${refuse}) globalThis.Function = function Function() { refusals++; throw new EvalError('Code generation from strings disallowed for this context'); };
                let refused = false;
                try { new Function('return 1'); } catch (err) { refused = err instanceof EvalError; }
                const docs = [];
                for (let i = 0; i < ${ROUNDS}; i++) docs.push(qbson.decode(bytes));
                console.log(JSON.stringify({ refused, refusals, docs }));`;
            const res = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
            assert.strictEqual(res.status, 0, res.stderr);
            const out = JSON.parse(res.stdout);
            assert.ok(out.refused, 'the premise: this process refuses to compile code from strings');
            for (const doc of out.docs) assert.deepStrictEqual(doc, expected);
            return out;
        }
        it('a host that throws EvalError from Function gets the same documents, built key by key, and is asked once', function () {
            // the trial new Function('return 1') in the script is the first refusal
            assert.strictEqual(decodeInChild([], true).refusals, 2);
        });
        // nyc's coverage hooks, which every child of the test run gets, compile code from strings themselves
        const name = 'node --disallow-code-generation-from-strings gets the same documents';
        if (process.env.NYC_PROCESS_ID !== undefined) it.skip(`${name} (skipped: under nyc, whose hooks cannot load in such a process)`);
        else it(name, () => decodeInChild(['--disallow-code-generation-from-strings'], false));
    });

    it('a repeated shape comes to be built by its constructor: a map of its own, shared, fast', function () {
        const script = path.join(__dirname, 'fixtures', 'shape-maps.js');
        const res = spawnSync(process.execPath, ['--allow-natives-syntax', script, String(ROUNDS)], { encoding: 'utf8' });
        assert.strictEqual(res.status, 0, res.stderr);
        assert.deepStrictEqual(JSON.parse(res.stdout), { lastTwoShareAMap: true, firstHasAnother: true, fast: true });
    });
});
