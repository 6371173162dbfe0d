'use strict';

// The fields a command was asked for (dump --fields a,b.c; stat --field PATH),
// read from each document in place: get and decode's fields option step over
// everything else, so only the bytes they touch are checked.

const { encode } = require('../encode');
const { get } = require('../lookup');
const { decodeAt, atStreamOffset } = require('../stream');
const { UsageError } = require('./io');

// Values kept as BSON has them, so the projection encodes back to the same bytes.
const LOSSLESS = { promoteValues: false, bsonRegExp: true, preserveDeprecated: true };

// 'a,b.c' as paths; each path's keys are split on dots
function parseFieldList(text, flag) {
    const fields = text.split(',');
    if (fields.some((f) => f === '')) throw new UsageError(`${flag} takes paths separated by commas, such as a,b.c, not '${text}'`);
    return fields;
}

// The document's projection on fields, as BSON bytes; errors name stream offsets.
function projectedBytes(bytes, offset, fields, lenientUtf8) {
    const opts = lenientUtf8 ? { ...LOSSLESS, validation: { utf8: false }, fields } : { ...LOSSLESS, fields };
    return encode(decodeAt(bytes, offset, opts));
}

// The value at path in the document (undefined when absent), as BSON types.
function valueAt(bytes, offset, path) {
    try {
        return get(bytes, path, LOSSLESS);
    } catch (err) {
        throw atStreamOffset(err, offset);
    }
}

module.exports = { parseFieldList, projectedBytes, valueAt };
