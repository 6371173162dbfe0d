'use strict';

// onDemand.parseToElements (lib/elements.js) against bson@7's: the same tuples for
// every valid document (the spec corpus, seeded generated documents, and each of
// their embedded documents and arrays at its offset); on mutated bytes, a
// BSONOffsetError naming an offset inside the input, never a looser answer than
// bson's, and never a refusal of a document qbson's decoder accepts.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');
const F = require('./support/fuzz');
// the exported function itself: it requires lib/elements.js on its first call
const { parseToElements } = qbson.onDemand;

const N = Number(process.env.QBSON_ELEMENTS_N) || 20000;
const SEED = Number(process.env.QBSON_ELEMENTS_SEED) || 17;
const DOCUMENT = 3;
const ARRAY = 4;

function bsonElements(bytes, offset) {
    try {
        return { value: [...bson.onDemand.parseToElements(bytes, offset)] };
    } catch (error) {
        return { error };
    }
}

// Compares the elements of the document at offset, then of each document inside it.
function compareTree(bytes, offset, label) {
    const ours = parseToElements(bytes, offset);
    assert.deepStrictEqual(ours, bsonElements(bytes, offset).value, `${label} at ${offset}`);
    let count = 1;
    for (const [type, , , valueOffset] of ours) {
        if (type === DOCUMENT || type === ARRAY) count += compareTree(bytes, valueOffset, label);
    }
    return count;
}

function parse(bytes) {
    try {
        return { value: parseToElements(bytes, 0) };
    } catch (error) {
        return { error };
    }
}

function decodes(bytes) {
    try {
        qbson.decode(bytes, { allowObjectSmallerThanBufferSize: true, validation: { utf8: false }, bsonRegExp: true });
        return true;
    } catch (err) {
        return false;
    }
}

describe('onDemand.parseToElements', function () {
    it('is exported as onDemand.parseToElements and BSON.onDemand.parseToElements, and gives lib/elements.js\'s tuples', function () {
        assert.strictEqual(qbson.BSON.onDemand, qbson.onDemand);
        const bytes = qbson.encode({ a: 1, b: 'x', c: { d: [1, 2] } });
        assert.deepStrictEqual(parseToElements(bytes, 0), require('../lib/elements').parseToElements(bytes, 0));
        assert.ok(Object.isFrozen(qbson.onDemand));
        assert.deepStrictEqual(Object.keys(qbson.onDemand).sort(), Object.keys(bson.onDemand).sort());
    });

    it('gives bson\'s tuples for every corpus document and each document inside it', function () {
        let count = 0;
        for (const bytes of F.corpusDocuments()) count += compareTree(bytes, 0, bytes.toString('hex'));
        assert.ok(count > 200, `only ${count} documents`);
    });

    it('gives bson\'s tuples for seeded generated documents, also from an offset inside a larger buffer', function () {
        for (const bytes of F.generatedDocuments(SEED, 300)) {
            compareTree(bytes, 0, bytes.toString('hex'));
            const padded = Buffer.concat([Buffer.from([1, 2, 3]), bytes, Buffer.from([9])]);
            compareTree(padded, 3, 'padded ' + bytes.toString('hex'));
        }
    });

    it('takes a plain Uint8Array and a missing or null startOffset as 0', function () {
        const bytes = new Uint8Array(qbson.serialize({ a: 'x', b: [1] }));
        assert.deepStrictEqual(parseToElements(bytes), bsonElements(bytes, 0).value);
        assert.deepStrictEqual(parseToElements(bytes, null), bsonElements(bytes, 0).value);
    });

    // a document around the body given in hex: its length word, the body, its NUL
    const doc = (body) => {
        const bytes = Buffer.from('00000000' + body + '00', 'hex');
        bytes.writeInt32LE(bytes.length, 0);
        return bytes.toString('hex');
    };
    // [what, bytes in hex, startOffset, the offset the error must name]
    const BAD = [
        ['fewer than 5 bytes', '05000000', 0, 0],
        ['length below 5', '0400000000', 0, 0],
        ['length past the input', '0600000000', 0, 0],
        ['no terminating NUL', '0500000001', 0, 4],
        ['startOffset outside the input', '0500000000', 9, 9],
        ['unknown type byte', doc('146100' + '00'), 0, 4],
        ['type byte 0x00 inside the document', doc('006100' + '10000000'), 0, 4],
        ['key running to the end', doc('106162'), 0, 4],
        ['int32 cut short', doc('106100' + '010203'), 0, 7],
        ['string length 0', doc('026100' + '00000000' + '00'), 0, 7],
        ['string without its NUL', doc('026100' + '02000000' + '6162'), 0, 12],
        ['boolean byte 2', doc('086100' + '02'), 0, 7],
        ['negative binary length', doc('056100' + 'ffffffff' + '00'), 0, 7],
        ['binary subtype 2 inner length disagreeing', doc('056100' + '05000000' + '02' + '02000000' + '00'), 0, 12],
        ['embedded document past its parent', doc('036100' + '0a000000' + '00'), 0, 7],
        ['embedded document without its NUL', doc('036100' + '05000000' + '01'), 0, 11],
        ['regular expression flags not terminated', doc('0b6100' + '6100' + '69'), 0, 9],
        ['code with scope whose parts disagree', doc('0f6100' + '10000000' + '02000000' + '6600' + '0500000000' + '00'), 0, 7],
        ['DBPointer without room for its ObjectId', doc('0c6100' + '02000000' + '6e00' + '0102'), 0, 13],
    ];
    for (const [what, hex, start, offset] of BAD) {
        it(`refuses ${what} with a BSONOffsetError at offset ${offset}`, function () {
            const bytes = Buffer.from(hex, 'hex');
            assert.throws(() => parseToElements(bytes, start), (err) => {
                assert.ok(err instanceof qbson.BSONOffsetError, `${err && err.name}: ${err && err.message}`);
                assert.ok(err instanceof qbson.BSONError);
                assert.strictEqual(err.offset, offset, err.message);
                assert.ok(err.message.endsWith(`. offset: ${offset}`), err.message);
                return true;
            });
            // the decoder refuses the same bytes
            assert.throws(() => qbson.decode(bytes, { index: start, allowObjectSmallerThanBufferSize: true }), qbson.BSONError);
        });
    }

    it(`on ${N} mutated documents: a BSONOffsetError inside the input, or bson's own tuples; never stricter than decode`, function () {
        const seeds = F.corpusDocuments().concat(F.generatedDocuments(SEED, 200));
        const special = F.corpusDecodeErrors();
        let accepted = 0;
        let refused = 0;
        for (let i = 0; i < N; i++) {
            const bytes = F.makeInput(F.inputRandom(SEED, i), seeds, special);
            const label = `input ${i} (seed ${SEED}): ${bytes.toString('hex')}`;
            const ours = parse(bytes);
            if (ours.error) {
                const err = ours.error;
                assert.ok(err instanceof qbson.BSONOffsetError, `${label}: ${err.stack}`);
                assert.ok(Number.isInteger(err.offset) && err.offset >= 0 && err.offset <= bytes.length, `${label}: offset ${err.offset}`);
                assert.ok(!decodes(bytes), `${label}: decode accepts what parseToElements refuses (${err.message})`);
                refused++;
            } else {
                const theirs = bsonElements(bytes, 0);
                assert.ok(!theirs.error, `${label}: bson refuses (${theirs.error && theirs.error.message}) what qbson accepts`);
                assert.deepStrictEqual(ours.value, theirs.value, label);
                accepted++;
            }
        }
        assert.ok(accepted > N / 20 && refused > N / 20, `accepted ${accepted}, refused ${refused}`);
    });
});
