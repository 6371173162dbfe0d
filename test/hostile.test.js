'use strict';

// Hostile input, one named case per promise: decode never crashes, hangs or
// pollutes; encode never emits corrupt BSON. The mutation fuzzer (fuzz.test.js)
// covers the same contract at random; each failure it found is a case here.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');

function hex(s) {
    return Buffer.from(s.replace(/\s+/g, ''), 'hex');
}

// A document of the given elements with its length word filled in.
function doc(...elements) {
    const body = Buffer.concat(elements.map((e) => (typeof e === 'string' ? hex(e) : e)));
    const out = Buffer.alloc(body.length + 5);
    out.writeInt32LE(out.length, 0);
    body.copy(out, 4);
    return out;
}

function assertDecodeError(bytes, pattern, opts) {
    let caught;
    try {
        qbson.decode(bytes, opts);
    } catch (err) {
        caught = err;
    }
    assert.ok(caught instanceof qbson.BSONError, `expected a BSONError, got ${caught && caught.stack}`);
    assert.strictEqual(typeof caught.offset, 'number', caught.message);
    assert.ok(caught.message.includes(`offset ${caught.offset}`), caught.message);
    assert.match(caught.message, pattern);
    return caught;
}

describe('hostile input', function () {
    describe('regular expressions', function () {
        it('options bson does not know, with bsonRegExp: a BSONError at the options\' offset', function () {
            // found by the fuzzer: BSONRegExp's own check threw without an offset
            const bytes = doc('0b 6100 6100 6300');
            const err = assertDecodeError(bytes, /regular expression options "c"/, { bsonRegExp: true });
            assert.strictEqual(err.offset, 9);
            assert.throws(() => bson.deserialize(bytes, { bsonRegExp: true }), bson.BSONError);
            // without bsonRegExp the unknown option is dropped, as bson drops it
            assert.strictEqual(qbson.decode(bytes).a.flags, bson.deserialize(bytes).a.flags);
        });
    });
});
