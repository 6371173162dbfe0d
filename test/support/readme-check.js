'use strict';

// Preloaded (node -r) into an example of README.md or docs/*.md rewritten by readme.test.js
// (QBSON_README_FILE names its file, README when unset): each
// `statement; // → text` line calls __check (the statement's value, as util.inspect shows
// it on one line) or __checkLog (what console.log prints), which throws on a mismatch.
// On exit the lines checked are written to QBSON_README_CHECKS, so the test can tell a
// check that never ran from one that passed.

const fs = require('fs');
const util = require('util');

const checked = new Set();

// `...` in the expected text stands for any run of characters
function matches(expected, actual) {
    const parts = expected.split('...');
    if (parts.length === 1) return expected === actual;
    if (!actual.startsWith(parts[0]) || !actual.endsWith(parts[parts.length - 1])) return false;
    let at = parts[0].length;
    for (const part of parts.slice(1, -1)) {
        at = actual.indexOf(part, at);
        if (at === -1) return false;
        at += part.length;
    }
    return at <= actual.length - parts[parts.length - 1].length;
}

function compare(line, expected, actual) {
    checked.add(line);
    if (!matches(expected, actual)) {
        throw new Error((process.env.QBSON_README_FILE || 'README') + ' line ' + line + ': the comment says ' + expected + ' but it gives ' + actual);
    }
}

globalThis.__check = function check(line, expected, value) {
    compare(line, expected, util.inspect(value, { depth: Infinity, breakLength: Infinity }));
    return value;
};

globalThis.__checkLog = function checkLog(line, expected, ...values) {
    compare(line, expected, util.format(...values));
};

process.on('exit', () => {
    fs.writeFileSync(process.env.QBSON_README_CHECKS, JSON.stringify([...checked].sort((a, b) => a - b)));
});
