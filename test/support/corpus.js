'use strict';

// The BSON specification corpus (test/data/bson-corpus) as data: every suite,
// and the text of a parseErrors case as Extended JSON.

const fs = require('fs');
const path = require('path');

const CORPUS_DIR = path.join(__dirname, '..', 'data', 'bson-corpus');

// every suite file, parsed, with its file name
function loadCorpus() {
    return fs
        .readdirSync(CORPUS_DIR)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => Object.assign({ file: f }, JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, f), 'utf8'))));
}

// a parseErrors case's Extended JSON: Decimal128's cases are the bare strings of $numberDecimal
function parseErrorText(suite, c) {
    if (suite.bson_type === '0x13') return `{"d": {"$numberDecimal": ${JSON.stringify(c.string)}}}`;
    return c.string;
}

module.exports = { CORPUS_DIR, loadCorpus, parseErrorText };
