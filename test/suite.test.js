'use strict';

// The test files themselves: qnit does not wait for a promise a test returns, so
// an async test body not wrapped in run() (test/support/run-async.js) would pass
// whatever it asserts.

const assert = require('assert');
const fs = require('fs');
const path = require('path');

const HOOK = /\b(?:it|it\.skip|before|after|beforeEach|afterEach)\(/;

describe('test suite', function () {
    it('every asynchronous test and hook is awaited through run()', function () {
        const unawaited = [];
        for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js'))) {
            const lines = fs.readFileSync(path.join(__dirname, file), 'utf8').split('\n');
            lines.forEach((line, i) => {
                if (HOOK.test(line) && /\basync\b/.test(line) && !/\brun\(async\b/.test(line)) unawaited.push(`${file}:${i + 1}`);
            });
        }
        assert.deepStrictEqual(unawaited, []);
    });
});
