'use strict';

// The driver recipe of docs/driver-json.md, end to end against a real MongoDB wire-protocol
// server: test/fixtures/driver-json-run.js starts the in-memory server of the devDependency
// @push.rocks/smartmongo on 127.0.0.1 in its own process, with the official driver on qbson,
// and reads the same documents with { raw: true } through bsonToJSON and the ordinary way.
// The fixture must end by itself within the time allowed, which it does only once the
// server and the client are closed. Without the server's package the test is skipped by
// name; with CI=true it fails.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');
const { missingServer } = require('./support/wire-server');

const SCRIPT = path.join(__dirname, 'fixtures', 'driver-json-run.js');
const IN_CI = process.env.CI === 'true';
const COUNT = 300;
// a backstop: the fixture itself fails within seconds when anything is left open after closing
const TIMEOUT = 120000;

// every BSON type the server keeps: it decodes what it stores with bson's defaults, so
// undefined, DBPointer and symbol (0x06, 0x0c, 0x0e) come back as null, a DBRef and a string
const TYPES_KEPT = [0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0d, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x7f, 0xff];

// the two texts equal, or where they first differ
function assertSameText(actual, expected, what) {
    if (actual === expected) return;
    let at = 0;
    while (at < actual.length && actual[at] === expected[at]) at++;
    assert.fail(`${what}: the texts (${actual.length} and ${expected.length} characters) differ at ${at}:\n` +
        `  ${JSON.stringify(actual.slice(Math.max(0, at - 60), at + 60))}\n  ${JSON.stringify(expected.slice(Math.max(0, at - 60), at + 60))}`);
}

function runFixture() {
    const res = spawnSync(process.execPath, [SCRIPT, String(COUNT)], { encoding: 'utf8', timeout: TIMEOUT, maxBuffer: 256 << 20 });
    if (res.error) return { error: `driver-json-run.js did not end within ${TIMEOUT / 1000} s (${res.error.message}): something was left running\n${res.stderr}` };
    if (res.status !== 0) return { error: `driver-json-run.js exited ${res.signal || res.status}:\n${res.stderr}` };
    return { report: JSON.parse(res.stdout.trim().split('\n').pop()) };
}

describe('the driver recipe: raw: true and bsonToJSON against a wire-protocol server', function () {
    const missing = missingServer();
    if (missing) {
        if (IN_CI) it('runs under CI', () => assert.fail(`${missing}; CI=true needs the server`));
        else it.skip(`not run (skipped: ${missing})`);
        return;
    }
    let run;

    before(function (done) {
        run = runFixture();
        done();
    });

    it('the server starts, the driver runs on qbson, and the process ends by itself once both are closed', function () {
        assert.ifError(run.error);
        assert.strictEqual(run.report.driverUsesQbson, true);
    });

    it('the documents come back holding every type the server keeps, in several batches', function () {
        assert.ifError(run.error);
        assert.strictEqual(run.report.count, COUNT);
        assert.deepStrictEqual(run.report.types, TYPES_KEPT);
        // 300 documents in batches of 64: the first batch and 4 getMore per read, 8 reads with raw: true
        assert.strictEqual(run.report.rawGetMores, 32);
    });

    it("'json': the cursor through bsonToJSON is JSON.stringify of the documents find returns", function () {
        assert.ifError(run.error);
        assert.strictEqual(JSON.parse(run.report.ordinary.json).length, COUNT);
        assertSameText(run.report.raw.json, run.report.ordinary.json, "'json'");
    });

    it("'json' with many: 'array' on the cursor's documents, many: 'lines', and output: 'bytes' give the same text", function () {
        assert.ifError(run.error);
        assertSameText(run.report.rawMany.json, run.report.ordinary.json, "many: 'array'");
        assertSameText(run.report.rawLines, run.report.ordinary.lines, "many: 'lines'");
        const { text, length, utf8 } = run.report.rawBytes;
        assert.strictEqual(utf8, true);
        assert.strictEqual(length, Buffer.byteLength(run.report.ordinary.json));
        assertSameText(text, run.report.ordinary.json, "output: 'bytes'");
    });

    it("'relaxed' and 'canonical': EJSON.stringify of the documents, by qbson's EJSON and by bson's", function () {
        assert.ifError(run.error);
        for (const mode of ['relaxed', 'canonical']) {
            assertSameText(run.report.ordinary[mode + 'ByBson'], run.report.ordinary[mode], `${mode}: bson's EJSON against qbson's`);
            assertSameText(run.report.raw[mode], run.report.ordinary[mode], `'${mode}'`);
            assertSameText(run.report.rawMany[mode], run.report.ordinary[mode], `'${mode}', many: 'array'`);
        }
        assert.notStrictEqual(run.report.raw.relaxed, run.report.raw.canonical);
    });

    it('the HTTP example of docs/driver-json.md sends that same JSON array', function () {
        assert.ifError(run.error);
        const { status, type, body, ordinary, stderr } = run.report.example;
        assert.strictEqual(status, 200);
        assert.strictEqual(type, 'application/json; charset=utf-8');
        assert.strictEqual(stderr, '');
        assert.strictEqual(JSON.parse(body).length, COUNT);
        assertSameText(body, ordinary, 'the HTTP body');
    });
});
