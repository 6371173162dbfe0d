'use strict';

// decode's `values` option: which form each BSON type is read into, checked once
// per call into small integer codes on the Decoder (0: decode's own form, so the
// decoder's common path tests one field), and the forms themselves, made from
// the value's bytes as the decoder reads it. Also the reviver's calls.
// Loaded with the first call that asks for either.

const { BSONError } = require('./errors');
const { optionError, listChoices } = require('./options');
const { readInt32LE, readUint32LE, readBigInt64LE, copyBytes, copyToNewBuffer, valueBytes, SHARED_BYTES_MIN } = require('./bytes');
const { toHex, toBase64 } = require('./platform');
const { objectIdHexAt } = require('./types/objectid');
const { setField } = require('./set-field');

// the codes; DEFAULT (0) is decode's own form, whatever the other options make it
const DEFAULT = 0;
const AS_HEX = 1;
const AS_ISO = 2;
const AS_MS = 3;
const AS_NUMBER = 4;
const AS_BIGINT = 5;
const AS_STRING = 6;
const AS_LONG = 7;
const AS_BASE64 = 8;
const AS_BUFFER = 9;
const AS_UINT8ARRAY = 10;
const AS_UUID_STRING = 11;
const AS_UUID = 12;
const AS_OBJECT = 13;
const AS_BINARY = 14;
const AS_REGEXP = 15;
const AS_BSON_REGEXP = 16;

// type name -> { target name -> code }, in the order the error messages list them
const TARGETS = {
    objectId: { hex: AS_HEX, objectId: DEFAULT },
    date: { iso: AS_ISO, ms: AS_MS, date: DEFAULT },
    int64: { number: AS_NUMBER, bigint: AS_BIGINT, string: AS_STRING, long: AS_LONG },
    decimal128: { string: AS_STRING, number: AS_NUMBER, decimal128: DEFAULT },
    binary: { base64: AS_BASE64, hex: AS_HEX, buffer: AS_BUFFER, uint8array: AS_UINT8ARRAY, binary: AS_BINARY },
    uuid: { string: AS_UUID_STRING, hex: AS_HEX, base64: AS_BASE64, buffer: AS_BUFFER, uint8array: AS_UINT8ARRAY, uuid: AS_UUID },
    timestamp: { object: AS_OBJECT, bigint: AS_BIGINT, timestamp: DEFAULT },
    regex: { string: AS_STRING, regexp: AS_REGEXP, bsonRegExp: AS_BSON_REGEXP },
};
const TYPE_NAMES = Object.keys(TARGETS);
const TYPE_CHOICES = listChoices(TYPE_NAMES);
// the same as Maps: a keyed load on TARGETS with a different name each time went
// megamorphic and made checking {objectId, date} cost more than decoding {a: 1}
const TARGET_MAPS = new Map(TYPE_NAMES.map((type) => [type, new Map(Object.entries(TARGETS[type]))]));

// The last values option read, its own entries then (key, form, key, form...) and
// its codes: a program passes the same object call after call, and comparing its
// entries costs a fifth of reading them again.
let lastValues = null;
let lastEntries = null;
let lastCodes = null;

// The values option as { type name: code } for every type (DEFAULT for those it
// does not name); unknown type or target names are a BSONError naming them.
function readValuesOption(values) {
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
        throw optionError('values', 'an object mapping BSON type names to forms', values);
    }
    const keys = Object.keys(values);
    if (values === lastValues && sameEntries(values, keys, lastEntries)) return lastCodes;
    const codes = { objectId: DEFAULT, date: DEFAULT, int64: DEFAULT, decimal128: DEFAULT, binary: DEFAULT, uuid: DEFAULT, timestamp: DEFAULT, regex: DEFAULT };
    const entries = [];
    for (let k = 0; k < keys.length; k++) {
        const type = keys[k];
        const targets = TARGET_MAPS.get(type);
        if (targets === undefined) throw optionError('values key', TYPE_CHOICES, type);
        const target = values[type];
        entries.push(type, target);
        if (target === undefined) continue;
        const code = typeof target === 'string' ? targets.get(target) : undefined;
        if (code === undefined) throw optionError(`values.${type}`, listChoices(Array.from(targets.keys())), target);
        codes[type] = code;
    }
    lastValues = values;
    lastEntries = entries;
    lastCodes = codes;
    return codes;
}

function sameEntries(values, keys, entries) {
    if (keys.length * 2 !== entries.length) return false;
    for (let k = 0; k < keys.length; k++) {
        if (keys[k] !== entries[2 * k] || values[keys[k]] !== entries[2 * k + 1]) return false;
    }
    return true;
}

// as the decoder words its errors
function valueError(message, offset) {
    return new BSONError(`${message} at offset ${offset}`, { code: 'ERR_BSON_VALUE', offset });
}

function objectIdAs(buf, pos) {
    return objectIdHexAt(buf, pos);
}

// A datetime's milliseconds as an ISO 8601 string, or as they are.
function dateAs(ms, as, pos) {
    if (as === AS_MS) return ms;
    if (ms >= FOUR_DIGIT_YEARS_FROM && ms < FOUR_DIGIT_YEARS_TO) return isoString(ms);
    // years before 0 or after 9999 take Date's six-digit signed form
    const date = new Date(ms);
    if (Number.isNaN(date.getTime())) {
        throw valueError(`datetime ${ms} ms is outside the range of dates an ISO string can show (±8.64e15 ms)`, pos);
    }
    return date.toISOString();
}

// 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z
const FOUR_DIGIT_YEARS_FROM = -62167219200000;
const FOUR_DIGIT_YEARS_TO = 253402300800000;
const MS_PER_DAY = 86400000;
const fromCharCode = String.fromCharCode;
const ZERO = 48;

// Date's toISOString for years 0 to 9999, seven times as fast: the civil date from
// the day number by the proleptic Gregorian calendar's 400-year eras (counted from
// 0000-03-01, so that a leap day ends its year), and the text made as one flat
// string of 24 character codes. Past the day number all of it is int32 arithmetic.
function isoString(ms) {
    const days = Math.floor(ms / MS_PER_DAY);
    let rest = (ms - days * MS_PER_DAY) | 0;
    const z = days + 719468;
    const era = Math.floor(z / 146097);
    const dayOfEra = (z - era * 146097) | 0;
    const yearOfEra = ((dayOfEra - ((dayOfEra / 1460) | 0) + ((dayOfEra / 36524) | 0) - ((dayOfEra / 146096) | 0)) / 365) | 0;
    const dayOfYear = (dayOfEra - (365 * yearOfEra + ((yearOfEra / 4) | 0) - ((yearOfEra / 100) | 0))) | 0;
    const m5 = ((5 * dayOfYear + 2) / 153) | 0;
    const day = (dayOfYear - (((153 * m5 + 2) / 5) | 0) + 1) | 0;
    const month = m5 < 10 ? m5 + 3 : m5 - 9;
    const year = (yearOfEra + era * 400 + (month <= 2 ? 1 : 0)) | 0;
    const hours = (rest / 3600000) | 0;
    rest -= hours * 3600000;
    const minutes = (rest / 60000) | 0;
    rest -= minutes * 60000;
    const seconds = (rest / 1000) | 0;
    const millis = rest - seconds * 1000;
    return fromCharCode(
        ZERO + ((year / 1000) | 0), ZERO + (((year / 100) | 0) % 10), ZERO + (((year / 10) | 0) % 10), ZERO + (year % 10), 0x2d, // -
        ZERO + ((month / 10) | 0), ZERO + (month % 10), 0x2d, ZERO + ((day / 10) | 0), ZERO + (day % 10), 0x54, // T
        ZERO + ((hours / 10) | 0), ZERO + (hours % 10), 0x3a, ZERO + ((minutes / 10) | 0), ZERO + (minutes % 10), 0x3a, // :
        ZERO + ((seconds / 10) | 0), ZERO + (seconds % 10), 0x2e, // .
        ZERO + ((millis / 100) | 0), ZERO + (((millis / 10) | 0) % 10), ZERO + (millis % 10), 0x5a, // Z
    );
}

function int64As(buf, pos, as) {
    if (as === AS_LONG) return require('./types/long').Long.fromBits(readInt32LE(buf, pos), readInt32LE(buf, pos + 4), false);
    const big = readBigInt64LE(buf, pos);
    if (as === AS_NUMBER) return Number(big);
    return as === AS_STRING ? big.toString() : big;
}

function decimal128As(buf, pos, as) {
    const { Decimal128 } = require('./types/decimal128');
    const text = new Decimal128(copyToNewBuffer(buf, pos, pos + 16)).toString();
    return as === AS_NUMBER ? Number(text) : text;
}

// A binary's payload buf[start..end) in the form `as` names.
function bytesAs(buf, start, end, as) {
    switch (as) {
        case AS_BASE64:
            return toBase64(buf, start, end);
        case AS_HEX:
            return toHex(buf, start, end);
        case AS_BUFFER:
            return valueBytes(buf, start, end);
        case AS_UINT8ARRAY: {
            // a plain Uint8Array also on Node (a Buffer's slice would be a Buffer); a view as valueBytes makes one
            if (end - start >= SHARED_BYTES_MIN) return new Uint8Array(buf.buffer, buf.byteOffset + start, end - start);
            const out = new Uint8Array(end - start);
            copyBytes(buf, start, end, out, 0);
            return out;
        }
        case AS_UUID_STRING:
            return require('./types/binary').uuidDashed(toHex(buf, start, end));
        default: // AS_UUID: a UUID kept while other binaries take a form
            return require('./types/binary').UUID.fromBytes(buf, start, end);
    }
}

function timestampAs(buf, pos, as) {
    const i = readUint32LE(buf, pos);
    const t = readUint32LE(buf, pos + 4);
    if (as === AS_OBJECT) return { t, i };
    return (BigInt(t) << 32n) | BigInt(i);
}

// JSON.parse's reviver over the fields of a document just decoded: each field's
// value replaced by what reviver.call(doc, key, value) returns, or deleted when
// that is undefined. Keys (an array's length) are taken before the first call.
function reviveFields(reviver, doc, isArray) {
    if (isArray) {
        const n = doc.length;
        for (let i = 0; i < n; i++) {
            const key = String(i);
            const value = reviver.call(doc, key, doc[key]);
            if (value === undefined) delete doc[key];
            else doc[key] = value;
        }
        return;
    }
    const keys = Object.keys(doc);
    for (let k = 0; k < keys.length; k++) {
        const key = keys[k];
        const value = reviver.call(doc, key, doc[key]);
        if (value === undefined) delete doc[key];
        else setField(doc, key, value);
    }
}

// The last call, on the top-level document under the key '' of a new holder.
function reviveRoot(reviver, doc) {
    const holder = {};
    holder[''] = doc;
    return reviver.call(holder, '', doc);
}

module.exports = {
    AS_BIGINT, AS_STRING, AS_BINARY, AS_BSON_REGEXP,
    readValuesOption, objectIdAs, dateAs, int64As, decimal128As, bytesAs, timestampAs, reviveFields, reviveRoot,
};
