'use strict';

// Documents from decode (and, not yet, from a codec's generated readers) are made
// from no allocation site V8 pretenures. Once the documents of a large reply have survived
// a scavenge, V8 may allocate an object literal's (or `[]`'s) later objects in the
// old generation, where they keep the young strings they hold alive through every
// scavenge: a codec's reply of 10,000 items decoded at a sixth of its speed in
// one process in six. A child process with the young generation fixed at 1 MB
// makes V8 decide at every scavenge, and its trace says which sites it pretenured.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const qbson = require('..');
const { inferSchema } = require('./support/infer-schema');
const { prng, word, ASCII } = require('../benchmark/generate');

const CHILD = path.join(__dirname, 'support', 'pretenuring-child.js');
const FLAGS = ['--min-semi-space-size=1', '--max-semi-space-size=1', '--trace-pretenuring-statistics'];

// A cursor reply of 10,000 items: the documents and arrays a reader builds (all
// fields there, optional ones in varying sets, arrays of strings, of documents, of
// arrays). Not arrays that can hold only numbers: those may come from `[]`, which
// keeps their doubles unboxed, and they hold nothing young but their elements.
function reply() {
    const rng = prng(7);
    const firstBatch = [];
    for (let i = 0; i < 10000; i++) {
        const item = { id: i, name: word(rng, ASCII, 4, 8), tags: [word(rng, ASCII, 1, 3), word(rng, ASCII, 1, 3)] };
        if (rng() < 0.5) item.note = word(rng, ASCII, 2, 6);
        if (rng() < 0.3) item.owner = { login: word(rng, ASCII, 3, 8), since: i };
        item.paths = [[word(rng, ASCII, 1, 3)], [word(rng, ASCII, 1, 3), 'x']];
        item.parts = [{ label: word(rng, ASCII, 1, 4) }];
        firstBatch.push(item);
    }
    return { cursor: { firstBatch, id: 0 } };
}

// the sites V8 decided to pretenure in a child reading the reply one way, after its setup
function pretenured(way, files) {
    const args = [...FLAGS, CHILD, files.bytes, way, files.schema];
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.strictEqual(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n');
    const from = lines.indexOf('measuring');
    assert.ok(from >= 0 && lines.some((l) => l.startsWith('done ')), run.stdout.slice(-2000));
    return lines.slice(from).filter((l) => /pretenuring: AllocationSite.* (undecided|maybe tenure) => tenure$/.test(l));
}

describe('documents and arrays come from no allocation site V8 pretenures', function () {
    let files = null;

    before(function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-pretenuring-'));
        const bytes = qbson.encode(reply());
        files = { dir, bytes: path.join(dir, 'reply.bson'), schema: path.join(dir, 'schema.json') };
        fs.writeFileSync(files.bytes, bytes);
        fs.writeFileSync(files.schema, JSON.stringify(inferSchema([bytes])));
    });

    after(function () {
        fs.rmSync(files.dir, { recursive: true, force: true });
    });

    it('the control: object literals holding young strings are pretenured in the child', function () {
        assert.ok(pretenured('literals', files).length > 0, 'V8 pretenured nothing: the trace or the setting no longer shows it');
    });

    it('decode', function () {
        assert.deepStrictEqual(pretenured('decode', files), []);
    });

    // Skipped, and known to fail: a codec's generated readers build documents from object
    // literals (docs/schema.md says why the constructors that pass this did not stay).
    it.skip('a codec from the reply\'s schema', function () {
        assert.deepStrictEqual(pretenured('codec', files), []);
    });
});
