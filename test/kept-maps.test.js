'use strict';

// The code V8 optimizes for the generated readers outlives a major GC. Optimized code
// holds the maps (hidden classes) it checks for weakly: where no object of such a map
// is alive, a major GC frees the map and throws the code away, and the readers run
// unoptimized until V8 compiles them again. A process that reads a reply now and then
// paid this after every pause (a codec's api_statuses decoded at 0.30-0.43x decode).
// The generated constructors keep one object of each map they make. A child reads a
// reply in rounds with major GCs between them, and V8's trace (--trace-deopt) must
// not show a function thrown away for "weak objects" after every round.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const { writeReplyFiles, removeReplyFiles } = require('./support/cursor-reply');

const CHILD = path.join(__dirname, 'support', 'kept-maps-child.js');
const FLAGS = ['--expose-gc', '--trace-deopt'];
// of the child's 8 rounds: a function thrown away more often than this lost its code to the GCs
const MOST_TIMES = 2;

// the functions V8 threw away for freed maps more than MOST_TIMES times, with the count
function thrownAway(way, files) {
    const run = spawnSync(process.execPath, [...FLAGS, CHILD, files.bytes, way, files.schema], { encoding: 'utf8', maxBuffer: 64 << 20 });
    assert.strictEqual(run.status, 0, run.stderr);
    assert.ok(/^done \d+$/m.test(run.stdout), run.stdout.slice(-2000));
    const counts = new Map();
    for (const line of run.stdout.split('\n')) {
        const m = /<SharedFunctionInfo ([^>]*)>.* for deoptimization, reason: weak objects/.exec(line);
        if (m !== null) counts.set(m[1], (counts.get(m[1]) || 0) + 1);
    }
    return [...counts].filter(([, n]) => n > MOST_TIMES).map(([name, n]) => `${name} ${n} times`);
}

describe('optimized readers outlive a major GC', function () {
    let files = null;

    before(function () {
        files = writeReplyFiles('qbson-kept-maps-');
    });

    after(function () {
        removeReplyFiles(files);
    });

    it('the control: a constructor that keeps no object loses its code at every round', function () {
        assert.ok(thrownAway('control', files).some((f) => f.startsWith('control ')), 'V8 kept the control\'s code: the trace or the setting no longer shows it');
    });

    it('decode', function () {
        assert.deepStrictEqual(thrownAway('decode', files), []);
    });

    it('a codec from the reply\'s schema', function () {
        assert.deepStrictEqual(thrownAway('codec', files), []);
    });
});
