'use strict';

// JSON-Schema-Test-Suite, draft 4 (test/fixtures/json-schema-test-suite, ORIGIN.md there), as data:
// every test of the files of the keywords MongoDB supports runs through compile(schema).validate.
// - data that is a document runs as it is: validate(data) is [] exactly when the suite says valid;
// - data that is not a document (a number, a string, an array...) cannot be a BSON document: the
//   test is skipped as such and named, and runs instead as the value of a field, under
//   { properties: { value: schema }, required: ['value'] } with the document { value: data };
// - a schema the server refuses (a keyword it does not support, type 'integer', an empty required
//   list) is refused by compile too: its tests are skipped, named, and counted by reason, and the
//   reasons are checked against the list below;
// - data BSON cannot hold (a key with a NUL) is skipped and named.
// The counts are checked at the end, so that a change in the suite or in compile is seen.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const qbson = require('..');
const { compile } = require('../lib/schema/codec');

const DIR = path.join(__dirname, 'fixtures', 'json-schema-test-suite', 'draft4');

// why compile may refuse a schema of the suite: what the server refuses too
const REFUSALS = [
    [/keyword '\$ref' is not currently supported/, '$ref'],
    [/keyword 'definitions' is not currently supported/, 'definitions'],
    [/keyword 'format' is not currently supported/, 'format'],
    [/keyword 'id' is not currently supported/, 'id'],
    [/keyword '\$schema' is not currently supported/, '$schema'],
    [/keyword 'default' is not currently supported/, 'default'],
    [/type 'integer' is not currently supported/, "type 'integer'"],
    [/'required' cannot be an empty array/, 'required: [] (the server asks for at least one name)'],
];

function refusalReason(err) {
    for (const [re, reason] of REFUSALS) if (re.test(err.message)) return reason;
    // keywords of later drafts the server does not know ($comment)
    const unknown = /^Unknown \$jsonSchema keyword: (\S+)/.exec(err.message);
    return unknown === null ? null : `${unknown[1]} (a keyword the server does not know)`;
}

function isDocument(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function holdable(doc) {
    try {
        qbson.encode(doc);
        return true;
    } catch {
        return false;
    }
}

const counts = { direct: 0, wrapped: 0, topLevelNotDocument: 0, refused: {}, notHoldable: 0 };

// codec: [generated, interpreted]; validate, decode and encode agree between them and with the suite
function expectValidity(codecs, doc, valid, name) {
    const [codec, interpreted] = codecs;
    const problems = codec.validate(doc);
    assert.deepStrictEqual(interpreted.validate(doc), problems, `${name}: the interpreter's problems`);
    const bytes = qbson.encode(doc);
    const decoded = [codec, interpreted].map((c) => {
        try {
            return { value: c.decode(bytes) };
        } catch (err) {
            assert.strictEqual(err.code, 'ERR_BSON_SCHEMA', err.stack);
            return { err: [err.path, err.rule, err.message] };
        }
    });
    assert.deepStrictEqual(decoded[0], decoded[1], `${name}: generated and interpreted decode`);
    assert.strictEqual(decoded[0].err === undefined, valid, `${name}: decode`);
    if (valid) assert.ok(codec.encode(doc).equals(bytes), `${name}: encode`);
    assert.strictEqual(problems.length === 0, valid, `${name}: expected ${valid ? 'valid' : 'invalid'}, problems: ${JSON.stringify(problems)}`);
    for (const p of problems) {
        assert.strictEqual(typeof p.path, 'string');
        assert.strictEqual(typeof p.rule, 'string');
        assert.strictEqual(typeof p.message, 'string');
    }
}

describe('JSON-Schema-Test-Suite draft 4 through validate', function () {
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

    for (const file of files) {
        const groups = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'));
        describe(file, function () {
            for (const group of groups) {
                let codec = null;
                let wrappedCodec = null;
                let reason = null;
                try {
                    codec = [compile(group.schema), compile(group.schema, undefined, false)];
                    const wrapped = { properties: { value: group.schema }, required: ['value'] };
                    wrappedCodec = [compile(wrapped), compile(wrapped, undefined, false)];
                } catch (err) {
                    assert.strictEqual(err.code, 'ERR_BSON_SCHEMA_INVALID', `${file}: ${group.description}: ${err.stack}`);
                    reason = refusalReason(err);
                    assert.ok(reason !== null, `${file}: ${group.description}: refused for a reason the server does not have: ${err.message}`);
                }
                for (const t of group.tests) {
                    const name = `${group.description}: ${t.description}`;
                    if (reason !== null) {
                        counts.refused[reason] = (counts.refused[reason] || 0) + 1;
                        it.skip(`${name}: the schema uses ${reason}, which the server refuses`, function () {});
                        continue;
                    }
                    if (isDocument(t.data)) {
                        if (!holdable(t.data)) {
                            counts.notHoldable++;
                            it.skip(`${name}: a document BSON cannot hold`, function () {});
                            continue;
                        }
                        counts.direct++;
                        it(name, function () {
                            expectValidity(codec, t.data, t.valid, name);
                        });
                        continue;
                    }
                    counts.topLevelNotDocument++;
                    it.skip(`${name}: top level ${Array.isArray(t.data) ? 'an array' : t.data === null ? 'null' : typeof t.data}, not a document`, function () {});
                    counts.wrapped++;
                    it(`${name} (as the value of a field)`, function () {
                        expectValidity(wrappedCodec, { value: t.data }, t.valid, name);
                    });
                }
            }
        });
    }

    describe('counts', function () {
        it('every test ran, or was skipped for a reason named here', function () {
            const refused = Object.values(counts.refused).reduce((a, b) => a + b, 0);
            // the figures of the suite's commit named in ORIGIN.md
            assert.deepStrictEqual(counts, {
                direct: 98, wrapped: 306, topLevelNotDocument: 306, notHoldable: 0,
                refused: { "type 'integer'": 95, '$comment (a keyword the server does not know)': 4, definitions: 6 },
            });
            assert.strictEqual(counts.wrapped, counts.topLevelNotDocument);
            console.log(`      draft4: ${counts.direct} as documents, ${counts.wrapped} as a field's value (top level not a document), ` +
                `${refused} skipped for schemas the server refuses ${JSON.stringify(counts.refused)}, ${counts.notHoldable} not holdable in BSON`);
        });
    });
});
