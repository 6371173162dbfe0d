'use strict';

// The package's entries for Node, Deno and Bun (package.json's "require" and "import"):
// dist/node, which scripts/build-node.js makes from lib/. Built afresh here, then run
// in fresh processes: what they load, and that a program gets one copy of each class
// however it reaches it.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { build } = require('../scripts/build');
const { OUT, reachableModules } = require('../scripts/build-node');
const { run } = require('./support/run-async');

const ROOT = path.join(__dirname, '..');

function runNode(args, code) {
    const res = spawnSync(process.execPath, [...args, code], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout.trim().split('\n').pop());
}

// the files of dist/node loaded in a fresh process after `code` (CommonJS), relative to it
// (a coverage tool may load others beforehand)
const LOADED = `const own = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(OUT + path.sep)}))
    .map((f) => f.slice(${JSON.stringify(OUT + path.sep)}.length)).sort();`;

// the lib/ modules an output file holds: esbuild names each bundled module by its path
function modulesIn(file) {
    return [...fs.readFileSync(file, 'utf8').matchAll(/^ {2}"(lib\/[^"]+\.js)": \(function \(exports/gm)].map((m) => m[1]);
}

function filesUnder(dir) {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]);
}

describe('the package entries for Node (dist/node)', function () {
    before(run(async () => build()));

    it('require and import resolve to dist/node', function () {
        assert.strictEqual(require.resolve('qbson'), path.join(OUT, 'qbson.cjs'));
        const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
        assert.deepStrictEqual(pkg.exports['.'].import, { module: './dist/node/qbson.module.mjs', default: './dist/node/qbson.mjs' });
        assert.strictEqual(pkg.exports['.'].require, './dist/node/qbson.cjs');
    });

    it('each module of lib/ the entries may load is in exactly one file', run(async function () {
        const reachable = (await reachableModules(require('esbuild'))).map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
        const where = new Map();
        const place = (name, file) => {
            assert.ok(!where.has(name), `${name} is in ${where.get(name)} and in ${file}`);
            where.set(name, file);
        };
        for (const file of ['qbson.cjs', 'classes.cjs']) for (const name of modulesIn(path.join(OUT, file))) place(name, file);
        const ownFiles = filesUnder(path.join(OUT, 'lib'));
        for (const file of ownFiles) {
            place(path.relative(OUT, file).split(path.sep).join('/'), 'its own file');
            assert.deepStrictEqual(modulesIn(file), [], `${file} bundles other modules`);
        }
        assert.deepStrictEqual([...where.keys()].sort(), reachable.sort());
        assert.ok(modulesIn(path.join(OUT, 'qbson.cjs')).includes('lib/encode.js'));
        assert.ok(modulesIn(path.join(OUT, 'classes.cjs')).includes('lib/types/timestamp.js'));
        assert.ok(where.get('lib/ejson.js') === 'its own file' && ownFiles.length > 10);
    }));

    // the classes decode reaches one at a time with a value: in qbson.cjs, run on first use
    const FIRST_VALUE_MODULES = ['lib/types/binary.js', 'lib/types/double.js', 'lib/types/int32.js', 'lib/types/long.js'];
    const AT_IMPORT = ['classes.cjs', 'loaded.cjs', 'qbson.cjs'];

    it('require("qbson") loads two files, an int64 decoded no other, reading every export the classes', function () {
        const loaded = runNode(['-e'], `${LOADED}
            const q = require('qbson');
            const atRequire = own();
            q.decode(q.encode({ a: 1, s: 'x', d: new Date(0), o: new q.ObjectId() }));
            const afterUse = own();
            // {l: 2^60}
            q.decode(Buffer.from('10000000126c00000000000000001000', 'hex'));
            const afterLong = own();
            for (const name of Object.keys(q)) q[name];
            console.log(JSON.stringify({ atRequire, afterUse, afterLong, atImport: own() }));`);
        assert.deepStrictEqual(loaded.atRequire, ['loaded.cjs', 'qbson.cjs']);
        assert.deepStrictEqual(loaded.afterUse, ['loaded.cjs', 'qbson.cjs']);
        assert.deepStrictEqual(loaded.afterLong, ['loaded.cjs', 'qbson.cjs']);
        assert.deepStrictEqual(loaded.atImport, AT_IMPORT);
        const imported = runNode(['--input-type=module', '-e'], `import * as q from 'qbson';
            import { createRequire } from 'node:module';
            const require = createRequire(import.meta.url);
            ${LOADED}
            console.log(JSON.stringify({ files: own(), names: Object.keys(q).length }));`);
        assert.deepStrictEqual(imported.files, AT_IMPORT);
        assert.ok(imported.names > 40, `${imported.names} named exports`);
    });

    it('the classes decode reaches one at a time are in qbson.cjs, and the other files reach them through loaded.cjs', function () {
        const inQbson = modulesIn(path.join(OUT, 'qbson.cjs'));
        for (const name of FIRST_VALUE_MODULES) assert.ok(inQbson.includes(name), `${name} is not in qbson.cjs`);
        const reached = runNode(['-e'], `const q = require('qbson');
            const loaded = require(${JSON.stringify(path.join(OUT, 'loaded.cjs'))});
            const kinds = ${JSON.stringify(FIRST_VALUE_MODULES)}.map((name) => typeof loaded[name]);
            // {l: 2^60}, then Long through a file loaded on first call (Extended JSON)
            const decoded = q.decode(Buffer.from('10000000126c00000000000000001000', 'hex')).l;
            const parsed = q.EJSON.parse('{"l": {"$numberLong": "5"}}', { relaxed: false }).l;
            console.log(JSON.stringify({ kinds, sameLong: loaded['lib/types/long.js']().Long === q.Long && decoded instanceof q.Long && parsed instanceof q.Long }));`);
        assert.deepStrictEqual(reached.kinds, ['function', 'function', 'function', 'function']);
        assert.strictEqual(reached.sameLong, true);
    });

    // the values made by modules in each kind of file, checked against the exports
    const ONE_COPY = `
        const doc = q.decode(q.encode({ b: new q.Binary(Buffer.from('ab')), t: new q.Timestamp({ t: 1, i: 2 }), k: new q.MaxKey() }));
        const fromEJSON = q.EJSON.parse('{"l": {"$numberLong": "5"}, "d": {"$numberDecimal": "1.5"}}', { relaxed: false });
        const errorOf = (f) => { try { f(); } catch (e) { return e; } throw new Error('no error'); };
        const codec = q.compile({ bsonType: 'object', properties: { a: { bsonType: 'int' } } });
        const checks = {
            decodedClasses: doc.b instanceof q.Binary && doc.t instanceof q.Timestamp && doc.k instanceof q.MaxKey,
            baseClass: doc.b instanceof q.BSONValue && new q.ObjectId() instanceof q.BSONValue && fromEJSON.d instanceof q.BSONValue,
            ejsonClasses: fromEJSON.l instanceof q.Long && fromEJSON.d instanceof q.Decimal128,
            ejsonError: errorOf(() => q.EJSON.parse('{"$numberLong": "x"}')) instanceof q.BSONError,
            codecError: errorOf(() => codec.encode({ a: 'x' })) instanceof q.BSONError,
            transcoded: q.decode(q.jsonToBSON('{"a": {"$oid": "64b7f0c2a1b2c3d4e5f60718"}}', { mode: 'canonical' })).a instanceof q.ObjectId,
            lazy: q.lazy(q.encode({ x: { y: 1 } })).get('x') instanceof q.LazyDocument,
            namespace: q.BSON.Long === q.Long && q.BSON.EJSON === q.EJSON,
        };`;

    it('one copy of each class through require and import, and in the modules loaded on first call', function () {
        const checks = runNode(['--input-type=module', '-e'], `import * as imported from 'qbson';
            import { createRequire } from 'node:module';
            const q = createRequire(import.meta.url)('qbson');
            ${ONE_COPY}
            checks.sameExports = Object.keys(q).every((name) => imported[name] === q[name]) && imported.default === q;
            console.log(JSON.stringify(checks));`);
        for (const [name, ok] of Object.entries(checks)) assert.strictEqual(ok, true, name);
    });

    it('every class has its own name through require and import, as bson\'s classes have', function () {
        const names = runNode(['--input-type=module', '-e'], `import * as imported from 'qbson';
            import { createRequire } from 'node:module';
            const q = createRequire(import.meta.url)('qbson');
            const named = (m) => Object.keys(m).filter((k) => typeof m[k] === 'function' && /^[A-Z]/.test(k)).map((k) => [k, m[k].name]);
            console.log(JSON.stringify({ required: named(q), imported: named(imported) }));`);
        for (const list of [names.required, names.imported]) {
            assert.ok(list.length >= 20, 'the classes are exported');
            for (const [exported, name] of list) assert.strictEqual(name, exported);
        }
        const err = runNode(['-e'], `const { BSONError, ObjectId } = require('qbson');
            let stack = '';
            try { new ObjectId('zz'); } catch (e) { stack = e.stack; }
            console.log(JSON.stringify({ name: new BSONError('x').name, constructor: new ObjectId().constructor.name, stack: stack.split('\\n')[0] }));`);
        assert.deepStrictEqual([err.name, err.constructor], ['BSONError', 'ObjectId']);
        assert.match(err.stack, /^BSONError: /);
    });

    // `program` (its file name and source) bundled by esbuild for Node in `format` through the package's
    // entries, then run from a folder of its own, where nothing but the bundle can give it qbson;
    // returns the bundle's text and the checks the program printed
    async function bundleAndRun(program, source, format) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-entries-'));
        try {
            fs.mkdirSync(path.join(dir, 'node_modules'));
            fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'qbson'), 'dir');
            fs.mkdirSync(path.join(dir, 'out'));
            fs.writeFileSync(path.join(dir, program), source);
            const outfile = path.join(dir, 'out', format === 'esm' ? 'out.mjs' : 'out.cjs');
            await require('esbuild').build({ entryPoints: [path.join(dir, program)], bundle: true, platform: 'node', format, outfile,
                logLevel: 'silent' });
            const res = spawnSync(process.execPath, [outfile], { cwd: path.join(dir, 'out'), encoding: 'utf8' });
            assert.strictEqual(res.status, 0, res.stderr);
            return { bundled: fs.readFileSync(outfile, 'utf8'), checks: JSON.parse(res.stdout.trim().split('\n').pop()) };
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }

    it('one copy of each class in a program bundled for Node from the require entry', run(async function () {
        const { bundled, checks } = await bundleAndRun('program.js', `const q = require('qbson');${ONE_COPY}\nconsole.log(JSON.stringify(checks));`, 'cjs');
        assert.ok(bundled.includes('dist/node/qbson.cjs') && !bundled.includes('qbson.module.mjs'), 'the bundle did not take the require entry');
        for (const [name, ok] of Object.entries(checks)) assert.strictEqual(ok, true, name);
    }));

    // a bundler cannot follow qbson.mjs's createRequire(import.meta.url): it takes qbson.module.mjs (the "module" condition)
    for (const format of ['esm', 'cjs']) {
        it(`a program importing qbson, bundled for Node as ${format === 'esm' ? 'an ES module' : 'CommonJS'}, runs on its own`, run(async function () {
            const streamed = `const chunks = [];
                await new Promise((resolve, reject) => q.encodeStream().on('data', (b) => chunks.push(b)).on('end', resolve).on('error', reject).end({ s: 1 }));
                checks.stream = q.decode(Buffer.concat(chunks)).s === 1;
                checks.defaultExport = q.default.encode === q.encode;`;
            const { bundled, checks } = await bundleAndRun('program.mjs',
                `import * as q from 'qbson';${ONE_COPY}\n(async () => {${streamed}\nconsole.log(JSON.stringify(checks));})();`, format);
            assert.ok(bundled.includes('dist/node/qbson.module.mjs'), 'the bundle did not take the module entry');
            assert.strictEqual(Object.keys(checks).length, 10);
            for (const [name, ok] of Object.entries(checks)) assert.strictEqual(ok, true, name);
        }));
    }
});
