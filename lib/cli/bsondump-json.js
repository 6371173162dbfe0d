'use strict';

// A document's raw bytes as Extended JSON exactly as bsondump prints it (the Go
// driver's writer): no spaces, keys in stored order, doubles in Go's shortest
// %G form ("1.0", "1E+06", "1.2345678921232E+18"), U+2028/U+2029 escaped,
// regular expression options sorted, and each byte of malformed UTF-8 written as
// \ufffd. Canonical by default; relaxed writes numbers and recent dates plainly,
// as the Go driver's relaxed mode does. The writer is bsonToJSON's
// (lib/bson-to-json.js) in its bsondump form; --pretty indents its line here.

const { BSONError } = require('../errors');
const { BsondumpWriter, refused } = require('../bson-to-json');
const { goDouble } = require('../json-text-writing');

// a writer for each form, canonical and relaxed, reused by every call; the bytes
// have passed the decoder, so malformed UTF-8 is there only if it was told to
// let it be (--lenient-utf8), and is then written as bsondump writes it
const writers = [null, null];

function writerOf(relaxed) {
    const k = relaxed ? 1 : 0;
    return writers[k] === null ? (writers[k] = new BsondumpWriter(relaxed, true)) : writers[k];
}

// Go's json.Indent(dst, src, "", "\t") of compact JSON: one member a line,
// "key": value, empty objects and arrays kept as {} and [].
function indent(json) {
    let out = '';
    let depth = 0;
    let inString = false;
    for (let i = 0; i < json.length; i++) {
        const c = json[i];
        if (inString) {
            out += c;
            if (c === '\\') out += json[++i];
            else if (c === '"') inString = false;
            continue;
        }
        if (c === '"') {
            inString = true;
            out += c;
        } else if (c === '{' || c === '[') {
            const next = json[i + 1];
            if (next === '}' || next === ']') {
                out += c + next;
                i++;
            } else {
                depth++;
                out += c + '\n' + '\t'.repeat(depth);
            }
        } else if (c === '}' || c === ']') {
            depth--;
            out += '\n' + '\t'.repeat(depth) + c;
        } else if (c === ',') {
            out += ',\n' + '\t'.repeat(depth);
        } else if (c === ':') {
            out += ': ';
        } else {
            out += c;
        }
    }
    return out;
}

// The document whose bytes are buf (one whole document, passed by the decoder)
// as bsondump prints it.
function toBsondumpJSON(buf, opts) {
    const writer = writerOf(Boolean(opts && opts.relaxed));
    try {
        writer.add(buf, 0, buf.length);
    } catch (err) {
        if (refused(err)) throw new BSONError('bsondump cannot print a document the decoder refuses', { code: 'ERR_BSON_CORRUPT' });
        throw err;
    }
    const json = writer.takeText().slice(0, -1);
    return opts && opts.pretty ? indent(json) : json;
}

module.exports = { toBsondumpJSON, formatDouble: goDouble };
