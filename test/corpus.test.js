'use strict';

// The BSON specification's corpus, driven as data: one test per case.
//  valid:        canonical_bson -> decode -> encode === canonical_bson (lossless options),
//                degenerate_bson -> decode -> encode === canonical_bson,
//                converted_bson (deprecated types) with the default options,
//                and the default decode deep-equals bson@7's deserialize.
//  decodeErrors: decode throws BSONError.
// The Extended JSON fields belong to test/ejson.test.js.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const { normalize } = require('./support/normalize');
const { CONVERTED_SKIPS } = require('./support/corpus-skips');
const { loadCorpus } = require('./support/corpus');

// keeps every value's BSON type: no promotion, deprecated types preserved, regex kept as stored
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };

function hexBuffer(hex) {
    return Buffer.from(hex, 'hex');
}

function bsonDecodes(buf) {
    try {
        return { value: bson.deserialize(buf) };
    } catch (err) {
        return { error: err };
    }
}

describe('BSON corpus', function () {
    for (const suite of loadCorpus()) {
        describe(`${suite.file}: ${suite.description}`, function () {
            for (const c of suite.valid || []) {
                const canonical = hexBuffer(c.canonical_bson);

                it(`valid: ${c.description}: canonical round trip`, function () {
                    const doc = qbson.decode(canonical, LOSSLESS);
                    assert.strictEqual(qbson.encode(doc).toString('hex'), canonical.toString('hex'));
                    assert.strictEqual(qbson.calculateObjectSize(doc), canonical.length);
                });

                if (c.degenerate_bson) {
                    it(`valid: ${c.description}: degenerate to canonical`, function () {
                        const doc = qbson.decode(hexBuffer(c.degenerate_bson), LOSSLESS);
                        assert.strictEqual(qbson.encode(doc).toString('hex'), canonical.toString('hex'));
                    });
                }

                if (c.converted_bson && CONVERTED_SKIPS[suite.file]) {
                    it.skip(`valid: ${c.description}: converted (skipped: ${CONVERTED_SKIPS[suite.file]})`, function () {});
                } else if (c.converted_bson) {
                    it(`valid: ${c.description}: converted with default options`, function () {
                        const doc = qbson.decode(canonical);
                        const bytes = qbson.encode(doc, { ignoreUndefined: false });
                        assert.strictEqual(bytes.toString('hex'), c.converted_bson.toLowerCase());
                    });
                }

                it(`valid: ${c.description}: default decode equals bson's`, function () {
                    const theirs = bsonDecodes(canonical);
                    if (theirs.error) {
                        // bson@7 fails on some valid input (a stored regex JavaScript cannot compile);
                        // qbson must instead give a BSONError or a value
                        let ours;
                        try {
                            ours = qbson.decode(canonical);
                        } catch (err) {
                            assert.ok(err instanceof qbson.BSONError, `expected BSONError, got ${err}`);
                            return;
                        }
                        assert.ok(ours !== undefined);
                        return;
                    }
                    assert.deepStrictEqual(normalize(qbson.decode(canonical)), normalize(theirs.value));
                });
            }

            for (const c of suite.decodeErrors || []) {
                it(`decodeError: ${c.description}`, function () {
                    assert.throws(() => qbson.decode(hexBuffer(c.bson)), (err) => {
                        assert.ok(err instanceof qbson.BSONError, `expected a BSONError, got ${err && err.stack}`);
                        assert.strictEqual(err.name, 'BSONError');
                        assert.ok(/offset \d+/.test(err.message), `message names no offset: ${err.message}`);
                        return true;
                    });
                });
            }
        });
    }
});
