'use strict';

// The deliberate differences from bson@7.3.4 that README's "Differences from bson" lists and that
// js-bson's own test/node suite notices: one test per difference showing what qbson does, each
// naming the js-bson tests (by their full mocha titles) that fail on qbson because of it.

const assert = require('assert');
const bson = require('bson');
const qbson = require('..');

function nested(levels, wrap) {
    let doc = {};
    for (let i = 0; i < levels; i++) doc = wrap(doc);
    return doc;
}

function assertTooDeep(fn) {
    assert.throws(fn, (err) => err instanceof qbson.BSONError && err.code === 'ERR_BSON_TOO_DEEP');
}

const DIFFERENCES = [
    {
        name: 'nesting is limited by maxDepth (default 500) and, raised, by the call stack: a BSONError, never a RangeError',
        jsBsonTests: [
            'serialize() when serializing deeply nested documents can serialize a document with 20,000 nesting levels without a stack overflow',
            'serialize() when serializing deeply nested documents produces valid BSON after deserializing and re-serializing a deeply nested document',
            'serialize() when serializing deeply nested documents can serialize a document containing a deeply nested array without a stack overflow',
            'calculateSize() when calculating size of deeply nested documents can calculate the size of a document with 20,000 nesting levels without a stack overflow',
        ],
        check() {
            const deep = nested(20000, (d) => ({ a: d }));
            const bytes = bson.serialize(deep);
            assertTooDeep(() => qbson.encode(deep));
            assertTooDeep(() => qbson.calculateObjectSize(deep));
            assertTooDeep(() => qbson.decode(bytes));
            assertTooDeep(() => qbson.encode(deep, { maxDepth: 20001 }));
            assertTooDeep(() => qbson.decode(bytes, { maxDepth: 20001 }));
            const within = nested(500, (d) => ({ a: d }));
            assert.deepStrictEqual(qbson.encode(within), Buffer.from(bson.serialize(within)));
            assert.deepStrictEqual(qbson.decode(qbson.encode(within)), bson.deserialize(bson.serialize(within)));
        },
    },
    {
        name: "qbson's own names are exported beside bson's",
        jsBsonTests: ['bson entrypoint should export all and only the expected keys in expected_exports'],
        check() {
            const own = Object.keys(qbson).filter((k) => !(k in bson));
            for (const name of ['encode', 'decode', 'decodeAll', 'encodeInto', 'decodeStream', 'encodeStream', 'DBPointer', 'BSONUndefined']) {
                assert.ok(own.includes(name), name);
            }
            // every extra name is one of qbson's, documented in its README
            const readme = require('fs').readFileSync(require('path').join(__dirname, '..', 'README.md'), 'utf8');
            for (const name of own) assert.ok(readme.includes('`' + name), `${name} is not in README.md`);
            const missing = Object.keys(bson).filter((k) => !(k in qbson));
            assert.deepStrictEqual(missing, []);
        },
    },
    {
        name: 'an ArrayBuffer encodes as binary subtype 0, where bson writes an empty document',
        jsBsonTests: ['Full BSON Should Correctly Serialize and Deserialize a ArrayBuffer object'],
        check() {
            const ab = new Uint8Array([1, 2, 3]).buffer;
            const doc = qbson.decode(qbson.encode({ ab }));
            assert.deepStrictEqual([...doc.ab.buffer], [1, 2, 3]);
            assert.strictEqual(qbson.calculateObjectSize({ ab }), qbson.encode({ ab }).length);
            assert.deepStrictEqual(bson.deserialize(bson.serialize({ ab })).ab, {});
        },
    },
    {
        name: 'a $numberLong outside the int64 range is refused, where bson wraps it',
        jsBsonTests: [
            'Long static fromExtendedJSON() when useBigInt64=true truncates positive numbers outside int64 range',
            'Long static fromExtendedJSON() when useBigInt64=true truncates negative numbers outside int64 range',
            'Long static fromExtendedJSON() when useBigInt64=false truncates positive numbers outside int64 range',
            'Long static fromExtendedJSON() when useBigInt64=false truncates negative numbers outside int64 range',
        ],
        check() {
            for (const s of ['9223372036854775808', '-9223372036854775809']) {
                assert.throws(() => qbson.Long.fromExtendedJSON({ $numberLong: s }), /outside the 64-bit integer range/);
                assert.throws(() => qbson.EJSON.parse(`{"a":{"$numberLong":"${s}"}}`), /outside the 64-bit integer range at key path 'a'/);
                assert.doesNotThrow(() => bson.Long.fromExtendedJSON({ $numberLong: s }));
            }
        },
    },
    {
        name: 'onDemand.parseToElements is as strict as decode: a boolean byte must be 0 or 1, a binary must fit, and an offset names the byte at fault',
        jsBsonTests: [
            'parseToElements() when given a bson document with one boolean element returns one element with type=8 and length=1',
            // bson@7.3.4 fails this one too: the binary in it declares 5 bytes and holds 1
            'parseToElements() when given a bson document with one binary element returns one element with type=5 and length=10',
            'parseToElements() when a document has a size smaller than the input throws an error that it found a 0 type byte at an offset before document end',
        ],
        check() {
            const boolean = Buffer.from('09000000' + '08' + '6100' + '45' + '00', 'hex');
            assert.throws(() => qbson.onDemand.parseToElements(boolean), (err) => err instanceof qbson.BSONOffsetError && err.offset === 7);
            assert.deepStrictEqual(bson.onDemand.parseToElements(boolean), [[8, 5, 1, 7, 1]]);
            const binary = Buffer.from('0d000000' + '05' + '6100' + '05000000' + '23' + '00', 'hex');
            assert.throws(() => qbson.onDemand.parseToElements(binary), /larger than document/);
            assert.throws(() => bson.onDemand.parseToElements(binary), /larger than document/);
            const early = new Uint8Array([6, 0, 0, 0, 0, 0, 0]);
            assert.throws(() => qbson.onDemand.parseToElements(early), (err) => /^Invalid 0x00 type byte/.test(err.message) && err.offset === 4);
            assert.throws(() => bson.onDemand.parseToElements(early), (err) => err.offset === 5);
        },
    },
];

describe('differences from bson@7.3.4 that js-bson\'s test suite notices', function () {
    for (const d of DIFFERENCES) {
        it(`${d.name} (js-bson: ${d.jsBsonTests.length} test${d.jsBsonTests.length === 1 ? '' : 's'})`, function () {
            assert.ok(d.jsBsonTests.length > 0);
            d.check();
        });
    }
});

module.exports = { DIFFERENCES };
