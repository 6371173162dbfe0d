'use strict';

// writeDoubleText (lib/double-text.js): a double's text as bytes, which must be
// String(x)'s text whenever it writes one. Doubles are drawn from a seeded
// generator in four families: random bit patterns over the exponents it
// handles, short decimals, the doubles next to powers of ten, and the doubles
// next to short decimals, and exact binary fractions halfway between two
// decimals. Each family's doubles the function leaves to the engine (-1) are
// counted and bounded, so a change that quietly hands them back to String(x) shows.

const assert = require('assert');
const { writeDoubleText } = require('../lib/double-text');

const COUNT = Number(process.env.QBSON_DOUBLE_RUNS) || 100000;

function xorshift(seed) {
    let s = seed;
    return () => {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        return s >>> 0;
    };
}

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

// the double `steps` representable doubles away from x (same sign, no crossing of zero)
function neighbour(x, steps) {
    scratch[0] = x;
    words[LOW] += steps;
    return scratch[0];
}

const FAMILIES = {
    'random bit patterns, 2^-20 to 2^50': (next) => {
        words[LOW] = next();
        words[1 - LOW] = (next() & 0x800fffff) | ((1003 + (next() % 70)) << 20);
        return scratch[0];
    },
    'decimals of up to 9 digits': (next) => (next() % 1e9) / 10 ** (1 + (next() % 15)) * (next() & 1 ? 1 : -1),
    'next to powers of ten': (next) => neighbour(10 ** ((next() % 22) - 6), (next() % 5) - 2),
    'next to short decimals': (next) => neighbour((next() % 1e9) / 10 ** (1 + (next() % 15)), (next() % 3) - 1),
    // exact binary fractions of 16 and 17 digits, halfway between two decimals of one digit fewer
    'halves, quarters and eighths past 10^13': (next) => (1e13 + (next() % 1e6) * 1e8 + next()) + ((next() % 7) + 1) / 8,
};

// at most this share of each family is left to the engine (measured: none of 470,000 in range)
const MAX_LEFT = 0.01;

function textOf(out, end) {
    let s = '';
    for (let i = 0; i < end; i++) s += String.fromCharCode(out[i]);
    return s;
}

describe('double-text: writeDoubleText writes what String(x) does', function () {
    const out = new Uint8Array(40);
    let seed = 1;
    for (const [family, draw] of Object.entries(FAMILIES)) {
        it(`${family}: ${COUNT} doubles`, function () {
            const next = xorshift(seed++ * 2654435761);
            let written = 0;
            let left = 0;
            for (let i = 0; i < COUNT; i++) {
                const x = draw(next);
                if (Number.isInteger(x) || !Number.isFinite(x)) continue;
                out.fill(0x3f);
                const end = writeDoubleText(out, 3, x);
                const a = Math.abs(x);
                if (a < 1e-6 || a >= 1e15) {
                    assert.strictEqual(end, -1, `${x} needs an exponent or is past 1e15`);
                    continue;
                }
                if (end < 0) {
                    left++;
                    continue;
                }
                assert.strictEqual(textOf(out, end).slice(3), String(x));
                assert.strictEqual(out[end], 0x3f, `wrote past its end for ${x}`);
                written++;
            }
            assert.ok(written > COUNT / 2, `${family}: ${written} written`);
            assert.ok(left <= MAX_LEFT * (written + left), `${family}: ${left} of ${written + left} left to the engine`);
        });
    }

    it('the doubles it leaves to the engine: out of 1e-6 to 1e15, and one of each kind of exactness', function () {
        const out40 = new Uint8Array(40);
        for (const x of [1e-7, 5e-324, 1e15 + 0.5, 2.5e15 + 0.5, -1e300, Infinity, NaN]) assert.strictEqual(writeDoubleText(out40, 0, x), -1, String(x));
        for (const x of [0.1, -0.3, 1e-6, 0.30000000000000004, 123.456, 9007199254740.993, 1.7976931348623157e-300 * 1e294]) {
            const end = writeDoubleText(out40, 0, x);
            if (end >= 0) assert.strictEqual(textOf(out40, end), String(x));
        }
        assert.strictEqual(textOf(out40, writeDoubleText(out40, 0, 0.1)), '0.1');
        assert.strictEqual(textOf(out40, writeDoubleText(out40, 0, -0.30000000000000004)), '-0.30000000000000004');
        assert.strictEqual(textOf(out40, writeDoubleText(out40, 0, 1e-6)), '0.000001');
    });
});
