'use strict';

// Every entry point reads and checks its options here, so that one mistake is one
// error whichever entry point it reaches: a BSONError with code ERR_BSON_OPTION
// worded "option NAME must be WHAT IT TAKES, not THE VALUE GIVEN". An option of the
// wrong type that bson@7 ignores (promoteLongs: 'yes', checkKeys: 1) is ignored
// here too, as programs written for bson pass such values.
//
// Options are read as the caller's own properties only: a property inherited from
// a polluted Object.prototype must not change how anything is encoded or decoded.

const C = require('./constants');
const { BSONError, withArticle } = require('./errors');

const hasOwnProperty = Object.prototype.hasOwnProperty;

// A document's length is an int32, and no document is shorter than an empty one.
const MAX_DOCUMENT_SIZE_LIMIT = 0x7fffffff;
// a string value is shown up to this many characters
const MAX_SHOWN_LENGTH = 40;

// opts[name] if opts itself has it, else undefined.
function option(opts, name) {
    return opts != null && hasOwnProperty.call(opts, name) ? opts[name] : undefined;
}

// A null-prototype copy of the caller's own enumerable options over the defaults,
// for the entry points that read many options once.
function ownOptions(defaults, opts) {
    return Object.assign(Object.create(null), defaults, opts != null && typeof opts === 'object' ? opts : undefined);
}

// A value as an option error shows it: a string quoted, a number as written, an
// object by its kind.
function describe(value) {
    switch (typeof value) {
        case 'string':
            return `'${value.length > MAX_SHOWN_LENGTH ? value.slice(0, MAX_SHOWN_LENGTH) + '...' : value}'`;
        case 'bigint':
            return `${value}n`;
        case 'symbol':
            return value.toString();
        case 'function':
            return 'a function';
        case 'object':
            return value === null ? 'null' : objectKind(value);
        default:
            return String(value);
    }
}

// a Proxy may throw from any of these looks: then it is just an object
function objectKind(value) {
    try {
        if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
        const proto = Object.getPrototypeOf(value);
        if (proto === null || proto === Object.prototype) return Object.keys(value).length === 0 ? 'an empty object' : 'an object';
        const ctor = proto.constructor;
        return typeof ctor === 'function' && typeof ctor.name === 'string' && ctor.name !== '' ? withArticle(ctor.name) : 'an object';
    } catch {
        return 'an object';
    }
}

// The error for an option whose value is not one it takes. `words`, when given,
// go first: bson@7's message for the same mistake, which programs match.
function optionError(name, takes, value, words) {
    const message = `option ${name} must be ${takes}, not ${describe(value)}`;
    return new BSONError(words === undefined ? message : `${words}: ${message}`, { code: 'ERR_BSON_OPTION' });
}

// "'a', 'b' or 'c'"
function listChoices(choices) {
    const shown = choices.map((c) => `'${c}'`);
    return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

// The options argument itself, for the entry points that refuse one that is not
// an object (decode and encode, like bson's, ignore it).
function checkOptionsObject(opts) {
    if (opts != null && typeof opts !== 'object') {
        throw new BSONError(`options must be an object, not ${describe(opts)}`, { code: 'ERR_BSON_OPTION' });
    }
}

// value if it is one of choices, undefined if not given
function readChoice(name, value, choices) {
    if (value !== undefined && (typeof value !== 'string' || choices.indexOf(value) === -1)) throw optionError(name, listChoices(choices), value);
    return value;
}

// The nesting bound of encode, decode and their kin.
function readMaxDepth(value) {
    if (value === undefined) return C.DEFAULT_MAX_DEPTH;
    if (!Number.isInteger(value) || value < 1) throw optionError('maxDepth', 'a positive integer', value);
    return value;
}

// The largest document in bytes, or `absent` when not given.
function readMaxDocumentSize(value, absent) {
    if (value === undefined) return absent;
    if (!Number.isInteger(value) || value < C.MIN_DOCUMENT_SIZE || value > MAX_DOCUMENT_SIZE_LIMIT) {
        throw optionError('maxDocumentSize', `an integer from ${C.MIN_DOCUMENT_SIZE} to ${MAX_DOCUMENT_SIZE_LIMIT}`, value);
    }
    return value;
}

// Where in a buffer of `length` bytes the document starts.
function readIndex(value, length) {
    if (!Number.isInteger(value) || value < 0 || value > length) throw optionError('index', `an integer from 0 to ${length} (the buffer's length)`, value);
    return value;
}

function readReviver(value) {
    if (typeof value !== 'function') throw optionError('reviver', 'a function (key, value)', value);
    return value;
}

// The fields option's list; its paths are read by the projection (lib/projection.js).
function readFields(value) {
    if (!Array.isArray(value)) throw optionError('fields', 'an array of paths', value);
    return value;
}

// One path of the fields option, checked by parsePath (lib/path.js) as get checks its path.
function readFieldPath(parsePath, fields, i) {
    try {
        return parsePath(fields[i]);
    } catch (err) {
        if (!(err instanceof BSONError)) throw err;
        throw optionError(`fields[${i}]`, 'a path (a dotted string or an array of keys and indexes)', fields[i]);
    }
}

// bson's raw option: an object whose own truthy keys name arrays, or null or undefined.
function readFieldsAsRaw(value) {
    if (value != null && typeof value !== 'object') throw optionError('fieldsAsRaw', 'an object naming fields', value);
    return value;
}

// validation.utf8: a boolean (undefined: true), or an object mapping top-level
// keys all to true or all to false. Returns those keys, or null for a boolean.
const UTF8_TAKES = 'a boolean or an object mapping top-level keys all to true or all to false';
const UTF8_EMPTY = 'UTF-8 validation setting cannot be empty';
const UTF8_NOT_BOOLEAN = 'Invalid UTF-8 validation option, must specify boolean values';
function readValidationUtf8(utf8) {
    if (typeof utf8 === 'boolean' || utf8 === undefined) return null;
    // bson's words for a value that is no such object: it reads any value's keys
    if (utf8 === null || typeof utf8 !== 'object') {
        throw optionError('validation.utf8', UTF8_TAKES, utf8, utf8 === null ? undefined : Object.keys(utf8).length === 0 ? UTF8_EMPTY : UTF8_NOT_BOOLEAN);
    }
    const keys = Object.keys(utf8);
    if (keys.length === 0) throw optionError('validation.utf8', UTF8_TAKES, utf8, UTF8_EMPTY);
    const setting = utf8[keys[0]];
    if (typeof setting !== 'boolean') throw optionError(`validation.utf8['${keys[0]}']`, 'a boolean', setting, UTF8_NOT_BOOLEAN);
    for (const k of keys) {
        if (utf8[k] !== setting) {
            throw optionError(`validation.utf8['${k}']`, String(setting), utf8[k], 'Invalid UTF-8 validation option - keys must be all true or all false');
        }
    }
    return keys;
}

// bson refuses useBigInt64 where promoteValues or promoteLongs turns int64 promotion off.
function refuseBigIntWithoutPromotion() {
    throw optionError('useBigInt64', 'false when promoteValues or promoteLongs is false', true, 'Must either request bigint or Long for int64 deserialization');
}

// An option the reader at hand cannot honour (a reviver given to get, has, lazy or
// the fields option).
function refuseOption(name, readers, reader) {
    throw new BSONError(`option ${name} is for ${readers}, not ${reader}`, { code: 'ERR_BSON_OPTION' });
}

// The options of encode, encodeInto, calculateObjectSize and bson's serialize, onto
// `target`, whose fields the caller has set to the defaults.
function readEncodeOptions(target, opts) {
    const checkKeys = option(opts, 'checkKeys');
    const serializeFunctions = option(opts, 'serializeFunctions');
    const ignoreUndefined = option(opts, 'ignoreUndefined');
    const maxDepth = option(opts, 'maxDepth');
    const maxDocumentSize = option(opts, 'maxDocumentSize');
    if (typeof checkKeys === 'boolean') target.checkKeys = checkKeys;
    if (typeof serializeFunctions === 'boolean') target.serializeFunctions = serializeFunctions;
    if (typeof ignoreUndefined === 'boolean') target.ignoreUndefined = ignoreUndefined;
    if (maxDepth !== undefined) target.maxDepth = readMaxDepth(maxDepth);
    if (maxDocumentSize !== undefined) target.maxDocumentSize = readMaxDocumentSize(maxDocumentSize, 0);
}

// The options of decode and every reader built on the decoder (decodeAll, get, has,
// lazy, decodeStream, bsonToJSON's maxDepth and validation, bson's deserialize),
// onto a Decoder whose fields are at their defaults. They are found by one look at
// the names opts has (its own properties, enumerable or not, as option() reads
// them): twelve option() lookups, nearly all misses, made new Decoder(buf,
// {promoteValues: true}) take 45% longer, and decode(buf, {promoteValues: true})
// of {a: 1} 25-30% longer. index, allowObjectSmallerThanBufferSize and fields are
// read where the document is found (lib/decoder.js, lib/decode.js).
function readDecodeOptions(dec, opts) {
    const names = Object.getOwnPropertyNames(opts);
    let maxDepth, validation, raw, fieldsAsRaw, values, reviver;
    for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const value = opts[name];
        switch (name) {
            case 'promoteLongs': if (typeof value === 'boolean') dec.promoteLongs = value; break;
            case 'promoteValues': if (typeof value === 'boolean') dec.promoteValues = value; break;
            case 'promoteBuffers': if (typeof value === 'boolean') dec.promoteBuffers = value; break;
            case 'useBigInt64': if (typeof value === 'boolean') dec.useBigInt64 = value; break;
            case 'bsonRegExp': if (typeof value === 'boolean') dec.bsonRegExp = value; break;
            case 'preserveDeprecated': if (typeof value === 'boolean') dec.preserveDeprecated = value; break;
            case 'maxDepth': maxDepth = value; break;
            case 'validation': validation = value; break;
            case 'raw': raw = value; break;
            case 'fieldsAsRaw': fieldsAsRaw = value; break;
            case 'values': values = value; break;
            case 'reviver': reviver = value; break;
            default:
        }
    }
    if (maxDepth !== undefined) dec.maxDepth = readMaxDepth(maxDepth);
    if (dec.useBigInt64 && (!dec.promoteValues || !dec.promoteLongs)) refuseBigIntWithoutPromotion();
    if (validation != null) {
        const utf8 = option(validation, 'utf8');
        dec.setValidation(utf8, readValidationUtf8(utf8));
    }
    if (raw !== undefined || fieldsAsRaw !== undefined) dec.setRaw(raw, readFieldsAsRaw(fieldsAsRaw));
    // checked by lib/value-mapping.js, whose table of forms it is (a floor above this one)
    if (values !== undefined) dec.setValues(values);
    if (reviver !== undefined) dec.reviver = readReviver(reviver);
    dec.numberArrays = dec.promoteValues && dec.reviver === null;
}

module.exports = {
    option,
    ownOptions,
    describe,
    optionError,
    listChoices,
    checkOptionsObject,
    readChoice,
    readMaxDepth,
    readMaxDocumentSize,
    readIndex,
    readReviver,
    readFields,
    readFieldPath,
    readFieldsAsRaw,
    readValidationUtf8,
    refuseOption,
    readEncodeOptions,
    readDecodeOptions,
};
