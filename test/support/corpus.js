'use strict';

// The BSON specification's corpus (test/data/bson-corpus), every file as
// { file, ...its JSON }, in name order.

const fs = require('fs');
const path = require('path');

const CORPUS_DIR = path.join(__dirname, '..', 'data', 'bson-corpus');

function loadCorpus() {
    return fs
        .readdirSync(CORPUS_DIR)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => Object.assign({ file: f }, JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, f), 'utf8'))));
}

module.exports = { loadCorpus };
