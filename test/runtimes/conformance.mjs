// qbson's conformance in any JavaScript runtime: the BSON spec corpus (binary and
// Extended JSON), property tests against bson in the same runtime, and bad input
// refused with the BSONError Node gives. No Node built-in: test/runtimes/build.mjs
// bundles it with fast-check and the corpus for browsers, Deno and Bun.
//
// runConformance(qbson, bson, options) -> { cases: [{ name, passed, failed, skipped: [...], failures: [...] }] }
// where options: { corpus: [suite], nodeErrors: { name: outcome }, runs, seed }.

import fc from 'fast-check';
import normalizeModule from '../support/normalize.js';
import arbitrariesModule from '../support/arbitraries.js';
import skipsModule from '../support/corpus-skips.js';
import ejsonModule from '../support/ejson-assertions.js';
import { BAD_INPUTS, errorOutcome } from './bad-inputs.mjs';

const { normalize, hex } = normalizeModule;
const { documentArbitraries, DECODE_OPTIONS, ENCODE_OPTIONS } = arbitrariesModule;
const { CONVERTED_SKIPS, EJSON_SKIPS } = skipsModule;
const { ejsonAssertions, parseErrorText, PARSE_LOSSLESS, CANONICAL, RELAXED } = ejsonModule;

// keeps every value's BSON type, as test/corpus.test.js decodes
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };
const BSON_DECODE = { promoteValues: false, bsonRegExp: true };
const MAX_FAILURES = 5;

export function fromHex(text) {
    const out = new Uint8Array(text.length >> 1);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
    return out;
}

// One named case of the report: its checks counted, the first failures kept.
class Case {
    constructor(name) {
        this.name = name;
        this.passed = 0;
        this.failed = 0;
        this.skipped = [];
        this.failures = [];
    }

    check(item, fn) {
        try {
            fn();
            this.passed++;
        } catch (err) {
            this.fail(item, err);
        }
    }

    fail(item, err) {
        this.failed++;
        if (this.failures.length < MAX_FAILURES) this.failures.push(`${item}: ${describe(err)}`);
    }

    skip(item, reason) {
        this.skipped.push(`${item} (skipped: ${reason})`);
    }
}

function describe(err) {
    if (err instanceof Error) return `${err.name}: ${err.message}`;
    return String(err);
}

function equal(actual, expected, what) {
    if (actual !== expected) throw new Error(`${what || 'value'}: ${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
}

// deep equality of two normalized trees: plain objects, arrays and primitives
function sameTree(a, b, where = '') {
    if (a === b) return;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
        throw new Error(`differs at ${where || 'the root'}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`);
    }
    const ak = Object.keys(a), bk = Object.keys(b);
    equal(ak.join(','), bk.join(','), `keys at ${where || 'the root'}`);
    for (const k of ak) sameTree(a[k], b[k], `${where}.${k}`);
}

// the same JSON value, keys in the same order
function sameJSON(actualText, expectedText) {
    equal(JSON.stringify(JSON.parse(actualText)), JSON.stringify(JSON.parse(expectedText)), 'Extended JSON');
}

function throwsBSONError(q, fn, test) {
    try {
        fn();
    } catch (err) {
        if (!(err instanceof q.BSONError)) throw new Error(`expected a BSONError, got ${describe(err)}`);
        if (test) test(err);
        return;
    }
    throw new Error('expected a BSONError, got no error');
}

// whether qbson's round trip misses the canonical bytes only as bson's own does in this
// runtime: an engine that keeps no NaN payload (JavaScriptCore) makes both write another NaN
function engineChangesBytes(q, bson, canonicalHex, bytes) {
    try {
        const ours = hex(q.encode(q.decode(bytes, LOSSLESS)));
        return ours !== canonicalHex && ours === hex(bson.serialize(bson.deserialize(bytes, BSON_DECODE)));
    } catch {
        return false;
    }
}

function corpusCases(q, bson, corpus) {
    const canonical = new Case('corpus: canonical BSON decodes and encodes to the same bytes');
    const degenerate = new Case('corpus: degenerate BSON encodes to the canonical bytes');
    const converted = new Case('corpus: deprecated types converted with the default options');
    const sameAsBSON = new Case("corpus: the default decode equals bson's");
    const decodeErrors = new Case('corpus: decodeErrors give a BSONError naming the offset');
    for (const suite of corpus) {
        for (const c of suite.valid || []) {
            const item = `${suite.file}: ${c.description}`;
            const cB = fromHex(c.canonical_bson);
            if (engineChangesBytes(q, bson, c.canonical_bson.toLowerCase(), cB)) {
                canonical.skip(item, "the engine changes these bytes (a NaN's payload), and bson's round trip in this runtime gives the same as qbson's");
            } else canonical.check(item, () => {
                const doc = q.decode(cB, LOSSLESS);
                equal(hex(q.encode(doc)), c.canonical_bson.toLowerCase(), 'bytes');
                equal(q.calculateObjectSize(doc), cB.length, 'calculateObjectSize');
            });
            if (c.degenerate_bson) {
                degenerate.check(item, () => equal(hex(q.encode(q.decode(fromHex(c.degenerate_bson), LOSSLESS))), c.canonical_bson.toLowerCase(), 'bytes'));
            }
            if (c.converted_bson && CONVERTED_SKIPS[suite.file]) converted.skip(item, CONVERTED_SKIPS[suite.file]);
            else if (c.converted_bson) {
                converted.check(item, () => equal(hex(q.encode(q.decode(cB), { ignoreUndefined: false })), c.converted_bson.toLowerCase(), 'bytes'));
            }
            sameAsBSON.check(item, () => {
                let theirs;
                try {
                    theirs = bson.deserialize(cB);
                } catch (err) {
                    // bson fails on some valid input (a regex JavaScript cannot compile): a BSONError or a value
                    try {
                        q.decode(cB);
                    } catch (ours) {
                        if (!(ours instanceof q.BSONError)) throw ours;
                    }
                    return;
                }
                sameTree(normalize(q.decode(cB)), normalize(theirs));
            });
        }
        for (const c of suite.decodeErrors || []) {
            decodeErrors.check(`${suite.file}: ${c.description}`, () => throwsBSONError(q, () => q.decode(fromHex(c.bson)), (err) => {
                equal(err.name, 'BSONError', 'name');
                if (!/offset \d+/.test(err.message)) throw new Error(`message names no offset: ${err.message}`);
            }));
        }
    }
    return [canonical, degenerate, converted, sameAsBSON, decodeErrors];
}

// for an assertion the corpus cannot have: qbson's text is bson's
function sameTextAsBSON(q, bson, name, c) {
    const cB = fromHex(c.canonical_bson);
    const text = name.startsWith('cB') ? c.canonical_extjson : name.startsWith('rEJ') ? c.relaxed_extjson : c.canonical_extjson;
    const opts = name.endsWith('rEJ') ? RELAXED : CANONICAL;
    const ours = name.startsWith('cB') ? q.EJSON.stringify(q.decode(cB, LOSSLESS), opts) : q.EJSON.stringify(q.EJSON.parse(text, PARSE_LOSSLESS), opts);
    const theirs = name.startsWith('cB')
        ? bson.EJSON.stringify(bson.deserialize(cB, BSON_DECODE), opts)
        : bson.EJSON.stringify(bson.EJSON.parse(text, CANONICAL), opts);
    equal(ours, theirs, "bson's text");
}

function ejsonCases(q, bson, corpus) {
    const valid = new Case('Extended JSON: the corpus both ways, canonical and relaxed');
    const parseErrors = new Case('Extended JSON: parseErrors give a BSONError');
    for (const suite of corpus) {
        for (const c of suite.valid || []) {
            const io = {
                EJSON: q.EJSON,
                decodeHex: (text) => q.decode(fromHex(text), LOSSLESS),
                encodeHex: (value) => hex(q.encode(value)),
                sameJSON,
                sameHex: (actual, expected) => equal(actual, expected, 'bytes'),
            };
            for (const [name, check] of ejsonAssertions(c, io)) {
                const item = `${suite.file}: ${c.description}: ${name}`;
                const reason = EJSON_SKIPS[item];
                if (reason) {
                    valid.skip(item, reason);
                    valid.check(`${item}: gives bson's text instead`, () => sameTextAsBSON(q, bson, name, c));
                } else valid.check(item, check);
            }
        }
        for (const c of suite.parseErrors || []) {
            const text = parseErrorText(suite, c);
            parseErrors.check(`${suite.file}: ${c.description}`, () => {
                JSON.parse(text);
                throwsBSONError(q, () => q.EJSON.parse(text));
                throwsBSONError(q, () => q.EJSON.parse(text, CANONICAL));
            });
        }
    }
    return [valid, parseErrors];
}

function bsonBytes(bson, doc) {
    try {
        return bson.serialize(doc);
    } catch {
        return null;
    }
}

// a property as one item per generated document; a counterexample is the failure
function property(kase, item, arb, predicate, params) {
    const out = fc.check(fc.property(arb, predicate), params);
    if (out.failed) {
        kase.fail(item, `seed ${params.seed}, path ${out.counterexamplePath}: ${describe(out.errorInstance)}`);
        kase.passed += Math.max(0, out.numRuns - 1);
    } else kase.passed += out.numRuns;
}

function propertyCases(q, bson, runs, seed) {
    const toBuffer = typeof Buffer === 'function' ? (b) => Buffer.from(b) : (b) => b.slice();
    const { rootArb } = documentArbitraries(fc, bson, toBuffer);
    const encodes = new Case("property: generated documents encode to bson's bytes");
    property(encodes, `${runs} documents`, fc.tuple(rootArb, fc.constantFrom(...ENCODE_OPTIONS)), ([doc, opts]) => {
        let expected;
        try {
            expected = bson.serialize(doc, opts);
        } catch (err) {
            fc.pre(bson.BSONError.isBSONError(err));
            throwsBSONError(q, () => q.encode(doc, opts));
            return;
        }
        const actual = q.encode(doc, opts);
        equal(hex(actual), hex(expected), 'bytes');
        equal(q.calculateObjectSize(doc, opts), actual.length, 'calculateObjectSize');
    }, { seed, numRuns: runs });
    const decodes = new Case("property: bson's bytes decode to bson's values under each option set");
    property(decodes, `${runs} documents`, fc.tuple(rootArb, fc.constantFrom(...DECODE_OPTIONS)), ([doc, opts]) => {
        const bytes = bsonBytes(bson, doc);
        fc.pre(bytes !== null);
        let expected;
        try {
            expected = bson.deserialize(bytes, opts);
        } catch {
            throwsBSONError(q, () => q.decode(bytes, opts));
            return;
        }
        sameTree(normalize(q.decode(bytes, opts)), normalize(expected));
    }, { seed: seed + 1, numRuns: runs });
    return [encodes, decodes];
}

// Documents of one repeated shape, wide enough to be staged: after COMPILE_AFTER (32)
// decodes lib/shapes.js builds them with a compiled constructor, or key by key where
// the page's Content-Security-Policy refuses code from strings. Keys that would break
// out of a string literal among them.
function shapeCases(q, bson) {
    const kase = new Case("shapes: documents of one repeated wide shape decode to bson's values");
    const keys = Array.from({ length: 40 }, (_, i) => (i % 7 === 0 ? `k${i}"'\\\n\u2028\${i}` : `field${i}`));
    for (let round = 0; round < 48; round++) {
        const row = (n) => Object.fromEntries(keys.map((k, i) => [k, i % 3 === 0 ? `s${round}.${n}` : round * i + n]));
        const bytes = bson.serialize({ rows: [row(0), row(1), row(2)], top: row(3) });
        kase.check(`round ${round}`, () => sameTree(normalize(q.decode(bytes)), normalize(bson.deserialize(bytes))));
    }
    return [kase];
}

// Each bad input refused with the error Node gives: the same class, code, offset, key path and message.
function badInputCases(q, nodeErrors) {
    const kase = new Case('bad input: a BSONError with the offset and key path Node gives');
    for (const bad of BAD_INPUTS) {
        const expected = nodeErrors[bad.name];
        if (!expected) {
            kase.fail(bad.name, 'no outcome recorded on Node');
            continue;
        }
        kase.check(bad.name, () => {
            const ours = errorOutcome(q, bad);
            if (!ours.isBSONError) throw new Error(`expected a BSONError, got ${ours.name}: ${ours.message}`);
            for (const field of bad.compare || ['name', 'code', 'offset', 'path', 'message']) equal(ours[field], expected[field], field);
        });
    }
    return [kase];
}

export function runConformance(q, bson, options) {
    const runs = options.runs || 300;
    const seed = options.seed || 20261122;
    const cases = [
        ...corpusCases(q, bson, options.corpus),
        ...ejsonCases(q, bson, options.corpus),
        ...propertyCases(q, bson, runs, seed),
        ...shapeCases(q, bson),
        ...badInputCases(q, options.nodeErrors),
    ];
    return { cases: cases.map((c) => ({ name: c.name, passed: c.passed, failed: c.failed, skipped: c.skipped, failures: c.failures })) };
}
