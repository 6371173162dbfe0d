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
    describe('UTF-8', function () {
        // overlong, surrogate halves, past U+10FFFF, cut short, stray continuation, 0xFF
        const BAD = ['c080', 'eda080', 'edbfbf', 'f4908080', 'e282', 'f09f98', '80', 'ff', 'fe', 'c3', 'e0a0', 'f8888080'];

        function stringDoc(bytes) {
            const len = Buffer.alloc(4);
            len.writeInt32LE(bytes.length + 1);
            return doc('02 7300', len, bytes, '00');
        }

        it('invalid UTF-8 in a string value is a BSONError at the string by default', function () {
            for (const bad of BAD) {
                for (const pad of [0, 40]) {
                    const bytes = stringDoc(Buffer.concat([Buffer.alloc(pad, 0x61), hex(bad)]));
                    const err = assertDecodeError(bytes, /invalid UTF-8/);
                    assert.strictEqual(err.offset, 11, bad);
                }
            }
        });

        it('with validation.utf8 false, string values decode exactly as bson decodes them', function () {
            for (const bad of BAD) {
                for (const pad of [0, 40]) {
                    const bytes = stringDoc(Buffer.concat([Buffer.alloc(pad, 0x61), hex(bad), hex('62')]));
                    const opts = { validation: { utf8: false } };
                    assert.strictEqual(qbson.decode(bytes, opts).s, bson.deserialize(bytes, opts).s, bad);
                }
            }
        });

        it('an invalid key is an error by default, where bson (which never validates keys) decodes it', function () {
            const bytes = doc('10 61ff00 01000000');
            assertDecodeError(bytes, /invalid UTF-8 in key/);
            const theirs = Object.keys(bson.deserialize(bytes));
            assert.deepStrictEqual(Object.keys(qbson.decode(bytes, { validation: { utf8: false } })), theirs);
            assert.deepStrictEqual(theirs, ['a\ufffd']);
        });

        it('a regex follows the validation setting of its key, as strings do', function () {
            // the regex used to take the global setting, whatever its key
            const bytes = doc('0b 6200 61ff00 6900', '02 6300 03000000 61ff00');
            const opts = { validation: { utf8: { a: true } } };
            const ours = qbson.decode(bytes, opts);
            const theirs = bson.deserialize(bytes, opts);
            assert.strictEqual(ours.b.source, theirs.b.source);
            assert.strictEqual(ours.c, theirs.c);
            assertDecodeError(bytes, /invalid UTF-8/, { validation: { utf8: { b: true } } });
        });
    });
});
