'use strict';

// The ES module entry: test/fixtures/esm-usage.mjs imports index.mjs by path and
// the package by its own name (dist/node, test/node-entries.test.js), round-trips a document, and compares the named
// exports with the CommonJS module's.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const SCRIPT = path.join(__dirname, 'fixtures', 'esm-usage.mjs');

describe('ES module entry', function () {
    let report;

    before(function (done) {
        const res = spawnSync(process.execPath, [SCRIPT], { cwd: path.join(__dirname, '..'), encoding: 'utf8' });
        assert.strictEqual(res.status, 0, `esm-usage.mjs exited ${res.status}:\n${res.stdout}${res.stderr}`);
        report = JSON.parse(res.stdout.trim().split('\n').pop());
        done();
    });

    it('round-trips a document through the named imports', function () {
        assert.strictEqual(report.roundTrip, true);
    });

    it('default export is the CommonJS module; import "qbson" is require("qbson"), with the same names as index.mjs', function () {
        assert.strictEqual(report.defaultIsCommonJS, true);
        assert.strictEqual(report.selfReferenceIsRequireEntry, true);
        assert.strictEqual(report.selfReferenceNames, true);
    });

    it('every CommonJS export is a named ES export, with the same value', function () {
        assert.deepStrictEqual(report.missing, [], `index.mjs does not export: ${report.missing.join(', ')}`);
        assert.deepStrictEqual(report.different, []);
        assert.deepStrictEqual(report.extra, []);
        assert.ok(report.count > 20, `only ${report.count} named exports`);
    });
});
