'use strict';

// Hostile input, one named case per promise: decode never crashes, hangs or
// pollutes; encode never emits corrupt BSON. The mutation fuzzer (fuzz.test.js)
// covers the same contract at random; each failure it found is a case here.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const { DEFAULT_MAX_DEPTH } = require('../lib/constants');
const { nestedBytes, makeInput, inputRandom, corpusDocuments, generatedDocuments } = require('./support/fuzz');
const { VALUES, DEPARTURES } = require('./support/unrepresentable');
const { normalize } = require('./support/normalize');
const { run } = require('./support/run-async');

function hex(s) {
    return Buffer.from(s.replace(/\s+/g, ''), 'hex');
}

// A document of the given elements with its length word filled in.
function doc(...elements) {
    const body = Buffer.concat(elements.map((e) => (typeof e === 'string' ? hex(e) : e)));
    const out = Buffer.alloc(body.length + 5);
    out.writeInt32LE(out.length, 0);
    body.copy(out, 4);
    return out;
}

function int32(n) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n | 0);
    return b;
}

// Lengths a hostile producer might write in place of the right one.
function badLengths(right) {
    return [0, 1, 4, -1, -5, 0x7fffffff, -0x80000000, right - 1, right + 1, right + 4];
}

// any message: the offset is what assertDecodeError insists on
const ANY = /./;

function assertDecodeError(bytes, pattern, opts) {
    let caught;
    try {
        qbson.decode(bytes, opts);
    } catch (err) {
        caught = err;
    }
    assert.ok(caught instanceof qbson.BSONError, `expected a BSONError, got ${caught && caught.stack}`);
    assert.strictEqual(typeof caught.offset, 'number', caught.message);
    assert.ok(caught.message.includes(`offset ${caught.offset}`), caught.message);
    assert.match(caught.message, pattern);
    return caught;
}

describe('hostile input', function () {
    describe('every length checked before use', function () {
        it('document lengths: the root\'s and an embedded one\'s, each wrong value a BSONError', function () {
            const inner = doc('10 6200 01000000');
            for (const bad of badLengths(5)) {
                assertDecodeError(Buffer.concat([int32(bad), hex('00')]), /document/);
            }
            for (const bad of badLengths(inner.length)) {
                // some wrong lengths are caught by the length check, others by what they make of the bytes
                assertDecodeError(doc('03 6100', int32(bad), inner.subarray(4)), ANY);
                assertDecodeError(doc('04 6100', int32(bad), inner.subarray(4)), ANY);
            }
        });

        it('string, code, symbol and DBPointer lengths: 0, negative, huge, past the document, off by one', function () {
            for (const type of ['02', '0d', '0e', '0c']) {
                const tail = type === '0c' ? '00'.repeat(12) : '';
                for (const bad of badLengths(3)) {
                    assertDecodeError(doc(type, '6100', int32(bad), '616200', tail), ANY);
                }
                // the declared end is not a NUL
                assertDecodeError(doc(type, '6100', int32(3), '616263', tail), /not terminated|length/);
            }
        });

        it('binary lengths, and the inner length of subtype 2, checked against the document', function () {
            for (const bad of badLengths(2)) assertDecodeError(doc('05 6100', int32(bad), '00 6162'), ANY);
            assertDecodeError(doc('05 6100', int32(-1), '00 6162'), /binary length -1 is negative/);
            assertDecodeError(doc('05 6100', int32(0x7fffffff), '00 6162'), /binary length 2147483647 runs past/);
            assertDecodeError(doc('05 6100', int32(6), '02', int32(3), '6162'), /inner length 3 disagrees/);
            assertDecodeError(doc('05 6100', int32(6), '02', int32(-1), '6162'), /inner length -1 disagrees/);
            assertDecodeError(doc('05 6100', int32(3), '02 616263'), /no room for its inner length/);
        });

        it('code with scope: the total below 14, past the document, or not the sum of its parts', function () {
            const scope = doc('10 7800 01000000');
            const good = Buffer.concat([int32(4 + 4 + 2 + scope.length), int32(2), hex('6600'), scope]);
            assert.strictEqual(qbson.decode(doc('0f 6300', good)).c.scope.x, 1);
            for (const bad of badLengths(good.length)) {
                const bytes = doc('0f 6300', Buffer.concat([int32(bad), good.subarray(4)]));
                assertDecodeError(bytes, ANY);
            }
            // the string runs into the scope, the scope runs past the total
            assertDecodeError(doc('0f 6300', Buffer.concat([good.subarray(0, 4), int32(9), good.subarray(8)])), /code with scope/);
            const longScope = Buffer.from(scope);
            longScope.writeInt32LE(scope.length + 2, 0);
            assertDecodeError(doc('0f 6300', Buffer.concat([good.subarray(0, 10), longScope, hex('0000')])), /code with scope/);
        });

        it('booleans other than 0 and 1', function () {
            assert.deepStrictEqual(qbson.decode(doc('08 6100 01')), { a: true });
            for (const b of ['02', '7f', '80', 'ff']) assertDecodeError(doc('08 6100', b), /boolean byte must be 0 or 1/);
        });

        it('fixed-size values cut short inside their document', function () {
            for (const [type, size] of [['01', 8], ['07', 12], ['09', 8], ['10', 4], ['11', 8], ['12', 8], ['13', 16]]) {
                assertDecodeError(doc(type, '6100', '00'.repeat(size - 1)), /needs \d+ bytes/);
            }
        });

        it('no allocation larger than the input, whatever its length fields say', function () {
            const seeds = corpusDocuments().concat(generatedDocuments(7, 50));
            const largest = { size: 0, input: null };
            const original = { allocUnsafe: Buffer.allocUnsafe, alloc: Buffer.alloc, from: Buffer.from };
            let input = null;
            const spy = (name) =>
                function (size, ...rest) {
                    if (input !== null && typeof size === 'number' && size > largest.size) Object.assign(largest, { size, input });
                    return original[name].call(Buffer, size, ...rest);
                };
            Buffer.allocUnsafe = spy('allocUnsafe');
            Buffer.alloc = spy('alloc');
            try {
                for (let i = 0; i < 3000; i++) {
                    const bytes = makeInput(inputRandom(99, i), seeds, []);
                    input = bytes;
                    for (const opts of [{}, { promoteBuffers: true }, { validation: { utf8: false } }]) {
                        try {
                            qbson.decode(bytes, opts);
                        } catch (err) {
                            assert.ok(err instanceof qbson.BSONError, err.stack);
                        }
                    }
                    input = null;
                    if (largest.input === bytes && largest.size > bytes.length) break;
                }
            } finally {
                Object.assign(Buffer, { allocUnsafe: original.allocUnsafe, alloc: original.alloc });
            }
            assert.ok(largest.size > 0, 'the spy saw no allocation');
            assert.ok(largest.size <= largest.input.length, `allocated ${largest.size} bytes for an input of ${largest.input && largest.input.length}`);
        });

        it('decodeStream allocates at most maxDocumentSize for a declared length, and refuses more', run(async () => {
            const collect = async (chunks, opts) => {
                const docs = [];
                try {
                    for await (const d of qbson.decodeStream(chunks, opts)) docs.push(d);
                } catch (err) {
                    return err;
                }
                return docs;
            };
            let err = await collect([int32(0x7fffffff), hex('00')]);
            assert.ok(err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_LARGE' && err.offset === 0, String(err));
            err = await collect([qbson.encode({ a: 1 }), int32(2000), hex('00')], { maxDocumentSize: 1000 });
            assert.ok(err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_LARGE' && err.offset === 12, String(err));
            err = await collect([int32(-1)]);
            assert.ok(err instanceof qbson.BSONError && err.code === 'ERR_BSON_CORRUPT', String(err));
        }));
    });

    describe('no prototype pollution', function () {
        const DANGEROUS = ['__proto__', 'constructor', 'prototype'];

        function assertOwnData(obj, key, what) {
            const desc = Object.getOwnPropertyDescriptor(obj, key);
            assert.ok(desc && 'value' in desc && desc.enumerable && desc.writable, `${what}: ${key} is not an own data property`);
        }

        function assertUntouched() {
            assert.strictEqual({}.polluted, undefined);
            assert.strictEqual(Object.prototype.polluted, undefined);
            assert.strictEqual([].polluted, undefined);
            assert.strictEqual(typeof {}.toString, 'function');
        }

        // {key: {polluted: 1, toString: 1}} for each dangerous key, written byte by byte
        function pollutingBytes() {
            const payload = doc('10 706f6c6c7574656400 01000000', '10 746f537472696e6700 01000000');
            return DANGEROUS.map((key) => doc('03', Buffer.from(key + '\0'), payload));
        }

        it('__proto__, constructor and prototype keys become own data properties; Object.prototype is untouched', function () {
            for (const bytes of pollutingBytes()) {
                for (const opts of [{}, { promoteValues: false }, { validation: { utf8: false } }]) {
                    const out = qbson.decode(bytes, opts);
                    const key = Object.keys(out)[0];
                    assertOwnData(out, key, 'decode');
                    assert.strictEqual(Object.getPrototypeOf(out), Object.prototype);
                    assert.strictEqual(Number(out[key].polluted), 1);
                    assertUntouched();
                }
                assertUntouched();
            }
        });

        it('at any depth, in arrays, in DBRef fields and in code scopes', function () {
            for (const key of DANGEROUS) {
                const value = JSON.parse(`{"${key}": {"polluted": 1}}`);
                const wrapped = {
                    deep: { a: [{ b: value }] },
                    ref: { $ref: 'c', $id: 1, ...value },
                    scope: new qbson.Code('f', value),
                };
                // object spread would not copy __proto__ as a key
                Object.defineProperty(wrapped.ref, key, { value: value[key], enumerable: true, writable: true, configurable: true });
                const out = qbson.decode(qbson.encode(wrapped));
                assertOwnData(out.deep.a[0].b, key, 'nested');
                assert.ok(out.ref instanceof qbson.DBRef);
                assertOwnData(out.ref.fields, key, 'DBRef fields');
                assert.strictEqual(Object.getPrototypeOf(out.ref.fields), Object.prototype);
                assertOwnData(out.scope.scope, key, 'code scope');
                assert.strictEqual(Object.getPrototypeOf(out.scope.scope), Object.prototype);
                assertUntouched();
            }
        });

        it('a DBRef\'s __proto__ field is written back, not lost to Object.assign (bson drops it)', function () {
            // found by the fuzzer: re-encoding a decoded DBRef lost the field
            for (const [type, payload] of [['02', '02000000 7800'], ['03', '0c000000 10 7800 01000000 00']]) {
                const bytes = doc('03 7200', doc('02 2472656600 02000000 6300', '10 2469640001000000', type, Buffer.from('__proto__\0'), payload));
                const out = qbson.decode(bytes);
                assert.ok(out.r instanceof qbson.DBRef);
                assertOwnData(out.r.fields, '__proto__', 'DBRef fields');
                assert.strictEqual(qbson.encode(out).toString('hex'), bytes.toString('hex'));
                assert.strictEqual(qbson.calculateObjectSize(out), bytes.length);
                assertUntouched();
            }
        });

        it('EJSON.parse keeps them own properties too, wrappers and DBRefs included', function () {
            for (const key of DANGEROUS) {
                const text = `{"${key}": {"polluted": {"$numberInt": "1"}}, "r": {"$ref": "c", "$id": 1, "${key}": {"polluted": 1}}}`;
                for (const relaxed of [true, false]) {
                    const out = qbson.EJSON.parse(text, { relaxed });
                    assertOwnData(out, key, 'EJSON.parse');
                    assert.strictEqual(Object.getPrototypeOf(out), Object.prototype);
                    assertOwnData(out.r.fields, key, 'EJSON DBRef fields');
                    assert.strictEqual(qbson.EJSON.stringify(out).includes(`"${key}"`), true);
                    assertUntouched();
                }
            }
        });

        it('decoded documents are plain objects: Object.prototype, own enumerable data properties only', function () {
            const bytes = qbson.encode({ a: { b: [{ c: 1 }] }, s: new qbson.Code('f', { x: {} }) });
            const out = qbson.decode(bytes);
            for (const o of [out, out.a, out.a.b[0], out.s.scope, out.s.scope.x]) {
                assert.strictEqual(Object.getPrototypeOf(o), Object.prototype);
                for (const key of Reflect.ownKeys(o)) assertOwnData(o, key, 'plain');
            }
            assert.strictEqual(Object.getPrototypeOf(out.a.b), Array.prototype);
        });
    });

    describe('stored code is never evaluated', function () {
        const CODE = 'function () { globalThis.qbsonEvaluated = true; return 1; }';

        it('Code stays Code under every option, bson\'s old evalFunctions included', function () {
            const bytes = qbson.encode({ c: new qbson.Code(CODE), s: new qbson.Code(CODE, { x: 1 }), f: () => 1 }, { serializeFunctions: true });
            const optionSets = [{}, { evalFunctions: true }, { evalFunctions: true, cacheFunctions: true }, { serializeFunctions: true }, { promoteValues: false }];
            for (const opts of optionSets) {
                const out = qbson.decode(bytes, opts);
                assert.ok(out.c instanceof qbson.Code && typeof out.c.code === 'string', JSON.stringify(opts));
                assert.ok(out.s instanceof qbson.Code && Number(out.s.scope.x) === 1);
                assert.ok(out.f instanceof qbson.Code && out.f.code === '() => 1');
            }
            const parsed = qbson.EJSON.parse(qbson.EJSON.stringify({ c: new qbson.Code(CODE) }), { evalFunctions: true });
            assert.ok(parsed.c instanceof qbson.Code);
            assert.strictEqual(globalThis.qbsonEvaluated, undefined);
        });

        it('the library evaluates no code but the decoder\'s shape constructors and shape readers and the schema codecs\' generated code, whose only input from data is keys as string literals and numbers', function () {
            const fs = require('fs');
            const path = require('path');
            const files = [];
            const walkDir = (dir) => {
                for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
                    const full = path.join(dir, entry.name);
                    if (entry.isDirectory()) walkDir(full);
                    else if (/\.(js|mjs)$/.test(entry.name)) files.push(full);
                }
            };
            const root = path.join(__dirname, '..');
            walkDir(path.join(root, 'lib'));
            files.push(path.join(root, 'index.js'), path.join(root, 'index.mjs'));
            assert.ok(files.length > 10);
            const CODE_FROM_STRINGS = /\beval\s*\(|new\s+Function\b|\bFunction\s*\(|require\(['"](node:)?vm['"]\)|evalFunctions/;
            const shapes = path.join(root, 'lib', 'shapes.js');
            // the schema codecs' code generator: one new Function, its input checked by
            // test/schema.test.js (no schema text in the source outside JSON literals and numbers)
            const schemaGenerator = path.join(root, 'lib', 'schema', 'generate.js');
            assert.ok(files.includes(shapes));
            assert.ok(files.includes(schemaGenerator));
            assert.strictEqual(fs.readFileSync(schemaGenerator, 'utf8').match(/new\s+Function\b/g).length, 1, schemaGenerator);
            for (const file of files) {
                const source = fs.readFileSync(file, 'utf8');
                if (file === schemaGenerator) continue;
                if (file !== shapes) {
                    assert.doesNotMatch(source, CODE_FROM_STRINGS, file);
                    continue;
                }
                // lib/shapes.js compiles one constructor per repeated key sequence; what goes
                // into its source is each key as a JSON string literal and each key's index
                // (test/shapes.test.js decodes keys made to break out of a literal)
                assert.strictEqual(source.match(/new\s+Function\b/g).length, 1, file);
                assert.deepStrictEqual(source.match(/\$\{[^}]*\}/g), ['${JSON.stringify(keys[i])}', '${i}'], file);
                assert.doesNotMatch(source.replace(/new\s+Function\b/, ''), CODE_FROM_STRINGS, file);
            }
            // lib/shape-reader.js compiles its readers through lib/shapes.js; into their source
            // go each key as a JSON string literal, and numbers: bytes of the input (type and
            // key bytes), positions, counters and the bits of optional fields, and names and expressions made of those
            // (the arguments of the object a constructor keeps: standIns)
            const readers = fs.readFileSync(path.join(root, 'lib', 'shape-reader.js'), 'utf8');
            assert.deepStrictEqual([...new Set(readers.match(/\$\{[^}]*\}/g))].sort(), ['${JSON.stringify(f.key)}', '${C.BSON_NULL}', '${C.BINARY_OLD}', "${args.join(', ')}",
                '${at}', '${bits[i]}', '${bytes.length + 1}', '${bytes[i]}', '${ctor}', '${depth}', '${end}', '${f.bytes.length + 2}', '${f.type}', '${i + 1}', '${id}', '${i}',
                '${keyTest(f)}', '${name}', '${root}', '${sub}', '${type}', '${bit}', '${standIns}'].sort());
            // lib/shape-writer.js likewise: each key as a JSON string literal (name), and numbers:
            // the key's UTF-8 bytes, lengths and indexes, and the lines made of those
            const writers = fs.readFileSync(path.join(root, 'lib', 'shape-writer.js'), 'utf8');
            assert.deepStrictEqual([...new Set(writers.match(/\$\{[^}]*\}/g))].sort(), ['${b}', '${body}', '${fit(`${room + 5}', '${fit(room + 1)}', '${fit(room + 12)}',
                '${fit(room + 4)}', '${fit(room + 8)}', '${fit(room)}', "${guard.join(' || ')}", '${header + 1}', '${header}', '${i}', '${j + 1}', '${keyBytes.length}',
                '${keys.length}', '${key}', "${lines.join('\\n')}", '${name}', '${n}', '${other}', '${subs.length - 1}', '${sub}'].sort());
            assert.match(writers, /const name = JSON\.stringify\(keys\[i\]\);/);
        });

        it('serializeFunctions only changes what encode writes', function () {
            const value = { f: function f() {}, c: new qbson.Code('x') };
            assert.deepStrictEqual(Object.keys(qbson.decode(qbson.encode(value))), ['c']);
            assert.deepStrictEqual(Object.keys(qbson.decode(qbson.encode(value, { serializeFunctions: true }))), ['f', 'c']);
            assert.strictEqual(qbson.calculateObjectSize(value, { serializeFunctions: true }), qbson.encode(value, { serializeFunctions: true }).length);
        });
    });

    describe('where bson@7.3.4 fails, qbson does not', function () {
        it('a stored regex JavaScript cannot compile: a BSONError at its offset pointing at bsonRegExp: true', function () {
            for (const pattern of ['(', '[', 'a{2,1}', '\\', '(?<n>a)(?<n>b)']) {
                const bytes = qbson.encode({ r: new qbson.BSONRegExp(pattern, 'i') });
                assert.throws(() => bson.deserialize(bytes), SyntaxError);
                const err = assertDecodeError(bytes, /bsonRegExp: true/);
                assert.strictEqual(err.offset, 7);
                assert.strictEqual(err.code, 'ERR_BSON_REGEXP');
                assert.strictEqual(qbson.decode(bytes, { bsonRegExp: true }).r.pattern, pattern);
            }
        });

        it('an int64 cut off at the end of the buffer, with useBigInt64', function () {
            const bytes = hex('0d000000 12 6100 01000000 0000');
            assert.throws(() => bson.deserialize(bytes, { useBigInt64: true }), RangeError);
            for (const opts of [{ useBigInt64: true }, {}, { promoteLongs: false }]) assertDecodeError(bytes, /int64 needs 8 bytes/, opts);
        });

        it('documents above bson\'s 17 MiB buffer are encoded exactly, never truncated', function () {
            const big = { s: 'x'.repeat(18 * 1024 * 1024) };
            const truncated = bson.serialize(big);
            assert.ok(truncated.length < qbson.calculateObjectSize(big), 'bson truncates');
            assert.throws(() => bson.serialize({ s: big.s, n: 1 }), RangeError);
            for (const value of [big, { s: big.s, n: 1 }]) {
                const bytes = qbson.encode(value);
                assert.strictEqual(bytes.length, qbson.calculateObjectSize(value));
                assert.strictEqual(bytes.readInt32LE(0), bytes.length);
                assert.strictEqual(qbson.decode(bytes).s, big.s);
            }

            const binaries = { a: Buffer.alloc(10 * 1024 * 1024, 1), b: Buffer.alloc(10 * 1024 * 1024, 2) };
            assert.throws(() => bson.serialize(binaries), RangeError);
            const out = qbson.decode(qbson.encode(binaries));
            assert.strictEqual(out.b.length(), 10 * 1024 * 1024);
            assert.strictEqual(out.b.buffer[10 * 1024 * 1024 - 1], 2);
        });

        it('or refused with a BSONError above an explicit maxDocumentSize, by encode and encodeInto', function () {
            const big = { s: 'x'.repeat(18 * 1024 * 1024) };
            for (const encode of [(opts) => qbson.encode(big, opts), (opts) => qbson.encodeInto(big, Buffer.alloc(20 * 1024 * 1024), 0, opts)]) {
                assert.throws(
                    () => encode({ maxDocumentSize: 16 * 1024 * 1024 }),
                    (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_LARGE'
                );
            }
            assert.strictEqual(qbson.encode(big, { maxDocumentSize: 19 * 1024 * 1024 }).length, qbson.calculateObjectSize(big));
        });

        it('BSONRegExp options holding a NUL: bson writes corrupt bytes, qbson refuses', function () {
            const theirs = new bson.BSONRegExp('a', 'i');
            theirs.options = 'i\u0000';
            const corrupt = Buffer.from(bson.serialize({ r: theirs }));
            assert.throws(() => qbson.decode(corrupt), qbson.BSONError);
            assert.throws(() => qbson.encode({ r: theirs }), /flags must not contain null bytes at key path 'r'/);
        });
    });

    describe('what encode refuses', function () {
        function assertEncodeError(value, pattern, opts) {
            assert.throws(() => qbson.encode(value, opts), (err) => err instanceof qbson.BSONError && pattern.test(err.message));
        }

        it('keys containing NUL: short and long, nested, in Maps and in DBRef fields', function () {
            const long = 'k'.repeat(100) + '\u0000';
            assertEncodeError({ 'a\u0000b': 1 }, /key must not contain null bytes/);
            assertEncodeError({ [long]: 1 }, /key must not contain null bytes/);
            assertEncodeError({ x: { y: { 'z\u0000': 1 } } }, /null bytes at key path 'x\.y\.z/);
            assertEncodeError({ m: new Map([['\u0000', 1]]) }, /null bytes at key path 'm\./);
            assertEncodeError({ r: new qbson.DBRef('c', 1, undefined, { 'f\u0000': 1 }) }, /null bytes/);
            assert.throws(() => bson.serialize({ 'a\u0000b': 1 }), bson.BSONError);
        });

        it('a key is checked even when its value is skipped (undefined, a Symbol, a function), as bson checks it', function () {
            // found by the fuzzer: the skipped value's key was never looked at
            for (const value of [undefined, Symbol('s'), () => 1]) {
                for (const [key, opts] of [['a\u0000', {}], ['$x', { checkKeys: true }], ['a.b', { checkKeys: true }]]) {
                    for (const wrap of [(d) => d, (d) => ({ m: new Map(Object.entries(d)) })]) {
                        const doc = wrap({ [key]: value });
                        assert.throws(() => bson.serialize(doc, opts), bson.BSONError);
                        assertEncodeError(doc, /must not/, opts);
                    }
                }
                // arrays have no keys to check; a plain key stays skipped
                assert.deepStrictEqual(qbson.encode({ a: [1], b: value }, { checkKeys: true }), Buffer.from(bson.serialize({ a: [1], b: value }, { checkKeys: true })));
            }
        });

        it('checkKeys: $-prefixed and dotted keys, exactly where bson refuses them, whatever the value', function () {
            const keys = ['$a', 'a.b', '.', '$', 'a$', '$$', '$ref', '$id', '$db', '$clusterTime', '$ref.x', 'plain'];
            const id = new qbson.ObjectId('0123456789abcdef01234567');
            const values = [
                1, 1.5, 2n ** 40n, 'x', true, null, new Date(0), /a/i, Buffer.from('b'), [1], { y: 1 }, new Map([['y', 1]]),
                new qbson.DBRef('c', id), new qbson.DBRef('users', id, 'db', { extra: 0 }), new bson.DBRef('c', 1),
                { toBSON: () => ({ y: 1 }) }, { toBSON: () => new qbson.DBRef('c', id) }, { toBSON: () => 5 },
                new qbson.Code('f()', { y: 1 }), new qbson.Code('f()'), id, qbson.Long.fromNumber(5), new qbson.Int32(1),
                new qbson.Double(1), new qbson.Decimal128('1'), new qbson.Binary(Buffer.from('b'), 0x80), new qbson.UUID(),
                new qbson.Timestamp({ t: 1, i: 2 }), new qbson.BSONRegExp('a', 'i'), new qbson.BSONSymbol('s'),
                new qbson.MinKey(), new qbson.MaxKey(),
            ];
            for (const key of keys) {
                const places = (v) => [{ [key]: v }, { x: { [key]: v } }, { x: [{ [key]: v }] }, { m: new Map([[key, v]]) }, { x: { toBSON: () => ({ [key]: v }) } }];
                for (const value of values.flatMap(places)) {
                    let theirs;
                    try {
                        theirs = Buffer.from(bson.serialize(value, { checkKeys: true })).toString('hex');
                    } catch (err) {
                        assert.ok(err instanceof bson.BSONError);
                        assertEncodeError(value, /must not/, { checkKeys: true });
                        continue;
                    }
                    assert.strictEqual(qbson.encode(value, { checkKeys: true }).toString('hex'), theirs, key);
                }
            }
        });

        it('a cycle, with its path: through objects, arrays, Maps, code scopes, DBRefs and toBSON', function () {
            const cycles = {
                object: [() => { const d = { a: { b: {} } }; d.a.b.c = d.a; return d; }, 'a.b.c'],
                array: [() => { const d = { a: [1] }; d.a.push(d.a); return d; }, 'a.1'],
                map: [() => { const m = new Map(); m.set('self', m); return { m }; }, 'm.self'],
                scope: [() => { const scope = {}; scope.c = new qbson.Code('f', scope); return { c: scope.c }; }, 'c.c'],
                // a DBRef's document is built afresh on each visit: it used to run into maxDepth instead
                dbrefFields: [() => { const r = new qbson.DBRef('c', 1); r.fields.r = r; return { r }; }, 'r.r'],
                dbrefId: [() => { const d = {}; d.r = new qbson.DBRef('c', d); return d; }, 'r.$id'],
                toBSON: [() => { const d = { x: { toBSON: () => d } }; return d; }, 'x'],
            };
            for (const [name, [make, path]] of Object.entries(cycles)) {
                assert.throws(
                    () => qbson.encode(make()),
                    (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_CYCLE' && err.path === path && err.message.includes(`'${path}'`),
                    name
                );
                assert.throws(() => qbson.calculateObjectSize(make()), (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_CYCLE', name);
            }
        });

        it('regular expression sources and flags containing NUL', function () {
            assertEncodeError({ r: new RegExp('a\u0000b') }, /pattern must not contain null bytes at key path 'r'/);
            assertEncodeError({ r: new RegExp('x'.repeat(80) + '\u0000') }, /pattern must not contain null bytes/);
            const re = new qbson.BSONRegExp('a', 'i');
            re.pattern = 'a\u0000';
            assertEncodeError({ r: re }, /pattern must not contain null bytes/);
            assert.throws(() => bson.serialize({ r: new RegExp('a\u0000b') }), bson.BSONError);
        });

        it('string, Code and symbol values keep their NULs, byte for byte as bson', function () {
            const value = { s: 'a\u0000b', l: 'y'.repeat(80) + '\u0000', c: new bson.Code('x\u0000y'), w: new bson.Code('z\u0000', { k: 'v\u0000' }), y: new bson.BSONSymbol('q\u0000') };
            const bytes = qbson.encode(value);
            assert.strictEqual(bytes.toString('hex'), Buffer.from(bson.serialize(value)).toString('hex'));
            const back = qbson.decode(bytes, { promoteValues: false });
            assert.strictEqual(back.s, 'a\u0000b');
            assert.strictEqual(back.c.code, 'x\u0000y');
            assert.strictEqual(back.w.scope.k, 'v\u0000');
            assert.strictEqual(back.y.value, 'q\u0000');
        });

        it('lone surrogates, in keys and values, short and long, encode as bson encodes them', function () {
            for (const s of ['\ud800', '\udc00', 'a\ud800b', '\udc00\ud800', '\ud83d', 'x'.repeat(70) + '\ud800', '\ud800'.repeat(40), '\ud83d\ude00']) {
                const value = { [s]: s, c: new bson.Code(s), y: new bson.BSONSymbol(s), r: new bson.BSONRegExp(s, 'i'), w: new bson.Code(s, { [s]: s }) };
                const bytes = qbson.encode(value);
                assert.strictEqual(bytes.toString('hex'), Buffer.from(bson.serialize(value)).toString('hex'), JSON.stringify(s));
                assert.strictEqual(qbson.calculateObjectSize(value), bytes.length);
                // the replacement is valid UTF-8: the default decode accepts it
                assert.ok(qbson.decode(bytes));
            }
        });

        it('calculateObjectSize counts the functions inside a DBRef that serializeFunctions writes', function () {
            // found by the fuzzer: the size of a DBRef's document left its functions out
            const opts = { serializeFunctions: true };
            for (const value of [{ r: new qbson.DBRef('c', 1, undefined, { f() {} }) }, { r: new qbson.DBRef('c', { g: () => 2 }) }]) {
                const bytes = qbson.encode(value, opts);
                assert.strictEqual(bytes.toString('hex'), Buffer.from(bson.serialize(value, opts)).toString('hex'));
                assert.strictEqual(qbson.calculateObjectSize(value, opts), bytes.length);
                assert.strictEqual(qbson.calculateObjectSize(value), qbson.encode(value).length);
            }
        });

        it('values BSON cannot represent behave as in bson (see docs/robustness.md)', function () {
            for (const { name, make } of VALUES) {
                const run = (lib, encode) => {
                    try {
                        return { hex: Buffer.from(encode({ v: make(lib) })).toString('hex') };
                    } catch (err) {
                        return { error: err };
                    }
                };
                const theirs = run(bson, (v) => bson.serialize(v));
                const ours = run(qbson, (v) => qbson.encode(v));
                if (ours.error !== undefined) assert.ok(ours.error instanceof qbson.BSONError, `${name}: ${ours.error.stack}`);
                else assert.strictEqual(qbson.calculateObjectSize({ v: make(qbson) }), ours.hex.length / 2, name);
                if (DEPARTURES[name] !== undefined) {
                    assert.notDeepStrictEqual(ours, theirs, `${name} is listed as a departure but matches bson`);
                } else if (theirs.error !== undefined) {
                    assert.ok(ours.error !== undefined, `${name}: bson throws ${theirs.error.message}, qbson does not`);
                } else {
                    assert.strictEqual(ours.hex, theirs.hex, name);
                }
            }
        });
    });

    describe('regular expressions', function () {
        it('options bson does not know, with bsonRegExp: a BSONError at the options\' offset', function () {
            // found by the fuzzer: BSONRegExp's own check threw without an offset
            const bytes = doc('0b 6100 6100 6300');
            const err = assertDecodeError(bytes, /regular expression options "c"/, { bsonRegExp: true });
            assert.strictEqual(err.offset, 9);
            assert.throws(() => bson.deserialize(bytes, { bsonRegExp: true }), bson.BSONError);
            // without bsonRegExp the unknown option is dropped, as bson drops it
            assert.strictEqual(qbson.decode(bytes).a.flags, bson.deserialize(bytes).a.flags);
        });
    });
    describe('UTF-8', function () {
        // overlong, surrogate halves, past U+10FFFF, cut short, stray continuation, 0xFF
        const BAD = ['c080', 'eda080', 'edbfbf', 'f4908080', 'e282', 'f09f98', '80', 'ff', 'fe', 'c3', 'e0a0', 'f8888080'];

        function stringDoc(bytes) {
            const len = Buffer.alloc(4);
            len.writeInt32LE(bytes.length + 1);
            return doc('02 7300', len, bytes, '00');
        }

        it('invalid UTF-8 in a string value is a BSONError at the string by default', function () {
            for (const bad of BAD) {
                for (const pad of [0, 40]) {
                    const bytes = stringDoc(Buffer.concat([Buffer.alloc(pad, 0x61), hex(bad)]));
                    const err = assertDecodeError(bytes, /invalid UTF-8/);
                    assert.strictEqual(err.offset, 11, bad);
                }
            }
        });

        it('with validation.utf8 false, string values decode exactly as bson decodes them', function () {
            for (const bad of BAD) {
                for (const pad of [0, 40]) {
                    const bytes = stringDoc(Buffer.concat([Buffer.alloc(pad, 0x61), hex(bad), hex('62')]));
                    const opts = { validation: { utf8: false } };
                    assert.strictEqual(qbson.decode(bytes, opts).s, bson.deserialize(bytes, opts).s, bad);
                }
            }
        });

        it('an invalid key is an error by default, where bson (which never validates keys) decodes it', function () {
            const bytes = doc('10 61ff00 01000000');
            assertDecodeError(bytes, /invalid UTF-8 in key/);
            const theirs = Object.keys(bson.deserialize(bytes));
            assert.deepStrictEqual(Object.keys(qbson.decode(bytes, { validation: { utf8: false } })), theirs);
            assert.deepStrictEqual(theirs, ['a\ufffd']);
        });

        it('a regex follows the validation setting of its key, as strings do', function () {
            // the regex used to take the global setting, whatever its key
            const bytes = doc('0b 6200 61ff00 6900', '02 6300 03000000 61ff00');
            const opts = { validation: { utf8: { a: true } } };
            const ours = qbson.decode(bytes, opts);
            const theirs = bson.deserialize(bytes, opts);
            assert.strictEqual(ours.b.source, theirs.b.source);
            assert.strictEqual(ours.c, theirs.c);
            assertDecodeError(bytes, /invalid UTF-8/, { validation: { utf8: { b: true } } });
        });
    });
    describe('nesting depth', function () {
        function nested(depth, wrap) {
            let value = {};
            for (let i = 0; i < depth; i++) value = wrap(value);
            return value;
        }
        const asDocument = (v) => ({ a: v });
        const asArray = (v) => [v];

        function assertClean(fn, code) {
            let caught;
            try {
                fn();
            } catch (err) {
                caught = err;
            }
            assert.ok(caught instanceof qbson.BSONError, `expected a BSONError, got ${caught && caught.stack}`);
            if (code) assert.strictEqual(caught.code, code, caught.message);
            return caught;
        }

        it('the default bound is comfortably above the server\'s 100 levels, the same for decode and encode', function () {
            assert.ok(DEFAULT_MAX_DEPTH >= 2 * 100, `maxDepth ${DEFAULT_MAX_DEPTH}`);
            const atLimit = nested(DEFAULT_MAX_DEPTH, asDocument);
            const bytes = qbson.encode(atLimit);
            assert.strictEqual(qbson.calculateObjectSize(atLimit), bytes.length);
            assert.deepStrictEqual(bytes, nestedBytes(DEFAULT_MAX_DEPTH));
            assert.ok(qbson.decode(bytes));
            assert.ok(qbson.EJSON.parse(qbson.EJSON.stringify(atLimit)));
            const past = nested(DEFAULT_MAX_DEPTH + 1, asDocument);
            assertClean(() => qbson.encode(past));
            assertClean(() => qbson.calculateObjectSize(past), 'ERR_BSON_TOO_DEEP');
            assertDecodeError(nestedBytes(DEFAULT_MAX_DEPTH + 1), /maxDepth/);
            assertClean(() => qbson.EJSON.stringify(past), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.parse(JSON.stringify(past)), 'ERR_BSON_TOO_DEEP');
        });

        it('the default bound is far below a stack overflow: twice as deep still works when allowed', function () {
            // measured on Node 20 with its default stack: encode overflows near 1,650 levels, decode near 2,800
            const depth = 2 * DEFAULT_MAX_DEPTH;
            const value = nested(depth, asDocument);
            const opts = { maxDepth: depth };
            const bytes = qbson.encode(value, opts);
            assert.strictEqual(qbson.calculateObjectSize(value, opts), bytes.length);
            assert.ok(qbson.decode(bytes, opts));
            assert.ok(qbson.EJSON.parse(qbson.EJSON.stringify(value, opts), opts));
        });

        it('100,000 levels: decode of documents, arrays and code scopes is a BSONError', function () {
            assertDecodeError(nestedBytes(100000), /maxDepth/);
            assertDecodeError(nestedBytes(100000, true), /maxDepth/);
            assert.throws(() => qbson.decodeAll(nestedBytes(100000)), qbson.BSONError);
            const scopes = qbson.encode({ c: nested(DEFAULT_MAX_DEPTH, (v) => new qbson.Code('f', { s: v })) }, { maxDepth: 2 * DEFAULT_MAX_DEPTH });
            assertDecodeError(scopes, /maxDepth/);
        });

        it('100,000 levels: encode and calculateObjectSize of objects, arrays, Maps, scopes, DBRefs and toBSON chains', function () {
            const chains = {
                document: nested(100000, asDocument),
                array: { a: nested(100000, asArray) },
                map: { a: nested(100000, (v) => new Map([['m', v]])) },
                scope: { a: nested(100000, (v) => new qbson.Code('f', { s: v })) },
                dbref: { a: nested(100000, (v) => new qbson.DBRef('c', v)) },
                toBSON: { a: nested(100000, (v) => ({ toBSON: () => ({ t: v }) })) },
            };
            for (const [name, value] of Object.entries(chains)) {
                const err = assertClean(() => qbson.encode(value));
                assert.match(err.message, /maxDepth/, name);
                assertClean(() => qbson.calculateObjectSize(value), 'ERR_BSON_TOO_DEEP');
            }
        });

        it('100,000 levels: EJSON.parse, stringify, serialize and deserialize', function () {
            const text = '{"a":'.repeat(100000) + '1' + '}'.repeat(100000);
            assertClean(() => qbson.EJSON.parse(text), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.parse('['.repeat(100000) + ']'.repeat(100000)), 'ERR_BSON_TOO_DEEP');
            const value = nested(100000, asDocument);
            assertClean(() => qbson.EJSON.stringify(value), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.serialize(value), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.deserialize(JSON.parse(text)), 'ERR_BSON_TOO_DEEP');
        });

        it('a maxDepth beyond what the call stack holds still fails cleanly, never with a RangeError', function () {
            const opts = { maxDepth: 1e9 };
            const err = assertDecodeError(nestedBytes(100000), /call stack/, opts);
            assert.strictEqual(err.code, 'ERR_BSON_TOO_DEEP');
            assert.throws(() => qbson.decodeAll(nestedBytes(100000), opts), /call stack/);
            const value = nested(100000, asDocument);
            assertClean(() => qbson.encode(value, opts), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.encodeInto(value, Buffer.alloc(10), 0, opts), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.calculateObjectSize(value, opts), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.stringify(value, opts), 'ERR_BSON_TOO_DEEP');
            assertClean(() => qbson.EJSON.parse('{"a":'.repeat(100000) + '1' + '}'.repeat(100000), opts), 'ERR_BSON_TOO_DEEP');
            // and the encoder is usable afterwards
            assert.deepStrictEqual(qbson.decode(qbson.encode({ a: 1 })), { a: 1 });
        });
    });
});
