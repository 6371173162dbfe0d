'use strict';

// The mutation fuzzer (test/support/fuzz.js) through schema codecs. Documents of
// the data sets and of the fuzzer's generator are mutated, and each mutated input
// goes through codec.decode of a codec compiled from the schema inferred from its
// seeds, with generated code and with the interpreter alone. The contract:
// - where decode throws, codec.decode throws a BSONError with decode's code, message and offset;
// - where decode returns a value, codec.decode returns exactly that value (keys in
//   the same order), or throws a BSONError with code ERR_BSON_SCHEMA;
// - the generated path and the interpreter give the same outcome;
// - nothing else is thrown, and Object.prototype is left alone.
//
//   QBSON_SCHEMA_FUZZ_N      inputs (default 4000)
//   QBSON_FUZZ_SEED          seed (default 1), as test/fuzz.test.js

const assert = require('assert');
const qbson = require('..');
const F = require('./support/fuzz');
const datasets = require('../benchmark/datasets');
const { inferSchema } = require('./support/infer-schema');
const { compile } = require('../lib/schema/codec');

const N = Number(process.env.QBSON_SCHEMA_FUZZ_N) || 4000;
const SEED = process.env.QBSON_FUZZ_SEED !== undefined ? Number(process.env.QBSON_FUZZ_SEED) : 1;
const BATCH = 1000;
const MAX_REPORTED = 5;

const { outcome, keyOrder } = require('./support/outcome');

function errorFields(err) {
    return { type: err.constructor.name, code: err.code, message: err.message, offset: err.offset, path: err.path, rule: err.rule };
}

// the groups of seeds, each with its codecs
function groups() {
    const out = [];
    const add = (name, buffers) => {
        const schema = inferSchema(buffers);
        out.push({ name, buffers, generated: compile(schema), interpreted: compile(schema, undefined, false) });
    };
    for (const [name, count] of [['deepkit_item', 1], ['tweet', 1], ['log_events', 40], ['batch1000', 40], ['flat_bson', 1], ['geojson_track', 1], ['binary_heavy', 1]]) {
        add(name, datasets.load(name).docs.slice(0, count).map((d) => qbson.encode(d)));
    }
    add('the fuzzer\'s generated documents', F.generatedDocuments(SEED, 60));
    return out;
}

function checkInput(group, input) {
    const expected = outcome(() => qbson.decode(input));
    const gen = outcome(() => group.generated.decode(input));
    const int = outcome(() => group.interpreted.decode(input));
    for (const [what, got] of [['generated', gen], ['interpreted', int]]) {
        if (got.err !== undefined && !(got.err instanceof qbson.BSONError)) {
            throw new F.ContractViolation(`${what} codec.decode threw ${got.err.constructor.name}, not a BSONError: ${got.err.stack}`);
        }
        if (expected.err !== undefined) {
            if (got.err === undefined) throw new F.ContractViolation(`${what} codec.decode returned where decode threw ${expected.err.message}`);
            assert.deepStrictEqual(errorFields(got.err), errorFields(expected.err), `${what}: decode's error`);
        } else if (got.err !== undefined) {
            if (got.err.code !== 'ERR_BSON_SCHEMA') throw new F.ContractViolation(`${what} codec.decode threw ${got.err.message} where decode returned`);
        } else {
            assert.deepStrictEqual(got.value, expected.value, `${what}: the value`);
            assert.deepStrictEqual(keyOrder(got.value), keyOrder(expected.value), `${what}: key order`);
        }
    }
    if (gen.err !== undefined || int.err !== undefined) {
        assert.ok(gen.err !== undefined && int.err !== undefined, 'one path threw, the other returned');
        assert.deepStrictEqual(errorFields(gen.err), errorFields(int.err), 'the two paths\' errors');
    }
    return gen.err === undefined;
}

describe(`schema fuzz: ${N} mutated inputs from seed ${SEED} through codec.decode`, function () {
    const all = groups();
    const prototypes = F.prototypeSnapshot();
    let conforming = 0;
    let unmutatedTaken = 0;

    it('every unmutated seed decodes through its codec as decode has it', function () {
        for (const group of all) {
            for (const bytes of group.buffers) {
                checkInput(group, bytes);
                unmutatedTaken++;
            }
        }
        assert.ok(unmutatedTaken > 100);
    });

    for (let from = 0; from < N; from += BATCH) {
        const to = Math.min(N, from + BATCH);
        it(`inputs ${from} to ${to - 1}: the codecs keep the contract`, function () {
            const failures = [];
            for (let i = from; i < to && failures.length < MAX_REPORTED; i++) {
                const rng = F.inputRandom(SEED ^ 0x5c4e3a, i);
                const group = all[i % all.length];
                const input = F.makeInput(rng, group.buffers, []);
                try {
                    if (checkInput(group, input)) conforming++;
                } catch (err) {
                    failures.push(`input ${i} (seed ${SEED}, ${group.name}): ${err.message.split('\n').slice(0, 12).join('\n')}\n  bytes ${input.toString('hex').slice(0, 400)}`);
                }
            }
            assert.strictEqual(F.prototypeSnapshot(), prototypes, 'a built-in prototype changed');
            if (failures.length) assert.fail(`${failures.length} failures:\n${failures.join('\n')}`);
        });
    }

    it('some mutated inputs still conform', function () {
        assert.ok(conforming > N / 50, `only ${conforming} of ${N} conform`);
        console.log(`      ${conforming} of ${N} mutated inputs decoded through a codec, the rest refused as decode or the schema refuses them`);
    });
});
