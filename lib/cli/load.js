'use strict';

// qbson load: Extended JSON documents (one a line, or the elements of a JSON
// array) to BSON, documents back to back.

const tty = require('tty');
const { prepareOptions, convertText } = require('../json-to-bson');
const { UsageError, InputError, openInput, chunksOf } = require('./io');
const { openOutput, outputFileOf } = require('./output');
const { Progress } = require('./progress');
const { JSONObjectSplitter, JSONSyntaxError } = require('./json-values');

const help = `Usage: qbson load [options] [FILE|-]

Reads Extended JSON documents, canonical or relaxed, one a line (as qbson dump
and bsondump print them; a document may also span lines), and writes them as
BSON, documents back to back. Reads standard input when FILE is - or missing.

Plain JSON numbers keep the type their form implies: an integer is an int32
(int64 when it does not fit), anything else a double; {"$numberLong": "1"} and
the other canonical forms say exactly which.

Options:
  -o, --out FILE           write to FILE instead of standard output; FILE is
                           replaced only when every document converted
                           (--outFile FILE is the same)
  --array                  the input is one JSON array of documents
  --max-document-size N    reject documents of more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar
  -v, --verbose            say what was read and how much on standard error
  -h, --help               show this help
`;

const options = {
    out: { type: 'string', short: 'o' },
    outFile: { type: 'string' },
    array: { type: 'boolean' },
};

// typed values, never plain numbers, so canonical input gives back its exact
// bytes; $undefined and $dbPointer stay the deprecated types they stand for
const PARSE_OPTIONS = { relaxed: false, preserveDeprecated: true };

// an Extended JSON text may be several times the size of its BSON
const TEXT_SIZE_FACTOR = 16;

async function run(values, file, common) {
    const out = outputFileOf(values);
    if ((out === undefined || out === '-') && tty.isatty(1)) {
        throw new UsageError('standard output is a terminal: give -o FILE or redirect it to write BSON');
    }
    const input = openInput(file);
    const sink = openOutput(out, input);
    const splitter = new JSONObjectSplitter({ array: values.array, maxObjectSize: common.maxDocumentSize * TEXT_SIZE_FACTOR });
    // each document's text straight to BSON, as encode(EJSON.parse(text, PARSE_OPTIONS)) would give it
    const convertOptions = prepareOptions({ ...PARSE_OPTIONS, maxDocumentSize: common.maxDocumentSize });
    const progress = new Progress('load', input.size, common.progress);
    const batch = [];
    let bytesRead = 0;
    let documents = 0;

    function convert(bytes, offset, line) {
        try {
            return convertText(bytes, convertOptions);
        } catch (err) {
            throw new InputError(`${input.name}: ${err.message} in the document at offset ${offset} (line ${line})`, err);
        }
    }

    try {
        for await (const chunk of chunksOf(input)) {
            bytesRead += chunk.length;
            let damage = null;
            try {
                splitter.push(chunk, batch);
            } catch (err) {
                damage = err;
            }
            for (let i = 0; i < batch.length; i += 3) {
                if (sink.add(convert(batch[i], batch[i + 1], batch[i + 2]))) await sink.flush();
                documents++;
            }
            batch.length = 0;
            progress.update(bytesRead, documents);
            if (damage !== null) throw damage;
        }
        splitter.end();
        progress.stop();
        await sink.end();
    } catch (err) {
        progress.stop();
        await sink.abandon();
        if (err instanceof JSONSyntaxError) throw new InputError(`${input.name}: ${err.message}`, err);
        throw err;
    }
    return { documents, bytes: bytesRead };
}

module.exports = { name: 'load', help, options, run };
