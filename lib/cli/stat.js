'use strict';

// qbson stat: what a BSON file holds, from its raw bytes: documents, sizes,
// deepest nesting and how many elements of each BSON type. Nothing is decoded
// into values; the walk checks every length it follows, and on anything out of
// place it asks the decoder for its account of the damage.

const C = require('../constants');
const { keyEnd, valueEnd } = require('../elements');
const { readInt32LE } = require('../bytes');
const { BSONError } = require('../errors');
const { decodeAt } = require('../stream');
const { UsageError, openInput } = require('./io');
const { readDocuments } = require('./read');
const { valueAt } = require('./fields');
const { FieldStats, formatFieldText } = require('./field-stat');

const help = `Usage: qbson stat [options] [FILE|-]

Reports on a BSON file: the number of documents and bytes, the smallest,
largest and mean document size, the deepest nesting (a flat document is 1) and
how many elements there are of each BSON type, at every level. Reads standard
input when FILE is - or missing.

Options:
  --json                   print the report as one JSON object
  --field PATH             also report on the values at PATH (a.b.c; array
                           elements by index, items.0.price): how many
                           documents have it, its types, min and max in
                           MongoDB's sort order, and its most frequent values.
                           Each value is read in place, stepping over the rest
  --keep-going             skip a damaged document (its length intact),
                           report it, count the rest, exit 1 at the end
  --max-document-size N    reject documents declaring more than N bytes
                           (default 16793600)
  -q, --quiet              no progress bar
  -v, --verbose            say what was read and how much on standard error
  -h, --help               show this help
`;

const options = {
    json: { type: 'boolean' },
    field: { type: 'string' },
};

// MongoDB's names for the types, as $type takes them
const TYPE_NAMES = new Map([
    [C.BSON_DOUBLE, 'double'],
    [C.BSON_STRING, 'string'],
    [C.BSON_DOCUMENT, 'object'],
    [C.BSON_ARRAY, 'array'],
    [C.BSON_BINARY, 'binData'],
    [C.BSON_UNDEFINED, 'undefined'],
    [C.BSON_OBJECTID, 'objectId'],
    [C.BSON_BOOLEAN, 'bool'],
    [C.BSON_DATE, 'date'],
    [C.BSON_NULL, 'null'],
    [C.BSON_REGEXP, 'regex'],
    [C.BSON_DBPOINTER, 'dbPointer'],
    [C.BSON_CODE, 'javascript'],
    [C.BSON_SYMBOL, 'symbol'],
    [C.BSON_CODE_W_SCOPE, 'javascriptWithScope'],
    [C.BSON_INT32, 'int'],
    [C.BSON_TIMESTAMP, 'timestamp'],
    [C.BSON_INT64, 'long'],
    [C.BSON_DECIMAL128, 'decimal'],
    [C.BSON_MINKEY, 'minKey'],
    [C.BSON_MAXKEY, 'maxKey'],
]);

// Counts the elements of the document in buf (whole, its length checked) by
// type into counts; returns its nesting depth. Elements are stepped over by the
// element scanner (lib/elements.js), which checks every length against its
// document and throws a BSONError on damage; documents, arrays and code scopes
// are walked into with an explicit stack of their ends, so no nesting
// overflows the call stack.
function walk(buf, counts) {
    // scans for a key's NUL stop at the document's, so it must be there
    if (buf[buf.length - 1] !== 0) throw new BSONError('document is not terminated by a NUL byte');
    const ends = [buf.length - 1];
    let deepest = 1;
    let pos = 4;
    for (;;) {
        const end = ends[ends.length - 1];
        if (pos === end) {
            // this document's terminator: back to its parent, just past it
            ends.pop();
            pos++;
            if (ends.length === 0) return deepest;
            continue;
        }
        const type = buf[pos];
        const valueStart = keyEnd(buf, pos, end) + 1;
        const next = valueEnd(buf, type, valueStart, end);
        counts[type]++;
        if (type === C.BSON_DOCUMENT || type === C.BSON_ARRAY) {
            pos = valueStart + 4;
        } else if (type === C.BSON_CODE_W_SCOPE) {
            // the scope is a document one level down, ending where the element does
            pos = valueStart + 8 + readInt32LE(buf, valueStart + 4) + 4;
        } else {
            pos = next;
            continue;
        }
        ends.push(next - 1);
        if (ends.length > deepest) deepest = ends.length;
    }
}

class Stats {
    constructor() {
        this.documents = 0;
        this.bytes = 0;
        this.smallest = Infinity;
        this.largest = 0;
        this.deepest = 0;
        this.counts = new Float64Array(256);
        this.scratch = new Float64Array(256);
    }

    add(bytes, offset) {
        let depth;
        // counted apart first, so a damaged document (skipped by --keep-going) adds nothing
        const scratch = this.scratch;
        scratch.fill(0);
        try {
            depth = walk(bytes, scratch);
        } catch (err) {
            if (!(err instanceof BSONError)) throw err;
            // the decoder says what is wrong and where; should it find nothing, say so plainly
            decodeAt(bytes, offset, { bsonRegExp: true });
            throw new BSONError(`document at offset ${offset} is damaged`, { code: 'ERR_BSON_CORRUPT', offset });
        }
        for (let t = 0; t < 256; t++) this.counts[t] += scratch[t];
        const size = bytes.length;
        this.documents++;
        this.bytes += size;
        if (size < this.smallest) this.smallest = size;
        if (size > this.largest) this.largest = size;
        if (depth > this.deepest) this.deepest = depth;
    }

    report(name) {
        const types = [];
        for (let t = 0; t < 256; t++) {
            if (this.counts[t] !== 0) types.push([TYPE_NAMES.get(t), this.counts[t]]);
        }
        types.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
        const empty = this.documents === 0;
        return {
            file: name,
            documents: this.documents,
            bytes: this.bytes,
            smallest: empty ? null : this.smallest,
            largest: empty ? null : this.largest,
            mean: empty ? null : Math.round((this.bytes / this.documents) * 10) / 10,
            deepestNesting: this.deepest,
            elements: types.reduce((sum, [, n]) => sum + n, 0),
            types: Object.fromEntries(types),
        };
    }
}

function formatText(r) {
    const rows = [
        ['file', r.file],
        ['documents', r.documents],
        ['bytes', r.bytes],
        ['smallest', r.smallest === null ? '-' : r.smallest],
        ['largest', r.largest === null ? '-' : r.largest],
        ['mean', r.mean === null ? '-' : r.mean.toFixed(1)],
        ['deepest nesting', r.deepestNesting],
        ['elements', r.elements],
    ];
    if (r.skipped) rows.push(['skipped', r.skipped]);
    const lines = rows.map(([k, v]) => `${(k + ':').padEnd(17)}${v}`);
    const names = Object.keys(r.types);
    if (names.length !== 0) {
        lines.push('types:');
        const width = Math.max(...names.map((n) => n.length)) + 2;
        for (const n of names) lines.push(`  ${n.padEnd(width)}${r.types[n]}`);
    }
    return lines.join('\n') + '\n';
}

async function run(values, file, common) {
    const input = openInput(file);
    const stats = new Stats();
    const field = values.field === undefined ? null : new FieldStats(fieldPath(values.field));
    const result = await readDocuments(input, { command: 'stat', progress: common.progress, maxDocumentSize: common.maxDocumentSize, keepGoing: common.keepGoing }, (bytes, offset) => {
        // the value first: a document it cannot be read from (--keep-going) counts nowhere
        const value = field === null ? undefined : valueAt(bytes, offset, field.path);
        stats.add(bytes, offset);
        if (field !== null) field.add(value);
    });
    const report = stats.report(input.name);
    if (result.skipped) report.skipped = result.skipped;
    if (field !== null) report.field = field.report();
    process.stdout.write(values.json ? JSON.stringify(report) + '\n' : formatText(report) + (field === null ? '' : formatFieldText(report.field)));
    return { documents: result.documents, skipped: result.skipped, bytes: result.bytes };
}

function fieldPath(text) {
    if (text === '') throw new UsageError('--field takes a path such as a.b.c');
    return text;
}

module.exports = { name: 'stat', readsBSON: true, help, options, run, walk, TYPE_NAMES };
