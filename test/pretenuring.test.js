'use strict';

// Documents from decode and from a codec's generated readers are made from no
// allocation site V8 pretenures. Once the documents of a large reply have survived
// a scavenge, V8 may allocate an object literal's (or `[]`'s) later objects in the
// old generation, where they keep the young strings they hold alive through every
// scavenge: a codec's reply of 10,000 items decoded at a sixth of its speed in
// one process in six. A child process with the young generation fixed at 1 MB
// makes V8 decide at every scavenge, and its trace says which sites it pretenured.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const { writeReplyFiles, removeReplyFiles } = require('./support/cursor-reply');

const CHILD = path.join(__dirname, 'support', 'pretenuring-child.js');
const FLAGS = ['--min-semi-space-size=1', '--max-semi-space-size=1', '--trace-pretenuring-statistics'];

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
        files = writeReplyFiles('qbson-pretenuring-');
    });

    after(function () {
        removeReplyFiles(files);
    });

    it('the control: object literals holding young strings are pretenured in the child', function () {
        assert.ok(pretenured('literals', files).length > 0, 'V8 pretenured nothing: the trace or the setting no longer shows it');
    });

    it('decode', function () {
        assert.deepStrictEqual(pretenured('decode', files), []);
    });

    it('a codec from the reply\'s schema', function () {
        assert.deepStrictEqual(pretenured('codec', files), []);
    });
});
