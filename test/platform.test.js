'use strict';

// qbson where Node's Buffer and modules are absent: the packages npm run build
// makes (scripts/build.js), run on Node with the global Buffer deleted (a child
// process) or in a fresh realm that never had one (vm), must give bson's bytes and
// values, Node qbson's answers and errors (offsets included), and hold no require
// of a Node module. lib/platform.js's Buffer branch is what every other test runs.

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { pathToFileURL } = require('url');
const bson = require('bson');
const qbson = require('..');
const { build, ROOT } = require('../scripts/build');
const { bundle, PROGRAMS } = require('../scripts/sizes');
const fuzz = require('./support/fuzz');
const { run } = require('./support/run-async');

const SEED = Number(process.env.QBSON_PLATFORM_SEED) || 20261125;
const GENERATED = 300;
const HOSTILE = Number(process.env.QBSON_PLATFORM_HOSTILE) || 3000;
const ESM = path.join(ROOT, 'dist', 'qbson.browser.mjs');
const IIFE = path.join(ROOT, 'dist', 'qbson.bundle.js');
const RAW = { promoteValues: false, bsonRegExp: true };

const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

// what Node's qbson makes of bytes, in the child's terms
function outcome(fn) {
    try {
        return { value: fn() };
    } catch (err) {
        const out = { error: `${err.name}: ${err.message}`, isBSONError: err instanceof qbson.BSONError };
        if (err.offset !== undefined) out.offset = err.offset;
        return out;
    }
}

function inputs() {
    const corpus = fuzz.corpusDocuments();
    const valid = corpus.concat(fuzz.generatedDocuments(SEED, GENERATED));
    const seeds = corpus.concat(fuzz.generatedDocuments(SEED + 1, 100));
    const hostile = [];
    for (let i = 0; i < HOSTILE; i++) hostile.push(fuzz.makeInput(fuzz.inputRandom(SEED, i), seeds, fuzz.corpusDecodeErrors()));
    // the documents as relaxed Extended JSON, parsed back to plain values and encoded
    // (all but those holding a regular expression Extended JSON cannot write)
    const ejson = [];
    for (const bytes of valid) {
        const text = outcome(() => qbson.EJSON.stringify(qbson.decode(bytes), { relaxed: true }));
        if (text.error === undefined) ejson.push(text.value);
    }
    return { corpus: corpus.length, valid, hostile, ejson };
}

// bson's Extended JSON of its decode of bytes; null when bson cannot make it (a
// stored regular expression JavaScript refuses, or whose flags bson will not write)
function bsonEJSON(bytes) {
    try {
        return bson.EJSON.stringify(bson.deserialize(bytes), { relaxed: false });
    } catch {
        return null;
    }
}

const data = inputs();
const corpusBsonRefuses = data.valid.slice(0, data.corpus).filter((bytes) => bsonEJSON(bytes) === null).length;

describe('platform: the packages for runtimes without Node', function () {
    let child = null;

    before(function (done) {
        build().then(() => {
            const stdin = JSON.stringify({ valid: data.valid.map(hex), hostile: data.hostile.map(hex), ejson: data.ejson });
            const out = childProcess.execFileSync(process.execPath, [path.join(__dirname, 'fixtures', 'platform-child.mjs'), pathToFileURL(ESM).href], {
                input: stdin,
                maxBuffer: 1 << 28,
                encoding: 'utf8',
            });
            child = JSON.parse(out);
        }).then(() => done(), done);
    });

    it('dist/ holds no require and no import: nothing from Node, nothing to fetch', function () {
        for (const file of [ESM, IIFE]) {
            const code = fs.readFileSync(file, 'utf8');
            assert.doesNotMatch(code, /\brequire\s*\(\s*["'`]/, file + ' requires a module');
            assert.doesNotMatch(code, /^\s*import\b|\bimport\s*\(/m, file + ' imports a module');
            assert.doesNotMatch(code, /["']node:/, file + ' names a Node module');
        }
    });

    it('dist/qbson.browser.mjs names every export of index.mjs', run(async function () {
        const dist = await import(pathToFileURL(ESM).href);
        const node = await import(pathToFileURL(path.join(ROOT, 'index.mjs')).href);
        assert.deepStrictEqual(Object.keys(dist).sort(), Object.keys(node).sort());
    }));

    it('with the global Buffer deleted, it runs on Uint8Arrays and Web Crypto, and encodeStream says it needs Node', function () {
        assert.strictEqual(child.bufferGone, true);
        assert.strictEqual(child.encodeGives, true, 'encode gives a plain Uint8Array');
        assert.strictEqual(child.binaryHolds, true, 'a decoded Binary holds a plain Uint8Array');
        assert.deepStrictEqual(child.binaryCopies, { smallKept: true, largeShared: true }, 'a decoded Binary under 4 KiB is a copy, one from 4 KiB on a view of the input');
        assert.deepStrictEqual(child.generated, [24, 36]);
        assert.strictEqual(child.encodeStream.isBSONError, true);
        assert.match(child.encodeStream.error, /^BSONRuntimeError: encodeStream makes a Node stream/);
    });

    it('the types and ByteUtils answer as on Node: hex, base64, UTF-8, Latin-1, vectors, Extended JSON, readers', run(async function () {
        const { probe } = await import(pathToFileURL(path.join(__dirname, 'fixtures', 'platform-probe.mjs')).href);
        assert.deepStrictEqual(child.probe, probe(qbson));
    }));

    it(`the ${data.valid.length} corpus and generated documents decode, and encode back, as on Node`, function () {
        assert.strictEqual(child.valid.length, data.valid.length);
        for (let i = 0; i < data.valid.length; i++) {
            const bytes = data.valid[i];
            assert.deepStrictEqual(child.valid[i].ejson, outcome(() => qbson.EJSON.stringify(qbson.decode(bytes), { relaxed: false })), 'decode of ' + hex(bytes));
            assert.strictEqual(child.valid[i].again, hex(qbson.encode(qbson.decode(bytes, RAW))), 'encode of decode of ' + hex(bytes));
        }
    });

    it(`the ${data.corpus} corpus documents decode to bson's values (but the ${corpusBsonRefuses} bson cannot give as Extended JSON) and encode back to bson's bytes`, function () {
        for (let i = 0; i < data.corpus; i++) {
            const bytes = data.valid[i];
            const text = bsonEJSON(bytes);
            if (text !== null) assert.deepStrictEqual(child.valid[i].ejson, { value: text }, 'decode of ' + hex(bytes));
            assert.strictEqual(child.valid[i].again, hex(bson.serialize(bson.deserialize(bytes, RAW))), 'encode of decode of ' + hex(bytes));
        }
    });

    it(`the ${data.ejson.length} of them Extended JSON can hold, parsed to plain values (relaxed), encode as on Node`, function () {
        for (let i = 0; i < data.ejson.length; i++) {
            const expected = hex(qbson.encode(qbson.EJSON.parse(data.ejson[i], { relaxed: true })));
            assert.strictEqual(child.encoded[i], expected, data.ejson[i]);
        }
    });

    it(HOSTILE + ' damaged inputs give Node qbson\'s values or its BSONErrors, offsets included', function () {
        let errors = 0;
        for (let i = 0; i < data.hostile.length; i++) {
            const decoded = outcome(() => qbson.decode(data.hostile[i]));
            const expected = decoded.error === undefined ? outcome(() => qbson.EJSON.stringify(decoded.value, { relaxed: false })) : decoded;
            assert.deepStrictEqual(child.hostile[i], expected, hex(data.hostile[i]));
            if (decoded.error !== undefined) {
                errors++;
                assert.strictEqual(expected.isBSONError, true, expected.error);
                assert.strictEqual(typeof expected.offset, 'number', expected.error);
            }
        }
        assert.ok(errors > HOSTILE / 2, `only ${errors} of ${HOSTILE} inputs were refused`);
    });

    it('dist/qbson.bundle.js sets qbson in a fresh realm that has no Buffer', function () {
        const doc = { s: 'é'.repeat(40), a: [1, 2.5, 'x'], n: null, t: true };
        const sandbox = { TextEncoder, TextDecoder, crypto: globalThis.crypto };
        vm.createContext(sandbox);
        vm.runInContext(fs.readFileSync(IIFE, 'utf8'), sandbox);
        const result = vm.runInContext(`(() => {
            const bytes = qbson.encode(${JSON.stringify(doc)});
            return JSON.stringify({ noBuffer: typeof Buffer === 'undefined', plain: Object.getPrototypeOf(bytes) === Uint8Array.prototype,
                hex: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''), back: qbson.decode(bytes),
                id: new qbson.ObjectId().toHexString().length });
        })()`, sandbox);
        assert.deepStrictEqual(JSON.parse(result), { noBuffer: true, plain: true, hex: hex(bson.serialize(doc)), back: doc, id: 24 });
    });

    it('import { encode, decode } bundles without Extended JSON, the readers, the streams, the compat layer, the command or the Buffer bytes; with EJSON or all of bson@7\'s names, without jsonToBSON, the streams or the readers', run(async function () {
        const { inputs: files } = await bundle(PROGRAMS['encode + decode']);
        assert.ok(files.includes('lib/encode.js') && files.includes('lib/decode.js'), files.join(' '));
        for (const file of ['index.js', 'lib/ejson.js', 'lib/stream.js', 'lib/lookup.js', 'lib/lazy.js', 'lib/size.js', 'lib/compat.js', 'lib/node-modules.js', 'lib/node-bytes.js']) {
            assert.ok(!files.includes(file), file + ' is in the bundle');
        }
        assert.ok(!files.some((f) => f.startsWith('lib/cli/')), 'the command is in the bundle');
        const { inputs: withEJSON } = await bundle(PROGRAMS['encode + decode + EJSON']);
        assert.ok(withEJSON.includes('lib/ejson.js'), withEJSON.join(' '));
        for (const file of ['lib/json-to-bson.js', 'lib/stream.js', 'lib/lookup.js', 'lib/lazy.js', 'lib/size.js']) {
            assert.ok(!withEJSON.includes(file), file + ' is in the bundle of encode, decode and EJSON');
        }
        const { inputs: bsonNames } = await bundle(PROGRAMS["bson@7's names"]);
        for (const file of ['index.js', 'lib/json-to-bson.js', 'lib/stream.js', 'lib/lookup.js', 'lib/lazy.js']) {
            assert.ok(!bsonNames.includes(file), file + " is in the bundle of bson@7's names");
        }
        const { inputs: everything } = await bundle(PROGRAMS.everything);
        assert.ok(!everything.some((f) => f.startsWith('lib/cli/') || f === 'lib/node-modules.js' || f === 'lib/node-bytes.js'), everything.join(' '));
    }));
});
