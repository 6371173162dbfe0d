'use strict';

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Readable, Writable, pipeline } = require('stream');
const qbson = require('..');
const { DocumentSplitter } = require('../lib/stream');

const { run } = require('./support/run-async');

async function collect(iterable) {
    const out = [];
    for await (const doc of iterable) out.push(doc);
    return out;
}

// the documents before the error, and the error
async function collectUntilError(iterable) {
    const docs = [];
    try {
        for await (const doc of iterable) docs.push(doc);
    } catch (err) {
        return { docs, err };
    }
    assert.fail(`expected an error after ${docs.length} documents`);
}

function assertBSONError(err, code, offset) {
    assert.ok(err instanceof qbson.BSONError, `not a BSONError: ${err && err.stack}`);
    assert.strictEqual(err.name, 'BSONError');
    assert.strictEqual(err.code, code, err.message);
    assert.strictEqual(err.offset, offset, err.message);
    assert.ok(err.message.includes(`at offset ${offset}`), err.message);
}

function int32(n) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    return b;
}

const DOCS = [
    { a: 1 },
    {},
    { s: 'héllo wörld', n: [1, 2.5, { d: null }], t: true },
    { bin: new qbson.Binary(Buffer.from('0102030405060708090a', 'hex')), big: 2 ** 40, date: new Date(1e12) },
];
const BYTES = Buffer.concat(DOCS.map((d) => qbson.encode(d)));
const OFFSETS = [];
for (let i = 0, pos = 0; i < DOCS.length; i++) {
    OFFSETS.push(pos);
    pos += qbson.encode(DOCS[i]).length;
}
const EXPECTED = qbson.decodeAll(BYTES);

describe('decodeStream', function () {
    describe('chunking', function () {
        it('decodes at every pair of split points, length prefixes included', run(async () => {
            const n = BYTES.length;
            for (let i = 0; i <= n; i++) {
                for (let j = i; j <= n; j++) {
                    const chunks = [BYTES.subarray(0, i), BYTES.subarray(i, j), BYTES.subarray(j)];
                    const docs = await collect(qbson.decodeStream(chunks));
                    if (docs.length !== EXPECTED.length) assert.fail(`split at ${i}, ${j}: ${docs.length} documents`);
                    assert.deepStrictEqual(docs, EXPECTED, `split at ${i}, ${j}`);
                }
            }
        }));

        it('decodes one-byte chunks', run(async () => {
            const chunks = [];
            for (let i = 0; i < BYTES.length; i++) chunks.push(BYTES.subarray(i, i + 1));
            assert.deepStrictEqual(await collect(qbson.decodeStream(chunks)), EXPECTED);
        }));

        it('decodes Uint8Array chunks that are not Buffers', run(async () => {
            const copy = new Uint8Array(BYTES.length + 10);
            copy.set(BYTES, 5);
            const view = copy.subarray(5, 5 + BYTES.length);
            const chunks = [view.subarray(0, 3), view.subarray(3, 40), view.subarray(40)];
            assert.deepStrictEqual(await collect(qbson.decodeStream(chunks)), EXPECTED);
        }));

        it('takes a single Buffer as one chunk, and empty chunks anywhere', run(async () => {
            assert.deepStrictEqual(await collect(qbson.decodeStream(BYTES)), EXPECTED);
            const e = Buffer.alloc(0);
            const chunks = [e, BYTES.subarray(0, 2), e, e, BYTES.subarray(2, 30), e, BYTES.subarray(30), e];
            assert.deepStrictEqual(await collect(qbson.decodeStream(chunks)), EXPECTED);
        }));

        it('an empty stream has no documents', run(async () => {
            assert.deepStrictEqual(await collect(qbson.decodeStream([])), []);
            assert.deepStrictEqual(await collect(qbson.decodeStream(Readable.from([]))), []);
        }));

        it('assembles a large document from many small chunks in linear time', run(async () => {
            const big = { data: new qbson.Binary(Buffer.alloc(8 * 1024 * 1024, 7)), tail: 'end' };
            const bytes = qbson.encode(big);
            function* chunks() {
                for (let i = 0; i < bytes.length; i += 512) yield bytes.subarray(i, i + 512);
            }
            const docs = await collect(qbson.decodeStream(chunks()));
            assert.strictEqual(docs.length, 1);
            assert.strictEqual(docs[0].tail, 'end');
            assert.strictEqual(docs[0].data.length(), 8 * 1024 * 1024);
        }));

        it('hands out a spanning document in one buffer of its own size', function () {
            const splitter = new DocumentSplitter();
            const out = [];
            splitter.push(BYTES.subarray(0, OFFSETS[2] + 6), out);
            // the first two lie in the chunk: views of it; the third is partly received
            assert.deepStrictEqual(out.filter((x, i) => i % 2 === 1), [OFFSETS[0], OFFSETS[1]]);
            assert.strictEqual(out[0].buffer, BYTES.buffer);
            out.length = 0;
            splitter.push(BYTES.subarray(OFFSETS[2] + 6, OFFSETS[3] + 2), out);
            assert.strictEqual(out.length, 2);
            assert.strictEqual(out[1], OFFSETS[2]);
            assert.strictEqual(out[0].length, OFFSETS[3] - OFFSETS[2]);
            assert.notStrictEqual(out[0].buffer, BYTES.buffer);
            assert.ok(!splitter.idle);
            out.length = 0;
            splitter.push(BYTES.subarray(OFFSETS[3] + 2), out);
            assert.ok(splitter.idle);
            splitter.end();
            assert.deepStrictEqual(out.filter((x, i) => i % 2 === 1), [OFFSETS[3]]);
        });
    });

    describe('sources', function () {
        it('reads a Readable', run(async () => {
            const chunks = [BYTES.subarray(0, 7), BYTES.subarray(7, 8), BYTES.subarray(8)];
            assert.deepStrictEqual(await collect(qbson.decodeStream(Readable.from(chunks))), EXPECTED);
        }));

        it('reads a file through fs.createReadStream with tiny reads', run(async () => {
            const file = path.join(os.tmpdir(), `qbson-stream-${process.pid}.bson`);
            fs.writeFileSync(file, BYTES);
            try {
                const docs = await collect(qbson.decodeStream(fs.createReadStream(file, { highWaterMark: 3 })));
                assert.deepStrictEqual(docs, EXPECTED);
            } finally {
                fs.unlinkSync(file);
            }
        }));

        it('reads an async generator that yields between awaits', run(async () => {
            async function* source() {
                for (let i = 0; i < BYTES.length; i += 5) {
                    await new Promise((resolve) => setImmediate(resolve));
                    yield BYTES.subarray(i, i + 5);
                }
            }
            assert.deepStrictEqual(await collect(qbson.decodeStream(source())), EXPECTED);
        }));

        it('stops reading and closes the source when the consumer stops early', run(async () => {
            const source = Readable.from([BYTES, BYTES, BYTES]);
            for await (const doc of qbson.decodeStream(source)) {
                assert.deepStrictEqual(doc, EXPECTED[0]);
                break;
            }
            assert.ok(source.destroyed);
        }));

        it('passes an error from the source through', run(async () => {
            async function* source() {
                yield BYTES.subarray(0, OFFSETS[1]);
                throw new Error('disk on fire');
            }
            const { docs, err } = await collectUntilError(qbson.decodeStream(source()));
            assert.deepStrictEqual(docs, [EXPECTED[0]]);
            assert.strictEqual(err.message, 'disk on fire');
        }));

        it('rejects a source that is not iterable, and chunks that are not bytes', run(async () => {
            assert.throws(() => qbson.decodeStream(null), TypeError);
            assert.throws(() => qbson.decodeStream(42), TypeError);
            assert.throws(() => qbson.decodeStream({}), TypeError);
            const { err } = await collectUntilError(qbson.decodeStream(['abc']));
            assert.ok(err instanceof TypeError && /Buffer or Uint8Array chunks, not string/.test(err.message), err.message);
        }));
    });

    describe('options', function () {
        it('passes decode options through', run(async () => {
            const bytes = qbson.encode({ i: 5, d: 1.5, l: qbson.Long.fromNumber(2 ** 40) });
            const [doc] = await collect(qbson.decodeStream([bytes], { promoteValues: false }));
            assert.ok(doc.i instanceof qbson.Int32);
            assert.ok(doc.d instanceof qbson.Double);
            assert.ok(doc.l instanceof qbson.Long);
            const [big] = await collect(qbson.decodeStream([bytes], { useBigInt64: true }));
            assert.strictEqual(big.l, 2n ** 40n);
        }));

        it('ignores index and allowObjectSmallerThanBufferSize, which would break the framing', run(async () => {
            const docs = await collect(qbson.decodeStream([BYTES], { index: 3, allowObjectSmallerThanBufferSize: true }));
            assert.deepStrictEqual(docs, EXPECTED);
        }));

        it('rejects a bad maxDocumentSize', function () {
            for (const bad of [0, 4, -1, 1.5, '100', 2 ** 31]) {
                assert.throws(() => qbson.decodeStream([], { maxDocumentSize: bad }), qbson.BSONError, String(bad));
            }
        });
    });

    describe('damage', function () {
        it('delivers every document before a truncated tail, then names its offset', run(async () => {
            // cut inside the last document's body, inside its length, and just after its length
            for (const cut of [BYTES.length - 1, OFFSETS[3] + 2, OFFSETS[3] + 4, OFFSETS[3] + 5]) {
                for (const size of [1, 3, 1000]) {
                    const chunks = [];
                    for (let i = 0; i < cut; i += size) chunks.push(BYTES.subarray(i, Math.min(i + size, cut)));
                    const { docs, err } = await collectUntilError(qbson.decodeStream(chunks));
                    assert.deepStrictEqual(docs, EXPECTED.slice(0, 3), `cut at ${cut}`);
                    assertBSONError(err, 'ERR_BSON_TRUNCATED', OFFSETS[3]);
                }
            }
        }));

        it('rejects a negative or too small length at its offset', run(async () => {
            for (const len of [-1, -2147483648, 0, 1, 4]) {
                const bytes = Buffer.concat([BYTES.subarray(0, OFFSETS[2]), int32(len), Buffer.alloc(20)]);
                for (const split of [1, OFFSETS[2] + 2, bytes.length]) {
                    const chunks = [bytes.subarray(0, split), bytes.subarray(split)];
                    const { docs, err } = await collectUntilError(qbson.decodeStream(chunks));
                    assert.deepStrictEqual(docs, EXPECTED.slice(0, 2));
                    assertBSONError(err, 'ERR_BSON_CORRUPT', OFFSETS[2]);
                    assert.ok(err.message.includes(`length ${len}`), err.message);
                }
            }
        }));

        it('rejects a length over maxDocumentSize before reading the document', run(async () => {
            let pulled = 0;
            function* source(len) {
                pulled = 0;
                pulled++;
                yield BYTES.subarray(0, OFFSETS[1]);
                pulled++;
                yield int32(len).subarray(0, 2);
                pulled++;
                yield int32(len).subarray(2);
                // more than anyone should buffer
                for (;;) {
                    pulled++;
                    yield Buffer.alloc(1024 * 1024);
                }
            }
            let r = await collectUntilError(qbson.decodeStream(source(0x7fffffff)));
            assert.deepStrictEqual(r.docs, [EXPECTED[0]]);
            assertBSONError(r.err, 'ERR_BSON_TOO_LARGE', OFFSETS[1]);
            assert.ok(r.err.message.includes('maxDocumentSize 16793600'), r.err.message);
            assert.strictEqual(pulled, 3);

            r = await collectUntilError(qbson.decodeStream(source(16793601)));
            assertBSONError(r.err, 'ERR_BSON_TOO_LARGE', OFFSETS[1]);
            assert.strictEqual(pulled, 3);

            r = await collectUntilError(qbson.decodeStream(source(101), { maxDocumentSize: 100 }));
            assertBSONError(r.err, 'ERR_BSON_TOO_LARGE', OFFSETS[1]);
            assert.strictEqual(pulled, 3);
        }));

        it('accepts a document of exactly maxDocumentSize', run(async () => {
            const bytes = qbson.encode({ s: 'x'.repeat(100) });
            const docs = await collect(qbson.decodeStream([bytes, bytes], { maxDocumentSize: bytes.length }));
            assert.strictEqual(docs.length, 2);
            const { err } = await collectUntilError(qbson.decodeStream([bytes], { maxDocumentSize: bytes.length - 1 }));
            assertBSONError(err, 'ERR_BSON_TOO_LARGE', 0);
        }));

        it('names the stream offset of a bad byte inside a document', run(async () => {
            // doc 2 is { s: 'héllo wörld', ... }: make its first element's type byte unknown
            const bytes = Buffer.from(BYTES);
            bytes[OFFSETS[2] + 4] = 0x42;
            for (const size of [1, 7, bytes.length]) {
                const chunks = [];
                for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
                const { docs, err } = await collectUntilError(qbson.decodeStream(chunks));
                assert.deepStrictEqual(docs, EXPECTED.slice(0, 2));
                assertBSONError(err, 'ERR_BSON_CORRUPT', OFFSETS[2] + 4);
                assert.strictEqual(err.documentOffset, OFFSETS[2]);
                assert.ok(/unknown BSON type 0x42/.test(err.message), err.message);
            }
        }));

        it('names the stream offset of a missing terminator', run(async () => {
            const bytes = Buffer.from(BYTES);
            bytes[OFFSETS[3] - 1] = 1;
            const { docs, err } = await collectUntilError(qbson.decodeStream([bytes]));
            assert.deepStrictEqual(docs, EXPECTED.slice(0, 2));
            assertBSONError(err, 'ERR_BSON_CORRUPT', OFFSETS[3] - 1);
        }));

        it('keeps failing after an error', function () {
            const splitter = new DocumentSplitter();
            assert.throws(() => splitter.push(int32(3), []), qbson.BSONError);
            assert.throws(() => splitter.push(BYTES, []), /length 3/);
            assert.throws(() => splitter.end(), /length 3/);
        });
    });
});

describe('encodeStream', function () {
    it('writes documents back to back, as encode does', run(async () => {
        const enc = qbson.encodeStream();
        const chunks = [];
        enc.on('data', (c) => chunks.push(c));
        for (const d of DOCS) enc.write(d);
        enc.end();
        await new Promise((resolve, reject) => enc.on('end', resolve).on('error', reject));
        assert.ok(Buffer.concat(chunks).equals(BYTES));
    }));

    it('round-trips through decodeStream, via a file', run(async () => {
        const file = path.join(os.tmpdir(), `qbson-roundtrip-${process.pid}.bson`);
        const docs = [];
        for (let i = 0; i < 2000; i++) {
            docs.push({ _id: i, name: `doc ${i}`, tags: ['a', 'b'].slice(0, i % 3), nested: { x: i * 1.5, when: new Date(i * 1000) } });
        }
        try {
            await new Promise((resolve, reject) => {
                pipeline(Readable.from(docs), qbson.encodeStream(), fs.createWriteStream(file), (err) => (err ? reject(err) : resolve()));
            });
            const back = await collect(qbson.decodeStream(fs.createReadStream(file, { highWaterMark: 1000 })));
            assert.deepStrictEqual(back, docs);
            assert.ok(fs.readFileSync(file).equals(Buffer.concat(docs.map((d) => qbson.encode(d)))));
        } finally {
            fs.rmSync(file, { force: true });
        }
    }));

    it('passes encode options through', run(async () => {
        const enc = qbson.encodeStream({ ignoreUndefined: false });
        const out = [];
        enc.on('data', (c) => out.push(c));
        enc.end({ u: undefined });
        await new Promise((resolve) => enc.on('end', resolve));
        assert.ok(Buffer.concat(out).equals(qbson.encode({ u: undefined }, { ignoreUndefined: false })));
    }));

    it('turns an encode error into a stream error', run(async () => {
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        const written = [];
        const err = await new Promise((resolve) => {
            pipeline(
                Readable.from([{ ok: 1 }, { ok: 2 }, cyclic, { ok: 4 }]),
                qbson.encodeStream(),
                new Writable({
                    write(chunk, encoding, callback) {
                        written.push(chunk);
                        callback();
                    },
                }),
                resolve
            );
        });
        assert.ok(err instanceof qbson.BSONError, String(err));
        assert.ok(/cyclic/.test(err.message), err.message);
        assert.strictEqual(err.index, 2);
        assert.ok(Buffer.concat(written).equals(Buffer.concat([qbson.encode({ ok: 1 }), qbson.encode({ ok: 2 })])));
    }));

    it('rejects a value that is not a document', run(async () => {
        for (const bad of ['text', 42, [1, 2]]) {
            const enc = qbson.encodeStream();
            const err = await new Promise((resolve) => {
                enc.on('error', resolve);
                enc.resume();
                enc.write(bad);
            });
            assert.ok(err instanceof qbson.BSONError, String(err));
            assert.strictEqual(err.index, 0);
        }
    }));
});
