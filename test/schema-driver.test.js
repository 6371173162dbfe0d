'use strict';

// The driver recipe of docs/schema.md ("Codecs and the driver") end to end against a real
// MongoDB wire-protocol server: test/support/schema-driver-run.js starts the in-memory
// server of the devDependency @push.rocks/smartmongo on 127.0.0.1 in its own process,
// checks documents with codec.validate before insertMany and reads them back with
// { raw: true } and codec.decode per document. Without the server's package the test is
// skipped by name; with CI=true it fails.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const { missingServer } = require('./support/wire-server');

const SCRIPT = path.join(__dirname, 'support', 'schema-driver-run.js');
const IN_CI = process.env.CI === 'true';
const COUNT = 200;
const TIMEOUT = 120000;

describe('the schema codec recipe: codec.validate before insertMany, raw: true and codec.decode against a wire-protocol server', function () {
    const missing = missingServer();
    if (missing) {
        if (IN_CI) it('runs under CI', () => assert.fail(`${missing}; CI=true needs the server`));
        else it.skip(`not run (skipped: ${missing})`);
        return;
    }
    let report;
    let error = null;

    before(function (done) {
        const res = spawnSync(process.execPath, [SCRIPT, String(COUNT)], { encoding: 'utf8', timeout: TIMEOUT, maxBuffer: 64 << 20 });
        if (res.error) error = `schema-driver-run.js did not end within ${TIMEOUT / 1000} s (${res.error.message})\n${res.stderr}`;
        else if (res.status !== 0) error = `schema-driver-run.js exited ${res.signal || res.status}:\n${res.stderr}`;
        else report = JSON.parse(res.stdout.trim().split('\n').pop());
        done();
    });

    it('a batch with documents that do not conform is refused before it is sent, each problem named', function () {
        assert.ifError(error);
        assert.deepStrictEqual(report.refused, { inserted: 0, problems: [[3, 'qty', 'minimum'], [7, 'sku', 'pattern']], count: 0 });
    });

    it('a conforming batch is inserted', function () {
        assert.ifError(error);
        assert.deepStrictEqual(report.accepted, { inserted: COUNT, problems: 0 });
    });

    it('raw: true and codec.decode give what decode gives, through the generated reader', function () {
        assert.ifError(error);
        assert.strictEqual(report.read.count, COUNT);
        assert.strictEqual(report.read.sameAsDecode, true);
        assert.strictEqual(report.read.sameAsInserted, true);
        assert.strictEqual(report.read.generated, COUNT);
        assert.deepStrictEqual(report.read.first, { _id: '65a1f0c2a1b2c3d400000000', sku: 'ABC-0000', qty: 0, price: 0.5, tags: [], added: '2023-11-14T22:13:20.000Z' });
    });

    it('a stored document that does not conform fails its read with the path, the rule and the server\'s words', function () {
        assert.ifError(error);
        assert.deepStrictEqual(report.badRead, {
            code: 'ERR_BSON_SCHEMA', path: 'qty', rule: 'bsonType',
            message: "Document failed validation: 'qty': type did not match (bsonType: 'int'; considered value 1.5 of type double)",
        });
    });
});
