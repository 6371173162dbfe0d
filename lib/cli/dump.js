'use strict';

// qbson dump: each document of a .bson file as Extended JSON, one a line, as
// mongo-tools' bsondump prints them, or as its --type=debug text
// (lib/cli/bsondump-debug.js). The JSON lines are written straight from the
// bytes by bsonToJSON's writer in its bsondump form (lib/bson-to-json.js), which
// checks each document as the decoder does and gathers the lines as bytes;
// where it refuses a document, the decoder says why. Nothing damaged is printed.

const tty = require('tty');
const { decodeAt } = require('../stream');
const { UsageError, openInput } = require('./io');
const { openOutput, outputFileOf } = require('./output');
const { readDocuments } = require('./read');
const { BSONError } = require('../errors');
const { BsondumpWriter, refused } = require('../bson-to-json');
const { toBsondumpJSON } = require('./bsondump-json');
const { toBsondumpDebug } = require('./bsondump-debug');
const { parseFieldList, projectedBytes } = require('./fields');

// lines are handed to the output in batches of about this many bytes
const LINES_BATCH_SIZE = 64 * 1024;

// regular expressions stay BSON's: a pattern JavaScript cannot compile is still valid BSON
const CHECK_OPTIONS = { bsonRegExp: true };
const LENIENT_CHECK_OPTIONS = { bsonRegExp: true, validation: { utf8: false } };

const help = `Usage: qbson dump [options] [FILE|-]

Prints each document of a BSON file (documents back to back, as mongodump
writes them) as canonical Extended JSON, one document a line, byte for byte as
bsondump prints it, and "N objects found" on standard error. Reads standard
input when FILE is - or missing.

Options:
  --relaxed                relaxed Extended JSON (plain numbers and dates);
                           the default is canonical, which keeps every type
  --canonical              canonical Extended JSON (the default)
  --pretty                 indent each document over several lines, with tabs
  --type json|debug        debug: each field's type and size, as bsondump's
  --fields a,b.c           print only these fields (paths; a path into an
                           array goes on into each document of it, as in a
                           MongoDB projection). They are read in place and the
                           rest is stepped over: only the bytes read are checked
  -o, --out FILE           write to FILE instead of standard output; FILE is
                           replaced only when the whole dump succeeds
  --keep-going             skip a document whose content is damaged (its length
                           intact), report it on standard error, go on, and
                           exit with status 1 at the end
  --objcheck               stop at the first damaged document (the default)
  --lenient-utf8           write malformed UTF-8 as \\ufffd, as bsondump does,
                           instead of failing
  --max-document-size N    reject documents declaring more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar, no "objects found"
  -v, --verbose            say what is read and how much on standard error
  -h, --help               show this help

bsondump's spellings work too: --bsonFile FILE, --outFile FILE, --type=json.
\`qbson load\` of \`qbson dump\` output gives back the same bytes for a file that
passes \`qbson validate\` (docs/cli.md names the other conditions).
`;

const options = {
    canonical: { type: 'boolean' },
    relaxed: { type: 'boolean' },
    pretty: { type: 'boolean' },
    type: { type: 'string' },
    fields: { type: 'string' },
    out: { type: 'string', short: 'o' },
    outFile: { type: 'string' },
    objcheck: { type: 'boolean' },
    'lenient-utf8': { type: 'boolean' },
};

// What prints a document: a BsondumpWriter for compact JSON lines, else a
// function of the document's bytes giving its text (pretty JSON, debug).
function formatterOf(values, lenient) {
    const type = values.type === undefined ? 'json' : values.type;
    if (type !== 'json' && type !== 'debug') throw new UsageError(`--type must be json or debug, not '${type}'`);
    if (values.canonical && values.relaxed) throw new UsageError('--canonical and --relaxed do not go together');
    if (type === 'debug') {
        if (values.relaxed || values.pretty) throw new UsageError('--type=debug takes neither --relaxed nor --pretty');
        return toBsondumpDebug;
    }
    if (!values.pretty) return new BsondumpWriter(Boolean(values.relaxed), lenient);
    const jsonOptions = { relaxed: Boolean(values.relaxed), pretty: true, lenient: true };
    return (bytes) => toBsondumpJSON(bytes, jsonOptions) + '\n';
}

// Adds the document's line to the writer; where the writer refuses it, the
// decoder's error for it (at its offset in the input).
function addLine(writer, bytes, offset, checkOptions) {
    try {
        writer.add(bytes, 0, bytes.length);
    } catch (err) {
        if (!refused(err)) throw err;
        decodeAt(bytes, offset, checkOptions);
        throw new BSONError(`the document at offset ${offset} cannot be printed`, { code: 'ERR_BSON_CORRUPT', offset });
    }
}

// bsondump's status line: its timestamp layout (2006-01-02T15:04:05.000-0700), a tab, the message
function statusLine(message, now) {
    const pad = (n, w) => String(n).padStart(w || 2, '0');
    const offset = -now.getTimezoneOffset();
    const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
    const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}.${pad(now.getMilliseconds(), 3)}${zone}`;
    return `${stamp}\t${message}\n`;
}

async function run(values, file, common) {
    if (values.objcheck && common.keepGoing) throw new UsageError('--objcheck stops at the first damaged document; --keep-going goes on: give one');
    const lenient = Boolean(values['lenient-utf8']);
    const format = formatterOf(values, lenient);
    const lines = format instanceof BsondumpWriter ? format : null;
    const fields = values.fields === undefined ? null : parseFieldList(values.fields, '--fields');
    if (fields !== null && values.type === 'debug') throw new UsageError('--fields prints Extended JSON: it does not go with --type=debug');
    const outFile = outputFileOf(values);
    const checkOptions = lenient ? LENIENT_CHECK_OPTIONS : CHECK_OPTIONS;
    const input = openInput(file);
    const sink = openOutput(outFile, input);
    // documents printed on the terminal leave no room for a progress bar there
    const progress = common.progress && !(sink.isStdout && tty.isatty(1));
    // bsondump's count: documents printed, and those skipped by --keep-going; said before any error
    let printed = 0;
    const sayFound = (found) => {
        if (!common.quiet) process.stderr.write(statusLine(`${found} objects found`, new Date()));
    };
    let result;
    try {
        result = await readDocuments(input, { command: 'dump', progress, maxDocumentSize: common.maxDocumentSize, keepGoing: common.keepGoing }, (bytes, offset) => {
            let shown = bytes;
            if (fields !== null) shown = projectedBytes(bytes, offset, fields, lenient);
            if (lines !== null) {
                addLine(lines, shown, offset, checkOptions);
                printed++;
                return lines.size >= LINES_BATCH_SIZE && sink.add(lines.take()) ? sink.flush() : undefined;
            }
            if (fields === null) decodeAt(bytes, offset, checkOptions);
            printed++;
            if (sink.add(format(shown))) return sink.flush();
            return undefined;
        });
        if (lines !== null && lines.size !== 0) sink.add(lines.take());
        await sink.end();
    } catch (err) {
        // the lines of the documents before the damage go out with the rest
        if (lines !== null && lines.size !== 0) sink.add(lines.take());
        // standard output keeps the documents before the damage; a file is left as it was
        await sink.abandon();
        // a reader that went away is no failure to report on
        if (err.code !== 'EPIPE') sayFound(printed);
        throw err;
    }
    sayFound(result.documents);
    return result;
}

module.exports = { name: 'dump', readsBSON: true, help, options, run, statusLine };
