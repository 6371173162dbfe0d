'use strict';

// Runs one operation with qbson and with bson@7: both must throw (qbson a
// BSONError, with bson's very message when sameMessage), or both must return
// results that `compare` accepts (deep equality unless told otherwise).

const assert = require('assert');
const util = require('util');
const { BSONError } = require('../../lib/errors');

function outcome(run) {
    try {
        return { value: run() };
    } catch (err) {
        return { error: err };
    }
}

function assertSameOutcome(runOurs, runTheirs, label, { sameMessage = false, compare = assert.deepStrictEqual } = {}) {
    const theirs = outcome(runTheirs);
    const ours = outcome(runOurs);
    if (theirs.error) {
        assert.ok(ours.error, `${label}: bson throws "${theirs.error.message}" but qbson returns ${util.inspect(ours.value)}`);
        assert.ok(ours.error instanceof BSONError, `${label}: qbson threw ${ours.error.stack}`);
        if (sameMessage) assert.strictEqual(ours.error.message, theirs.error.message, label);
        return;
    }
    assert.ok(!ours.error, `${label}: qbson throws "${ours.error && ours.error.stack}" but bson does not`);
    compare(ours.value, theirs.value, label);
}

module.exports = { assertSameOutcome };
