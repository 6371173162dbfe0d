'use strict';

// What require('qbson') loads: the codec, not the parts a program may never use.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

// The repository's modules loaded after running `code` in a fresh process, and the
// built-ins those modules required (a coverage tool may load others beforehand).
function loadedAfter(code) {
    const script = `const Module = require('module');
        const ownRequire = Module.prototype.require;
        const builtins = [];
        Module.prototype.require = function (id) {
            if (this.filename.startsWith(${JSON.stringify(path.join(ROOT, 'lib') + path.sep)}) && require('module').isBuiltin(id)) builtins.push(id);
            return ownRequire.apply(this, arguments);
        };
        ${code}
        const own = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(ROOT + path.sep)}) && !f.includes('node_modules'));
        console.log(JSON.stringify({ own: own.map((f) => f.slice(${ROOT.length + 1})), builtins }));`;
    const res = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout);
}

describe('loading', function () {
    it('require("qbson") leaves streams, Extended JSON, reading in place and crypto unloaded', function () {
        const { own, builtins } = loadedAfter("const q = require('.'); q.decode(q.encode({ a: 1 }));");
        for (const file of ['lib/stream.js', 'lib/ejson.js', 'lib/lookup.js', 'lib/lazy.js', 'lib/projection.js']) {
            assert.ok(!own.includes(file), `${file} was loaded`);
        }
        assert.ok(own.includes('lib/encode.js') && own.includes('lib/decode.js'));
        assert.ok(!builtins.includes('crypto'), 'crypto was required');
    });

    it('each is loaded when first used, and is then the same value everywhere', function () {
        const { own, builtins } = loadedAfter(`const q = require('.');
            const names = ['EJSON', 'decodeStream', 'encodeStream', 'get', 'has', 'lazy', 'LazyDocument'];
            for (const n of names) if (typeof q[n] !== 'function' && typeof q[n] !== 'object') throw new Error(n);
            if (q.BSON.EJSON !== q.EJSON || !Object.isFrozen(q.BSON)) throw new Error('BSON namespace');
            if (!Object.keys(q).includes('EJSON') || q.get !== q.get) throw new Error('exports');
            if (q.EJSON.stringify({ a: 1 }) !== '{"a":1}') throw new Error('EJSON');
            new q.ObjectId();`);
        for (const file of ['lib/stream.js', 'lib/ejson.js', 'lib/lookup.js', 'lib/lazy.js']) assert.ok(own.includes(file), `${file} was not loaded`);
        assert.ok(builtins.includes('crypto'));
    });
});
