'use strict';

// qbson validate: decodes every document with full checking (lengths, UTF-8,
// types, terminators, booleans, nesting), then checks what decoding skips by
// design, the keys of arrays (lib/cli/array-keys.js); reports the first problem
// with its byte offset, or with --keep-going every damaged document.

const { decodeAt } = require('../stream');
const { openInput } = require('./io');
const { readDocuments } = require('./read');
const { checkArrayKeys } = require('./array-keys');

const help = `Usage: qbson validate [options] [FILE|-]

Checks every document of a BSON file: lengths and terminators, element types,
UTF-8 in keys and strings, booleans, nesting (500 levels at most), and that
the keys of every array are 0, 1, 2, ... in order. Prints "ok N documents"
when all are good; otherwise reports the first problem with its byte offset
and exits with status 1. Reads standard input when FILE is - or missing.
Not checked: what a value means (a date out of range, a regular expression
JavaScript cannot compile, a $-key or a dotted key, duplicate keys).

Options:
  --keep-going             report every damaged document (its length intact),
                           not only the first; exit 1 at the end if any
  --max-document-size N    reject documents declaring more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar
  -v, --verbose            say what was read and how much on standard error
  -h, --help               show this help
`;

// regular expressions stay BSON's: a pattern JavaScript cannot compile is still valid BSON
const DECODE_OPTIONS = { bsonRegExp: true };

async function run(values, file, common) {
    const input = openInput(file);
    const opts = { command: 'validate', progress: common.progress, maxDocumentSize: common.maxDocumentSize, keepGoing: common.keepGoing };
    const result = await readDocuments(input, opts, (bytes, offset) => {
        decodeAt(bytes, offset, DECODE_OPTIONS);
        checkArrayKeys(bytes, 0, false, offset);
    });
    const good = result.documents - result.skipped;
    process.stdout.write(result.skipped ? `${good} good documents, ${result.skipped} damaged\n` : `ok ${result.documents} documents\n`);
    return result;
}

module.exports = { name: 'validate', readsBSON: true, help, options: {}, run };
