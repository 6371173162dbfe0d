'use strict';

// What a browser downloads stays within budget: the programs of scripts/sizes.js, bundled by
// esbuild through the package's own entry points and gzipped at level 9, must each stay within
// the budget scripts/sizes.js gives it, and no further under it than BUDGET_SLACK (a saving
// lowers the budget in the same change). bson@7's programs are bundled beside them in the same
// run, as the targets are multiples of theirs.

const assert = require('assert');
const { measure, PROGRAMS, BSON_PROGRAMS, BUDGETS, BUDGET_SLACK, TARGETS } = require('../scripts/sizes');
const { run } = require('./support/run-async');

const NAMES = Object.keys(PROGRAMS);
const B = (n) => n.toLocaleString('en-US') + ' B';

describe('bundle size', function () {
    let rows;

    before(run(async function () {
        rows = await measure();
    }));

    const row = (name) => rows.find((r) => r.name === name);

    it('every program has a budget and a bson@7 program to compare with, and every budget a program', function () {
        assert.deepStrictEqual(Object.keys(BUDGETS).sort(), NAMES.slice().sort());
        assert.deepStrictEqual(Object.keys(BSON_PROGRAMS).sort(), NAMES.slice().sort());
        assert.ok(Object.keys(TARGETS).every((name) => NAMES.includes(name)), 'a target without a program');
        assert.deepStrictEqual(rows.map((r) => r.name), NAMES);
    });

    for (const name of NAMES) {
        it(`${name}: within its budget, and less than ${BUDGET_SLACK} B under it`, function () {
            const r = row(name);
            assert.ok(r.gzipped <= r.budget, `${name} is ${B(r.gzipped)} gzipped, over its budget of ${B(r.budget)} ` +
                `(bson@7's ${r.bson.label}: ${B(r.bson.gzipped)}); make it smaller, or raise the budget in scripts/sizes.js and say why`);
            assert.ok(r.gzipped > r.budget - BUDGET_SLACK, `${name} is ${B(r.gzipped)} gzipped, ${B(r.budget - r.gzipped)} under ` +
                `its budget of ${B(r.budget)}: lower the budget in scripts/sizes.js to keep the saving`);
        });
    }

    for (const name of Object.keys(TARGETS)) {
        it(`${name}: once it meets its target (${TARGETS[name]}× bson@7's), its budget is no looser than the target`, function () {
            const r = row(name);
            if (r.gzipped <= r.target) {
                assert.ok(r.budget <= r.target, `${name} meets its target of ${B(r.target)} (${B(r.gzipped)}): ` +
                    `its budget ${B(r.budget)} must come down to the target`);
            } else {
                assert.ok(r.budget > r.target, `${name} misses its target of ${B(r.target)}, so its budget is today's size`);
            }
        });
    }

    it("bson@7's programs are bson's own browser build, and qbson's programs hold none of it", function () {
        for (const r of rows) {
            assert.ok(r.bson.inputs.includes('node_modules/bson/lib/bson.mjs'), r.bson.label + ': ' + r.bson.inputs.join(', '));
            assert.ok(r.bson.gzipped > 15000 && r.bson.gzipped < 40000, r.bson.label + ' gzips to ' + B(r.bson.gzipped));
            assert.ok(!r.inputs.some((f) => f.includes('node_modules/')), r.name + ' bundles ' + r.inputs.filter((f) => f.includes('node_modules/')));
            assert.ok(r.inputs.includes('lib/encode.js') && r.inputs.includes('lib/decode.js'), r.name + ' lacks the codec');
        }
        // every larger program holds at least what a smaller one does
        const sizes = NAMES.map((name) => row(name).gzipped);
        assert.ok(row('encode + decode').gzipped < row('encode + decode + EJSON').gzipped && sizes.every((s) => s <= row('everything').gzipped), sizes.join(', '));
    });
});
