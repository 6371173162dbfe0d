'use strict';

// qbson validate: decodes every document with full checking (lengths, UTF-8,
// types, terminators) and reports the first problem with its byte offset.

const { decodeAt } = require('../stream');
const { openInput } = require('./io');
const { readDocuments } = require('./read');

const help = `Usage: qbson validate [options] [FILE|-]

Checks every document of a BSON file: lengths, terminators, element types,
UTF-8 in keys and strings, booleans, nesting. Prints "ok N documents" when all
are good; otherwise reports the first problem with its byte offset and exits
with status 1. Reads standard input when FILE is - or missing.

Options:
  --max-document-size N    reject documents declaring more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar
  -h, --help               show this help
`;

// regular expressions stay BSON's: a pattern JavaScript cannot compile is still valid BSON
const DECODE_OPTIONS = { bsonRegExp: true };

async function run(values, file, common) {
    const input = openInput(file);
    const result = await readDocuments(input, { command: 'validate', progress: common.progress, maxDocumentSize: common.maxDocumentSize }, (bytes, offset) => {
        decodeAt(bytes, offset, DECODE_OPTIONS);
    });
    process.stdout.write(`ok ${result.documents} documents\n`);
    return result;
}

module.exports = { name: 'validate', help, options: {}, run };
