'use strict';

// A process's first documents: decoded without the table of readers for repeated shapes,
// which pays only once shapes repeat (lib/decoder.js documentsBeforeShapes), to the same
// values as later ones. Each case runs in a process of its own, where nothing came before it.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');

// runs script (which prints one JSON line) in a fresh node, with qbson, bson and lib/ at hand
function inFreshProcess(script) {
    const prelude = `const qbson = require(${JSON.stringify(ROOT)});
        const bson = require('bson');
        const lib = (name) => require(${JSON.stringify(path.join(ROOT, 'lib'))} + '/' + name);
        const sameAsBson = (doc, bytes) => { const want = bson.deserialize(bytes);
            return require('util').isDeepStrictEqual(doc, want) && JSON.stringify(doc) === JSON.stringify(want)
                && Object.getPrototypeOf(doc) === Object.prototype; };\n`;
    const res = spawnSync(process.execPath, ['-e', prelude + script], { cwd: ROOT, encoding: 'utf8' });
    assert.strictEqual(res.status, 0, res.stderr);
    return JSON.parse(res.stdout);
}

describe('a process\'s first documents', function () {
    it('are decoded as bson decodes them, the shape table untouched until the 16th', function () {
        const out = inFreshProcess(`
            const wide = JSON.parse('{"__proto__": {"x": 1}}');
            for (let i = 0; i < 40; i++) wide[i % 3 === 0 ? String(40 - i) : 'field' + i] = i % 2 ? 'v' + i : { n: i, s: 'nested ' + i };
            const bytes = bson.serialize(wide);
            const slots = lib('shape-reader').slots;
            const taken = () => slots.filter((s) => s.fp !== -1).length;
            const first = qbson.decode(bytes);
            const result = { first: sameAsBson(first, bytes), takenAfterFirst: taken(), later: true };
            for (let i = 0; i < 30; i++) result.later = result.later && sameAsBson(qbson.decode(bytes), bytes);
            result.takenAfterMore = taken();
            console.log(JSON.stringify(result));`);
        assert.deepStrictEqual(out, { first: true, takenAfterFirst: 0, later: true, takenAfterMore: out.takenAfterMore });
        assert.ok(out.takenAfterMore > 0, 'the table is in use after 31 decodes of 21 documents each');
    });

    it('a document of 4 kB or more is looked up from the first', function () {
        const out = inFreshProcess(`
            const bytes = bson.serialize({ name: 'large', rows: Array.from({ length: 300 }, (_, i) => 'row ' + i) });
            qbson.decode(bytes);
            console.log(JSON.stringify({ size: bytes.length, taken: lib('shape-reader').slots.filter((s) => s.fp !== -1).length }));`);
        assert.ok(out.size >= 4096, String(out.size));
        assert.strictEqual(out.taken, 1);
    });
});
