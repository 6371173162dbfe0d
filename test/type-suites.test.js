'use strict';

// Outside type checks with 'bson' resolved to qbson, each beside the same check on
// bson itself (test/support/type-suites.js builds and runs them):
//  - js-bson's own type tests (tsd): no diagnostic;
//  - the MongoDB driver's src/, with its tsconfig and TypeScript 5.8.3: no error;
//  - the driver's type tests (tsd), against its published mongodb.d.ts and its src/:
//    exactly the diagnostics bson gets (the bson run has some of its own: the tests
//    also import driver internals that the published declarations leave out);
//  - every interface and type of mongodb.d.ts has the same keys with either package.

const assert = require('assert');
const suites = require('./support/type-suites');
const path = require('path');

const QBSON_TYPES = path.join(suites.ROOT, 'index.d.ts');
const BSON_TYPES = path.join(suites.BSON_DIR, 'bson.d.ts');

function sameDiagnostics(withQbson, withBson, what) {
    const onlyQbson = withQbson.filter((d) => !withBson.includes(d));
    const onlyBson = withBson.filter((d) => !withQbson.includes(d));
    assert.deepStrictEqual({ onlyQbson, onlyBson }, { onlyQbson: [], onlyBson: [] }, what);
}

describe('type suites of bson and the driver', function () {
    it("js-bson's type tests pass with bson.d.ts replaced by index.d.ts, as with bson's own", function () {
        assert.deepStrictEqual(suites.jsBsonTypeTests(BSON_TYPES), [], 'the baseline run on bson');
        assert.deepStrictEqual(suites.jsBsonTypeTests(QBSON_TYPES), []);
    });

    it("the driver's src/ compiles with its tsconfig and TypeScript 5.8.3 against qbson, as against bson", function () {
        assert.deepStrictEqual(suites.driverSource(suites.BSON_DIR), [], 'the baseline run on bson');
        assert.deepStrictEqual(suites.driverSource(suites.ROOT), []);
    });

    it("the driver's type tests against its published mongodb.d.ts: the same diagnostics with qbson as with bson", function () {
        sameDiagnostics(suites.driverTypeTests(suites.ROOT, 'dts'), suites.driverTypeTests(suites.BSON_DIR, 'dts'), 'mongodb.d.ts');
    });

    it("the driver's type tests against its src/: the same diagnostics with qbson as with bson", function () {
        sameDiagnostics(suites.driverTypeTests(suites.ROOT, 'src'), suites.driverTypeTests(suites.BSON_DIR, 'src'), 'src/');
    });

    it("every interface and type of mongodb.d.ts (MongoClientOptions, FindOptions, ...) has the same keys with qbson as with bson", function () {
        const withBson = suites.driverOptionKeys(suites.BSON_DIR);
        const withQbson = suites.driverOptionKeys(suites.ROOT);
        assert.ok(withBson.size > 200, `only ${withBson.size} types read from mongodb.d.ts`);
        assert.ok(/(^|,)fieldsAsRaw(,|$)/.test(withBson.get('MongoClientOptions')), 'MongoClientOptions has bson\'s fieldsAsRaw');
        const differing = [...withBson.keys()].filter((name) => withQbson.get(name) !== withBson.get(name));
        assert.deepStrictEqual(differing.map((name) => ({ name, bson: withBson.get(name), qbson: withQbson.get(name) })), []);
        assert.strictEqual(withQbson.size, withBson.size);
    });
});
