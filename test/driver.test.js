'use strict';

// The official MongoDB driver (devDependency `mongodb`) running on qbson: the
// driver's own OpMsgRequest serializes commands and its OpMsgResponse,
// MongoDBResponse, CursorResponse and OnDemandDocument parse replies, once with
// the driver's require('bson') resolved to qbson and once on bson itself
// (test/fixtures/driver-run.js). Every byte and value must be the same.

const assert = require('assert');
const path = require('path');
const { spawnSync } = require('child_process');

const SCRIPT = path.join(__dirname, 'fixtures', 'driver-run.js');

function runOn(library) {
    const res = spawnSync(process.execPath, [SCRIPT, library], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.strictEqual(res.status, 0, `driver-run.js ${library} exited ${res.status}:\n${res.stderr}`);
    return JSON.parse(res.stdout);
}

describe('the mongodb driver on qbson', function () {
    let onQbson;
    let onBson;

    before(function (done) {
        onQbson = runOn('qbson');
        onBson = runOn('bson');
        done();
    });

    it('require("mongodb") loads with qbson as its bson, and the bson run does not', function () {
        assert.strictEqual(onQbson.driverUsesQbson, true);
        assert.strictEqual(onBson.driverUsesQbson, false);
    });

    it('OpMsgRequest builds byte-identical commands (insert, document sequences, find, getMore, options)', function () {
        assert.strictEqual(onQbson.requests.length, 7);
        for (let i = 0; i < onBson.requests.length; i++) {
            assert.strictEqual(onQbson.requests[i].name, onBson.requests[i].name);
            assert.strictEqual(onQbson.requests[i].bytes, onBson.requests[i].bytes, onBson.requests[i].name);
        }
    });

    it('replies parse to the same elements, fields, errors and cursor documents', function () {
        assert.strictEqual(onQbson.responses.length, onBson.responses.length);
        for (let i = 0; i < onBson.responses.length; i++) {
            const ours = onQbson.responses[i];
            const theirs = onBson.responses[i];
            for (const field of Object.keys(theirs)) assert.deepStrictEqual(ours[field], theirs[field], `${theirs.name}: ${field}`);
            assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
        }
    });

    it('the comparison covers what it claims: cursor batches, raw documents, error replies', function () {
        const find = onQbson.responses.find((r) => r.name === 'find reply');
        assert.strictEqual(find.documents.length, 25);
        assert.strictEqual(find.rawDocuments.length, 25);
        assert.strictEqual(find.documentsWithOptions.length, 25);
        assert.strictEqual(find.cursorId, '7362546712345678');
        assert.ok(find.elements.length >= 4);
        const error = onQbson.responses.find((r) => r.name === 'error reply');
        assert.strictEqual(error.ok, 0);
        assert.strictEqual(error.code, 10107);
        assert.strictEqual(onQbson.responses.find((r) => r.name === 'insert reply with write errors').isMaxTimeExpiredError, true);
    });
});
