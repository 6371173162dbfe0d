'use strict';

// A document's raw bytes as Extended JSON exactly as bsondump prints it (the Go
// driver's writer): no spaces, keys in stored order, doubles in Go's shortest
// %G form ("1.0", "1E+06", "1.2345678921232E+18"), U+2028/U+2029 escaped,
// regular expression options sorted, and each byte of malformed UTF-8 written as
// \ufffd. Canonical by default; relaxed writes numbers and recent dates plainly,
// as the Go driver's relaxed mode does. The bytes must have passed the decoder.

const { isUtf8 } = require('buffer');
const C = require('../constants');
const { Decimal128 } = require('../types/decimal128');
const { forEachElement, int32At } = require('./raw-elements');

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparator(c) {
    return c === '\u2028' ? '\\u2028' : '\\u2029';
}

// JSON.stringify escapes as Go does (\" \\ \b \f \n \r \t, other controls as
// \u00xx, DEL as is) except for the two line separators.
function quote(text) {
    const json = JSON.stringify(text);
    return text.indexOf('\u2028') === -1 && text.indexOf('\u2029') === -1 ? json : json.replace(LINE_SEPARATORS, escapeSeparator);
}

// Length of the well-formed UTF-8 sequence at i, or 0 when the byte there starts none.
function sequenceLength(buf, i, end) {
    const b = buf[i];
    if (b < 0x80) return 1;
    const cont = (k, lo, hi) => i + k < end && buf[i + k] >= lo && buf[i + k] <= hi;
    if (b >= 0xc2 && b <= 0xdf) return cont(1, 0x80, 0xbf) ? 2 : 0;
    if (b >= 0xe0 && b <= 0xef) {
        const lo = b === 0xe0 ? 0xa0 : 0x80;
        const hi = b === 0xed ? 0x9f : 0xbf;
        return cont(1, lo, hi) && cont(2, 0x80, 0xbf) ? 3 : 0;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        const lo = b === 0xf0 ? 0x90 : 0x80;
        const hi = b === 0xf4 ? 0x8f : 0xbf;
        return cont(1, lo, hi) && cont(2, 0x80, 0xbf) && cont(3, 0x80, 0xbf) ? 4 : 0;
    }
    return 0;
}

// Malformed UTF-8 as Go's writer has it: each byte that starts no well-formed
// sequence becomes the escape \ufffd, the rest is text.
function quoteMalformed(buf, start, end) {
    let out = '"';
    let run = start;
    let i = start;
    while (i < end) {
        const n = sequenceLength(buf, i, end);
        if (n !== 0) {
            i += n;
            continue;
        }
        if (run < i) out += quote(buf.toString('utf8', run, i)).slice(1, -1);
        out += '\\ufffd';
        run = ++i;
    }
    if (run < end) out += quote(buf.toString('utf8', run, end)).slice(1, -1);
    return out + '"';
}

function quoteBytes(buf, start, end) {
    const text = buf.toString('utf8', start, end);
    if (text.indexOf('\ufffd') !== -1 && !isUtf8(buf.subarray(start, end))) return quoteMalformed(buf, start, end);
    return quote(text);
}

// a length-prefixed string at pos
function quoteString(buf, pos) {
    return quoteBytes(buf, pos + 4, pos + 3 + int32At(buf, pos));
}

// Go's strconv.FormatFloat(x, 'G', -1, 64), with ".0" added to whole numbers
function formatDouble(x) {
    if (x !== x) return 'NaN';
    if (x === Infinity) return 'Infinity';
    if (x === -Infinity) return '-Infinity';
    if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
    // toExponential() gives the shortest digits that read back as x, as Go's -1 precision does
    const [mantissa, exponentText] = x.toExponential().split('e');
    const exponent = Number(exponentText);
    if (exponent < -4 || exponent >= 6) {
        // toExponential's exponent always has its sign; Go's has at least two digits
        return `${mantissa}E${exponentText[0]}${exponentText.slice(1).padStart(2, '0')}`;
    }
    // in this range JavaScript writes the same digits without an exponent
    const text = String(x);
    return text.indexOf('.') === -1 ? text + '.0' : text;
}

function hex(buf, start, end) {
    return buf.toString('hex', start, end);
}

// ms: the stored int64, a BigInt (past 2^53 a Number would round it)
function formatDate(ms, relaxed) {
    const date = new Date(Number(ms));
    const year = date.getUTCFullYear();
    if (!relaxed || !(year >= 1970 && year <= 9999)) return `{"$date":{"$numberLong":"${ms}"}}`;
    // Go's "2006-01-02T15:04:05.999Z07:00": milliseconds without trailing zeros, none at all when zero
    const iso = date.toISOString().replace(/\.?0+Z$/, 'Z');
    return `{"$date":"${iso}"}`;
}

function formatBinary(buf, pos) {
    const len = int32At(buf, pos);
    const subtype = buf[pos + 4];
    let start = pos + 5;
    // the old binary subtype's inner length is not data (as the Go driver reads it)
    if (subtype === C.BINARY_OLD && len > 4) start += 4;
    const base64 = buf.toString('base64', start, pos + 5 + len);
    return `{"$binary":{"base64":"${base64}","subType":"${subtype.toString(16).padStart(2, '0')}"}}`;
}

function formatRegExp(buf, pos, end) {
    const patternEnd = buf.indexOf(0, pos);
    const options = [...buf.toString('utf8', patternEnd + 1, end - 1)].sort().join('');
    return `{"$regularExpression":{"pattern":${quoteBytes(buf, pos, patternEnd)},"options":${quote(options)}}}`;
}

function formatDBPointer(buf, pos, end) {
    // The Go writer puts the namespace in unescaped; where that differs from
    // escaping it, its JSON does not parse and bsondump refuses the document.
    return `{"$dbPointer":{"$ref":${quoteString(buf, pos)},"$id":{"$oid":"${hex(buf, end - 12, end)}"}}}`;
}

function formatCodeWithScope(buf, pos, relaxed) {
    const scopeStart = pos + 8 + int32At(buf, pos + 4);
    return `{"$code":${quoteString(buf, pos + 4)},"$scope":${formatDocument(buf, scopeStart, relaxed)}}`;
}

function formatNumber(text, type, relaxed) {
    return relaxed ? text : `{"$${type}":"${text}"}`;
}

function formatValue(buf, type, pos, end, relaxed) {
    switch (type) {
        case C.BSON_DOUBLE: {
            const text = formatDouble(buf.readDoubleLE(pos));
            const plain = relaxed && text !== 'NaN' && text !== 'Infinity' && text !== '-Infinity';
            return plain ? text : `{"$numberDouble":"${text}"}`;
        }
        case C.BSON_STRING:
            return quoteString(buf, pos);
        case C.BSON_DOCUMENT:
            return formatDocument(buf, pos, relaxed);
        case C.BSON_ARRAY:
            return formatArray(buf, pos, relaxed);
        case C.BSON_BINARY:
            return formatBinary(buf, pos);
        case C.BSON_UNDEFINED:
            return '{"$undefined":true}';
        case C.BSON_OBJECTID:
            return `{"$oid":"${hex(buf, pos, end)}"}`;
        case C.BSON_BOOLEAN:
            return buf[pos] === 1 ? 'true' : 'false';
        case C.BSON_DATE:
            return formatDate(buf.readBigInt64LE(pos), relaxed);
        case C.BSON_NULL:
            return 'null';
        case C.BSON_REGEXP:
            return formatRegExp(buf, pos, end);
        case C.BSON_DBPOINTER:
            return formatDBPointer(buf, pos, end);
        case C.BSON_CODE:
            return `{"$code":${quoteString(buf, pos)}}`;
        case C.BSON_SYMBOL:
            return `{"$symbol":${quoteString(buf, pos)}}`;
        case C.BSON_CODE_W_SCOPE:
            return formatCodeWithScope(buf, pos, relaxed);
        case C.BSON_INT32:
            return formatNumber(String(buf.readInt32LE(pos)), 'numberInt', relaxed);
        case C.BSON_TIMESTAMP:
            return `{"$timestamp":{"t":${buf.readUInt32LE(pos + 4)},"i":${buf.readUInt32LE(pos)}}}`;
        case C.BSON_INT64:
            return formatNumber(buf.readBigInt64LE(pos).toString(), 'numberLong', relaxed);
        case C.BSON_DECIMAL128:
            return `{"$numberDecimal":"${new Decimal128(buf.subarray(pos, end)).toString()}"}`;
        case C.BSON_MINKEY:
            return '{"$minKey":1}';
        case C.BSON_MAXKEY:
            return '{"$maxKey":1}';
        default:
            throw new Error(`BSON type 0x${type.toString(16)} cannot be written`);
    }
}

function formatDocument(buf, start, relaxed) {
    const parts = [];
    forEachElement(buf, start, (type, keyStart, keyEnd, valueStart, valueEnd) => {
        parts.push(`${quoteBytes(buf, keyStart, keyEnd)}:${formatValue(buf, type, valueStart, valueEnd, relaxed)}`);
    });
    return `{${parts.join(',')}}`;
}

function formatArray(buf, start, relaxed) {
    const parts = [];
    forEachElement(buf, start, (type, keyStart, keyEnd, valueStart, valueEnd) => {
        parts.push(formatValue(buf, type, valueStart, valueEnd, relaxed));
    });
    return `[${parts.join(',')}]`;
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

// The document whose bytes are buf (one whole document) as bsondump prints it.
function toBsondumpJSON(buf, opts) {
    const relaxed = Boolean(opts && opts.relaxed);
    const json = formatDocument(buf, 0, relaxed);
    return opts && opts.pretty ? indent(json) : json;
}

module.exports = { toBsondumpJSON, formatDouble, quoteBytes };
