'use strict';

// The one table of BSON type bytes, binary subtypes and limits (bsonspec.org).

module.exports = {
    BSON_DOUBLE: 0x01,
    BSON_STRING: 0x02,
    BSON_DOCUMENT: 0x03,
    BSON_ARRAY: 0x04,
    BSON_BINARY: 0x05,
    BSON_UNDEFINED: 0x06,
    BSON_OBJECTID: 0x07,
    BSON_BOOLEAN: 0x08,
    BSON_DATE: 0x09,
    BSON_NULL: 0x0a,
    BSON_REGEXP: 0x0b,
    BSON_DBPOINTER: 0x0c,
    BSON_CODE: 0x0d,
    BSON_SYMBOL: 0x0e,
    BSON_CODE_W_SCOPE: 0x0f,
    BSON_INT32: 0x10,
    BSON_TIMESTAMP: 0x11,
    BSON_INT64: 0x12,
    BSON_DECIMAL128: 0x13,
    BSON_MINKEY: 0xff,
    BSON_MAXKEY: 0x7f,

    BINARY_GENERIC: 0x00,
    BINARY_FUNCTION: 0x01,
    BINARY_OLD: 0x02,
    BINARY_UUID_OLD: 0x03,
    BINARY_UUID: 0x04,
    BINARY_MD5: 0x05,
    BINARY_ENCRYPTED: 0x06,
    BINARY_COLUMN: 0x07,
    BINARY_SENSITIVE: 0x08,
    BINARY_VECTOR: 0x09,
    BINARY_USER_DEFINED: 0x80,

    VECTOR_INT8: 0x03,
    VECTOR_FLOAT32: 0x27,
    VECTOR_PACKED_BIT: 0x10,

    // bson@7 decodes an int64 to a number in [-2^53, 2^53]: high words from -2^21 up
    // to 2^21 (2^21 and -2^21 only with a zero low word)
    INT64_SAFE_HIGH_MAX: 0x200000,
    INT64_SAFE_HIGH_MIN: -0x200000,
    UUID_BYTE_LENGTH: 16,
    // where a document sits, for the readers of documents (decoder, bsonToJSON): the
    // root (per-key UTF-8 validation applies), nested, or a code scope (never a DBRef)
    ROLE_ROOT: 0,
    ROLE_NESTED: 1,
    ROLE_SCOPE: 2,

    BSON_INT32_MIN: -0x80000000,
    BSON_INT32_MAX: 0x7fffffff,
    // smallest document: int32 length + terminating NUL
    MIN_DOCUMENT_SIZE: 5,
    // default bound on nesting, far above the server's 100 and far below a stack overflow
    // (Node 20's default stack: encode overflows near 1,650 levels, decode near 2,800)
    DEFAULT_MAX_DEPTH: 500,
    // the marker bson@5+ stamps on its type classes; qbson's classes carry it too
    BSON_VERSION_SYMBOL: Symbol.for('@@mdb.bson.version'),
    BSON_MAJOR_VERSION: 7,
    BSON_TYPE_SYMBOL: Symbol.for('@@mdb.bson.type'),
};

const C = module.exports;

// The bytes of each type's value where that size is fixed; -1 where the value
// carries its own length or is a document.
const FIXED_VALUE_SIZE = new Int8Array(256).fill(-1);
for (const [type, size] of [
    [C.BSON_DOUBLE, 8],
    [C.BSON_UNDEFINED, 0],
    [C.BSON_OBJECTID, 12],
    [C.BSON_BOOLEAN, 1],
    [C.BSON_DATE, 8],
    [C.BSON_NULL, 0],
    [C.BSON_INT32, 4],
    [C.BSON_TIMESTAMP, 8],
    [C.BSON_INT64, 8],
    [C.BSON_DECIMAL128, 16],
    [C.BSON_MINKEY, 0],
    [C.BSON_MAXKEY, 0],
]) {
    FIXED_VALUE_SIZE[type] = size;
}
C.FIXED_VALUE_SIZE = FIXED_VALUE_SIZE;
