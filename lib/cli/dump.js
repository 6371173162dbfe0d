'use strict';

// qbson dump: each document of a .bson file as Extended JSON, one a line, as
// mongo-tools' bsondump prints them.

const tty = require('tty');
const { decodeAt } = require('../stream');
const { BSONError } = require('../errors');
const { openInput, openOutput } = require('./io');
const { readDocuments } = require('./read');

// Values kept as BSON has them so that canonical output loads back to the same
// bytes: int32, double and int64 stay apart, regular expressions keep their BSON
// flags, and the deprecated types survive.
const DECODE_OPTIONS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };

const help = `Usage: qbson dump [options] [FILE|-]

Prints each document of a BSON file (documents back to back, as mongodump
writes them) as Extended JSON, one document a line. Reads standard input when
FILE is - or missing.

Options:
  --canonical              canonical Extended JSON, which keeps every type
                           ({"$numberInt": "1"}); the default is relaxed
  --pretty                 indent each document over several lines
  -o, --out FILE           write to FILE instead of standard output
  --max-document-size N    reject documents declaring more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar
  -h, --help               show this help

\`qbson load\` of \`qbson dump --canonical\` output gives back the same bytes.
`;

const options = {
    canonical: { type: 'boolean' },
    pretty: { type: 'boolean' },
    out: { type: 'string', short: 'o' },
};

async function run(values, file, common) {
    const { EJSON } = require('../ejson');
    const input = openInput(file);
    const sink = openOutput(values.out);
    const ejsonOptions = { relaxed: !values.canonical };
    const space = values.pretty ? 2 : undefined;
    // documents printed on the terminal leave no room for a progress bar there
    const progress = common.progress && !(sink.isStdout && tty.isatty(1));
    try {
        const result = await readDocuments(input, { command: 'dump', progress, maxDocumentSize: common.maxDocumentSize }, (bytes, offset) => {
            const doc = decodeAt(bytes, offset, DECODE_OPTIONS);
            let text;
            try {
                text = EJSON.stringify(doc, undefined, space, ejsonOptions);
            } catch (err) {
                throw new BSONError(`cannot write the document at offset ${offset} as Extended JSON: ${err.message}`, { code: err.code, offset });
            }
            if (sink.add(text + '\n')) return sink.flush();
            return undefined;
        });
        await sink.end();
        return result;
    } catch (err) {
        // the documents before the damage are kept
        await sink.abandon();
        throw err;
    }
}

module.exports = { name: 'dump', help, options, run, DECODE_OPTIONS };
