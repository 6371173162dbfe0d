'use strict';

// What require('qbson') loads: the codec, not the parts a program may never use.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

// The repository's modules loaded after running `code` in a fresh process, and the
// built-ins those modules required or took from process.getBuiltinModule (a coverage tool
// may load others beforehand).
function loadedAfter(code) {
    const script = `const Module = require('module');
        const ownRequire = Module.prototype.require;
        const builtins = [];
        Module.prototype.require = function (id) {
            if (this.filename.startsWith(${JSON.stringify(path.join(ROOT, 'lib') + path.sep)}) && require('module').isBuiltin(id)) builtins.push(id);
            return ownRequire.apply(this, arguments);
        };
        // lib/node-modules.js takes Node's modules from process.getBuiltinModule where there is one
        const ownGetBuiltin = process.getBuiltinModule;
        if (typeof ownGetBuiltin === 'function') process.getBuiltinModule = (id) => (builtins.push(id), ownGetBuiltin(id));
        ${code}
        const own = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(ROOT + path.sep)}) && !f.includes('node_modules'));
        console.log(JSON.stringify({ own: own.map((f) => f.slice(${ROOT.length + 1})), builtins }));`;
    const res = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout);
}

// The repository's modules loaded by `import * as q from './index.mjs'` in a fresh process
// (import 'qbson' takes dist/node, made from them: test/node-entries.test.js).
function loadedByImport() {
    const script = `import * as q from './index.mjs';
        import { createRequire } from 'node:module';
        const cache = createRequire(import.meta.url).cache;
        const own = Object.keys(cache).filter((f) => f.startsWith(${JSON.stringify(ROOT + path.sep)}) && !f.includes('node_modules'));
        console.log(JSON.stringify({ own: own.map((f) => f.slice(${ROOT.length + 1})), exports: Object.keys(q).length }));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout);
}

describe('loading', function () {
    // the rarer types, calculateObjectSize and bson's utility namespaces
    const RARE = ['lib/types/timestamp.js', 'lib/types/decimal128.js', 'lib/types/code.js', 'lib/types/bson-regexp.js',
        'lib/types/bson-symbol.js', 'lib/types/dbref.js', 'lib/types/min-max-key.js', 'lib/types/deprecated.js',
        'lib/size.js', 'lib/elements.js', 'lib/bson-byte-utils.js', 'lib/bson-number-utils.js'];

    // the classes of values decoded only with some data or options
    const ON_FIRST_VALUE = ['lib/types/binary.js', 'lib/types/long.js', 'lib/types/int32.js', 'lib/types/double.js'];

    it('require("qbson") leaves streams, Extended JSON, reading in place, the rarer types and crypto unloaded', function () {
        const { own, builtins } = loadedAfter("const q = require('.'); q.decode(q.encode({ a: 1, b: 'x', c: [1.5], d: new q.ObjectId('64b7f0c2a1b2c3d4e5f60718'), e: new Date() }));");
        for (const file of ['lib/stream.js', 'lib/ejson.js', 'lib/lookup.js', 'lib/element-walker.js', 'lib/lazy.js', 'lib/projection.js', ...RARE, ...ON_FIRST_VALUE]) {
            assert.ok(!own.includes(file), `${file} was loaded`);
        }
        assert.ok(own.includes('lib/encode.js') && own.includes('lib/decode.js') && own.includes('lib/decoder.js'));
        assert.ok(!builtins.includes('crypto'), 'crypto was required');
    });

    it('each is loaded when first used, and is then the same value everywhere', function () {
        const names = "['EJSON', 'decodeStream', 'encodeStream', 'get', 'has', 'lazy', 'LazyDocument']";
        const read = loadedAfter(`const q = require('.');
            for (const n of ${names}) if (typeof q[n] !== 'function' && typeof q[n] !== 'object') throw new Error(n);`);
        // reading the functions loads none of their modules: they load on first call
        for (const file of ['lib/stream.js', 'lib/ejson.js', 'lib/lookup.js']) assert.ok(!read.own.includes(file), `${file} was loaded`);
        const { own, builtins } = loadedAfter(`const q = require('.');
            if (q.BSON.EJSON !== q.EJSON || !Object.isFrozen(q.BSON)) throw new Error('BSON namespace');
            if (!Object.keys(q).includes('EJSON') || q.get !== q.get || q.BSON.deserializeStream !== q.deserializeStream) throw new Error('exports');
            if (q.EJSON.stringify({ a: 1 }) !== '{"a":1}') throw new Error('EJSON');
            const bytes = q.encode({ a: { b: 1 } });
            if (q.get(bytes, 'a.b') !== 1 || !q.has(bytes, 'a') || q.lazy(bytes).get('a').get('b') !== 1) throw new Error('readers');
            if (!(q.lazy(bytes) instanceof q.LazyDocument)) throw new Error('LazyDocument');
            q.encodeStream().destroy();
            if (typeof q.decodeStream([bytes])[Symbol.asyncIterator] !== 'function') throw new Error('decodeStream');
            new q.ObjectId();`);
        for (const file of ['lib/stream.js', 'lib/ejson.js', 'lib/lookup.js', 'lib/lazy.js']) assert.ok(own.includes(file), `${file} was not loaded`);
        assert.ok(builtins.includes('crypto'));
    });

    it('a decoded value of a rarer type is an instance of the exported class, whichever is reached first', function () {
        const { own } = loadedAfter(`const q = require('.');
            const bytes = q.encode({ t: new q.Timestamp({ t: 1, i: 2 }), m: new q.MinKey(), r: new q.DBRef('c', 1) });
            const doc = q.decode(bytes);
            if (!(doc.t instanceof q.Timestamp) || !(doc.m instanceof q.MinKey) || !(doc.r instanceof q.DBRef)) throw new Error('classes');
            if (q.BSON.Timestamp !== q.Timestamp || q.BSON.onDemand !== q.onDemand) throw new Error('BSON namespace');
            if (typeof q.calculateObjectSize({ a: 1 }) !== 'number' || q.onDemand.parseToElements(bytes).length !== 3) throw new Error('utilities');`);
        for (const file of RARE) assert.ok(own.includes(file), `${file} was not loaded`);
    });

    it('decoding reaches the rarer classes before anything reads them from the exports', function () {
        loadedAfter(`const q = require('.');
            // {t: Timestamp(1, 2), m: MaxKey} written out by hand, so that no class is touched first
            const bytes = Buffer.from('13000000' + '117400' + '0200000001000000' + '7f6d00' + '00', 'hex');
            const doc = q.decode(bytes);
            if (!(doc.t instanceof q.Timestamp) || !(doc.m instanceof q.MaxKey)) throw new Error('classes');`);
    });

    it('Binary, UUID, Long, Int32 and Double load with their first decoded value and are the exported classes', function () {
        const { own } = loadedAfter(`const q = require('.');
            // {b: Binary(subtype 0, 'ab'), u: UUID, l: 2^60, i: 7, d: 1.5}, written out by hand
            const bytes = Buffer.from('44000000' + '05620002000000006162' + '0575001000000004' + '00112233445566778899aabbccddeeff' +
                '126c00' + '0000000000000010' + '10690007000000' + '016400' + '000000000000f83f' + '00', 'hex');
            const doc = q.decode(bytes, { promoteValues: false });
            const plain = q.decode(bytes);
            if (!(doc.b instanceof q.Binary) || !(doc.u instanceof q.UUID) || !(plain.u instanceof q.UUID)) throw new Error('binary classes');
            if (!(doc.l instanceof q.Long) || !(plain.l instanceof q.Long) || !(doc.i instanceof q.Int32) || !(doc.d instanceof q.Double)) {
                throw new Error('number classes');
            }
            if (q.BSON.Long !== q.Long || q.BSON.Binary !== q.Binary || plain.i !== 7 || plain.d !== 1.5) throw new Error('exports');`);
        for (const file of ON_FIRST_VALUE) assert.ok(own.includes(file), `\${file} was not loaded`);
    });

    it('import of index.mjs loads what require of index.js loads once every export is read, which leaves Extended JSON, calculateObjectSize, get/has and the streams unloaded', function () {
        const imported = loadedByImport();
        assert.ok(imported.exports > 20, `only ${imported.exports} exports`);
        const { own } = loadedAfter("const q = require('.'); for (const name of Object.keys(q)) q[name];");
        assert.deepStrictEqual(imported.own.sort(), own.sort());
        for (const file of ['lib/ejson.js', 'lib/size.js', 'lib/projection.js', 'lib/stream.js', 'lib/lookup.js']) {
            assert.ok(!own.includes(file), `${file} was loaded`);
        }
    });

    // Node makes the global Buffer a getter (so that a REPL can replace it): each
    // read from a module's code is a call, 4-6 ns, a tenth of decoding {a: 1234}.
    // lib/node-bytes.js reads it once, at load, and the codec asks lib/platform.js;
    // only the command (never bundled) takes Buffer from require('buffer').
    it('the codec reads the global Buffer once, in lib/node-bytes.js, and never requires the buffer module', function () {
        for (const file of sourceFiles(path.join(ROOT, 'lib')).concat(path.join(ROOT, 'index.js'))) {
            const name = path.relative(ROOT, file).split(path.sep).join('/');
            const code = withoutCommentsAndStrings(fs.readFileSync(file, 'utf8'));
            if (name === 'lib/node-bytes.js') {
                assert.deepStrictEqual(code.match(/\bBuffer\b/g), ['Buffer'], name + ' reads Buffer more than once');
                assert.match(code, /^const NodeBuffer = nativeBuffer\(globalThis\.Buffer\);$/m);
            } else if (name.startsWith('lib/cli/')) {
                if (/\bBuffer\b/.test(code)) assert.match(fs.readFileSync(file, 'utf8'), /^const \{ Buffer(, \w+)* \} = require\('buffer'\);$/m, name + ' reads the global Buffer');
            } else {
                assert.doesNotMatch(code, /\bBuffer\b/, name + ' uses Buffer');
                assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /require\('(node:)?buffer'\)/, name + " requires 'buffer'");
            }
        }
    });

    it('encoding, decoding and Extended JSON work with the global Buffer made unreadable', function () {
        loadedAfter(`const q = require('.');
            const doc = { s: 'text', n: 1.5, i: 7, l: 2n ** 60n, b: Buffer.from('ab'), u: new q.UUID(), o: new q.ObjectId(),
                d: new Date(0), x: new q.Decimal128('1.5'), a: [1, [2.5]], r: /a/i, t: new q.Timestamp({ t: 1, i: 2 }) };
            const bytes = q.encode(doc);
            Object.defineProperty(globalThis, 'Buffer', { get() { throw new Error('the global Buffer was read'); }, configurable: true });
            q.encode(doc);
            q.decode(bytes);
            q.decode(bytes, { promoteBuffers: true, useBigInt64: true });
            q.decode(bytes, { raw: true });
            q.EJSON.parse(q.EJSON.stringify(q.decode(bytes)));
            q.decode(new Uint8Array(bytes));
            q.calculateObjectSize(doc);`);
    });

    // the types sit below Extended JSON: a cycle would let either see the other half-loaded
    it('no require, lazy ones included, leads from the type classes back to themselves or to Extended JSON', function () {
        const requires = localRequires(path.join(ROOT, 'lib'));
        const types = [...requires.keys()].filter((f) => f.startsWith('lib/types/'));
        assert.ok(types.length > 10 && requires.get('lib/ejson.js').includes('lib/types/int32.js'));
        for (const start of types) {
            // every module reachable from start, with the chain that reaches it
            const chains = new Map([[start, [start]]]);
            const queue = [start];
            while (queue.length > 0) {
                const file = queue.shift();
                for (const dep of requires.get(file) || []) {
                    assert.ok(dep !== start, `import cycle: ${chains.get(file).concat(dep).join(' -> ')}`);
                    assert.ok(dep !== 'lib/ejson.js', `${chains.get(file).concat(dep).join(' -> ')}`);
                    if (!chains.has(dep)) {
                        chains.set(dep, chains.get(file).concat(dep));
                        queue.push(dep);
                    }
                }
            }
        }
    });
});

// For each .js file under dir, relative to the repository, the local modules it
// requires anywhere in its code.
function localRequires(dir) {
    const requires = new Map();
    for (const file of sourceFiles(dir)) {
        const code = fs.readFileSync(file, 'utf8').replace(COMMENT_OR_STRING, (m) => (m[0] === '/' ? '' : m));
        const deps = [];
        for (const m of code.matchAll(/require\('(\.\.?\/[^']+)'\)/g)) {
            let target = path.resolve(path.dirname(file), m[1]);
            if (!target.endsWith('.js')) target = fs.existsSync(target + '.js') ? target + '.js' : path.join(target, 'index.js');
            deps.push(path.relative(ROOT, target));
        }
        requires.set(path.relative(ROOT, file), deps);
    }
    return requires;
}

// every .js file under dir
function sourceFiles(dir) {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) return sourceFiles(file);
        return entry.name.endsWith('.js') ? [file] : [];
    });
}

// a comment or a string literal in JavaScript source
const COMMENT_OR_STRING = /\/\*[\s\S]*?\*\/|\/\/.*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;

// JavaScript source with its comments removed and its string literals emptied
function withoutCommentsAndStrings(source) {
    return source.replace(COMMENT_OR_STRING, (m) => (m[0] === '/' ? '' : m[0] + m[0]));
}
