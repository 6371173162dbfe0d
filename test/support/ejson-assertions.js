'use strict';

// The spec's Extended JSON assertions that apply to one valid corpus case, as
// [name, check] (bson-corpus.md, "codec with a language-native representation"):
// cB -> cEJ, cEJ -> native -> cEJ, cEJ -> cB, cB -> rEJ, rEJ -> native -> rEJ,
// dB -> cEJ, dEJ -> native -> cEJ, dEJ -> cB, and the converted_* pair of
// deprecated types. Shared by test/ejson.test.js and the conformance run in other
// runtimes (test/runtimes/), so it needs no Node built-in. `io` is
//   { EJSON, decodeHex(hex) -> value (every BSON type kept), encodeHex(value) -> hex,
//     sameJSON(actualText, expectedText), sameHex(actualHex, expectedHex) }

const PARSE_LOSSLESS = { relaxed: false, preserveDeprecated: true };
const CANONICAL = { relaxed: false };
const RELAXED = { relaxed: true };

function ejsonAssertions(c, io) {
    const { EJSON, decodeHex, encodeHex, sameJSON, sameHex } = io;
    const cB = c.canonical_bson.toLowerCase();
    const cEJ = c.canonical_extjson;
    const rEJ = c.relaxed_extjson;
    const dEJ = c.degenerate_extjson;
    const checks = [
        ['cB -> cEJ', () => sameJSON(EJSON.stringify(decodeHex(cB), CANONICAL), cEJ)],
        ['cEJ -> native -> cEJ', () => sameJSON(EJSON.stringify(EJSON.parse(cEJ, PARSE_LOSSLESS), CANONICAL), cEJ)],
    ];
    // lossy: the BSON holds what Extended JSON cannot say (a NaN payload), so no way back to the bytes
    if (!c.lossy) checks.push(['cEJ -> cB', () => sameHex(encodeHex(EJSON.parse(cEJ, PARSE_LOSSLESS)), cB)]);
    if (rEJ !== undefined) {
        checks.push(['cB -> rEJ', () => sameJSON(EJSON.stringify(decodeHex(cB), RELAXED), rEJ)]);
        checks.push([
            'rEJ -> native -> rEJ',
            () => {
                sameJSON(EJSON.stringify(EJSON.parse(rEJ, PARSE_LOSSLESS), RELAXED), rEJ);
                sameJSON(EJSON.stringify(EJSON.parse(rEJ), RELAXED), rEJ);
            },
        ]);
    }
    if (c.degenerate_bson !== undefined) {
        checks.push(['dB -> cEJ', () => sameJSON(EJSON.stringify(decodeHex(c.degenerate_bson), CANONICAL), cEJ)]);
    }
    if (dEJ !== undefined) {
        checks.push(['dEJ -> native -> cEJ', () => sameJSON(EJSON.stringify(EJSON.parse(dEJ, PARSE_LOSSLESS), CANONICAL), cEJ)]);
        if (!c.lossy) checks.push(['dEJ -> cB', () => sameHex(encodeHex(EJSON.parse(dEJ, PARSE_LOSSLESS)), cB)]);
    }
    // a deprecated type's conversion to a current one is itself a canonical pair
    if (c.converted_extjson !== undefined) {
        const convB = c.converted_bson.toLowerCase();
        const convEJ = c.converted_extjson;
        checks.push(['convB -> convEJ', () => sameJSON(EJSON.stringify(decodeHex(convB), CANONICAL), convEJ)]);
        checks.push(['convEJ -> native -> convEJ', () => sameJSON(EJSON.stringify(EJSON.parse(convEJ, PARSE_LOSSLESS), CANONICAL), convEJ)]);
        checks.push(['convEJ -> convB', () => sameHex(encodeHex(EJSON.parse(convEJ, PARSE_LOSSLESS)), convB)]);
    }
    return checks;
}

// Decimal128's parse errors are strings for its parser, given here inside a document.
function parseErrorText(suite, c) {
    if (suite.bson_type === '0x13') return `{"d": {"$numberDecimal": ${JSON.stringify(c.string)}}}`;
    return c.string;
}

module.exports = { ejsonAssertions, parseErrorText, PARSE_LOSSLESS, CANONICAL, RELAXED };
