'use strict';

const { randomBytes } = require('../random');
const { BSONValue } = require('./bson-value');
const { BSONError, withArticle } = require('../errors');
const { option } = require('../options');
const { BIG_ENDIAN_HOST, copyToNewBuffer, valueBytes } = require('../bytes');
const { alloc, fromArray, view, local, utf8Slice, toHex, fromHex, toBase64, fromBase64, compare, swap32 } = require('../platform');

const UUID_NO_DASHES = /^[0-9a-f]{32}$/i;
const UUID_DASHES = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SUBTYPE_RE = /^[0-9a-fA-F]{1,2}$/;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const VECTOR_INT8 = 0x03;
const VECTOR_FLOAT32 = 0x27;
const VECTOR_PACKED_BIT = 0x10;

function defaultInspect(value) {
    return JSON.stringify(value);
}

function describe(value) {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'an array';
    if (ArrayBuffer.isView(value)) return withArticle(value.constructor.name);
    return withArticle(typeof value);
}

// The runtime's bytes (a Buffer on Node) over the same memory as a typed array,
// DataView or (Shared)ArrayBuffer.
function asBuffer(value) {
    if (value instanceof Uint8Array) return local(value);
    if (ArrayBuffer.isView(value)) return view(value.buffer, value.byteOffset, value.byteLength);
    const tag = value != null ? Object.prototype.toString.call(value) : '';
    if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return view(value, 0, value.byteLength);
    throw new BSONError(`Binary data must be a Uint8Array, an ArrayBuffer or an array of bytes, got ${describe(value)}`);
}

// The bytes of a typed array or DataView as a Uint8Array view (no copy).
function viewBytes(view) {
    return view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function vectorBytes(dtype, padding, byteLength) {
    const bytes = alloc(byteLength + 2);
    bytes[0] = dtype;
    bytes[1] = padding;
    return bytes;
}

// Checks the header and length of a vector (subtype 9) payload of a known dtype;
// unknown dtypes and other subtypes pass. The encoder calls this before writing.
function validateBinaryVector(binary) {
    if (binary.sub_type !== Binary.SUBTYPE_VECTOR) return;
    const size = binary.position;
    const dtype = binary.buffer[0];
    // undefined when the payload is shorter than 2 bytes, which then fails the checks below
    const padding = binary.buffer[1];

    if ((dtype === VECTOR_FLOAT32 || dtype === VECTOR_INT8) && padding !== 0) {
        throw new BSONError('Invalid Vector: padding must be zero for int8 and float32 vectors');
    }
    if (dtype === VECTOR_FLOAT32 && size !== 0 && size !== 2 && (size - 2) % 4 !== 0) {
        throw new BSONError('Invalid Vector: Float32 vector must contain a multiple of 4 bytes');
    }
    if (dtype === VECTOR_PACKED_BIT) {
        if (padding !== 0 && size === 2) {
            throw new BSONError('Invalid Vector: padding must be zero for packed bit vectors that are empty');
        }
        if (padding > 7) {
            throw new BSONError(`Invalid Vector: padding must be a value between 0 and 7. found: ${padding}`);
        }
    }
}

function checkVector(binary, dtype, name) {
    if (binary.sub_type !== Binary.SUBTYPE_VECTOR) throw new BSONError('Binary sub_type is not Vector');
    if (binary.buffer[0] !== dtype) throw new BSONError(`Binary datatype field is not ${name}`);
    validateBinaryVector(binary);
}

// a copy of a vector's data bytes (after the 2-byte header) in a fresh ArrayBuffer
function vectorData(binary) {
    const b = binary.buffer;
    return b.buffer.slice(b.byteOffset + 2, b.byteOffset + binary.position);
}

// fromBytes passes this to say its bytes are a fresh Buffer of its own, to be taken
// as they are: the checks below made up 12% of decoding a document of 600 UUIDs and hashes
const OWN_BYTES = Symbol('Binary.fromBytes');

class Binary extends BSONValue {
    // (a parameter with a default does not count in Binary.length, which stays bson's 2)
    constructor(buffer, subType, ownBytes = null) {
        super();
        if (ownBytes === OWN_BYTES) {
            this.buffer = buffer;
            this.sub_type = subType;
            this.position = buffer.length;
            return;
        }
        if (typeof buffer === 'string') {
            throw new BSONError('Binary can only be constructed from Uint8Array or number[]');
        }
        let bytes;
        let position;
        if (buffer == null) {
            bytes = alloc(Binary.BUFFER_SIZE);
            position = 0;
        } else {
            bytes = Array.isArray(buffer) ? fromArray(buffer) : asBuffer(buffer);
            position = bytes.byteLength;
        }
        // the data; may be longer than the value after put()/write(), see position
        this.buffer = bytes;
        this.sub_type = (subType == null ? Binary.SUBTYPE_DEFAULT : subType) & 0xff;
        // the length of the value held in buffer
        this.position = position;
    }

    get _bsontype() {
        return 'Binary';
    }

    // Decoder fast path: a Binary holding buf[start..end) with the given subtype, a
    // copy or, from 4 KiB on, a view (lib/bytes.js valueBytes). Like bson's deserializer,
    // subtype 4 with exactly 16 bytes gives a UUID. No validation: the caller has checked the bounds.
    static fromBytes(buf, start, end, subtype) {
        const bytes = valueBytes(buf, start, end);
        if (subtype === Binary.SUBTYPE_UUID && end - start === 16) return new UUID(bytes, OWN_BYTES);
        return new Binary(bytes, subtype, OWN_BYTES);
    }

    // Appends one byte: a number 0-255, a one-character string, or a one-element array.
    put(byteValue) {
        let byte;
        if (typeof byteValue === 'number') {
            byte = byteValue;
        } else if (typeof byteValue === 'string') {
            if (byteValue.length !== 1) throw new BSONError('only accepts single character String');
            byte = byteValue.charCodeAt(0);
        } else {
            if (byteValue == null || byteValue.length !== 1) {
                throw new BSONError('only accepts single character Uint8Array or Array');
            }
            byte = byteValue[0];
        }
        if (!Number.isInteger(byte) || byte < 0 || byte > 255) {
            throw new BSONError('only accepts number in a valid unsigned byte range 0-255');
        }
        if (this.buffer.byteLength <= this.position) {
            const grown = alloc(Binary.BUFFER_SIZE + this.buffer.length);
            grown.set(this.buffer, 0);
            this.buffer = grown;
        }
        this.buffer[this.position++] = byte;
    }

    // Writes bytes (a typed array or an array of numbers) at offset, by default at the end.
    write(sequence, offset) {
        if (typeof sequence === 'string') throw new BSONError('input cannot be string');
        let bytes;
        if (ArrayBuffer.isView(sequence)) bytes = viewBytes(sequence);
        else if (Array.isArray(sequence)) bytes = fromArray(sequence);
        else throw new BSONError(`Binary.write needs a Uint8Array or an array of bytes, got ${describe(sequence)}`);
        offset = typeof offset === 'number' ? offset : this.position;
        const end = offset + bytes.length;
        if (this.buffer.byteLength < end) {
            const grown = alloc(Math.max(this.buffer.byteLength + bytes.length, end));
            grown.set(this.buffer, 0);
            this.buffer = grown;
        }
        this.buffer.set(bytes, offset);
        if (end > this.position) this.position = end;
    }

    // A view of `length` bytes from `position`, cut at the end of the value (a
    // missing or non-positive length means "to the end").
    read(position, length) {
        length = length && length > 0 ? length : this.position;
        const end = position + length;
        return this.buffer.subarray(position, end > this.position ? this.position : end);
    }

    value() {
        return this.buffer.length === this.position ? this.buffer : this.buffer.subarray(0, this.position);
    }

    length() {
        return this.position;
    }

    toJSON() {
        return this.toString('base64');
    }

    // the value's bytes, buffer[0, position), as hex, base64 or (by default) UTF-8 text
    toString(encoding) {
        const bytes = asBuffer(this.buffer);
        const end = Math.min(this.position, bytes.length);
        if (encoding === 'hex') return toHex(bytes, 0, end);
        if (encoding === 'base64') return toBase64(bytes, 0, end);
        return utf8Slice(bytes, 0, end);
    }

    toUUID() {
        if (this.sub_type === Binary.SUBTYPE_UUID) {
            return new UUID(this.buffer.subarray(0, this.position));
        }
        throw new BSONError(
            `Binary sub_type "${this.sub_type}" (${typeof this.sub_type}) is not supported for converting to UUID. Only 0x04 is currently supported.`
        );
    }

    static createFromHexString(hex, subType) {
        return new Binary(fromHex(hex), subType);
    }

    static createFromBase64(base64, subType) {
        return new Binary(fromBase64(base64), subType);
    }

    // bson's Extended JSON hooks
    toExtendedJSON(options) {
        return binaryExtendedJSON(this, Boolean(option(options, 'legacy')));
    }

    // {$binary} (legacy {$binary, $type} with options.legacy) or {$uuid}, as EJSON.parse reads it
    static fromExtendedJSON(doc, options) {
        // loaded here, not with the class: a program that never calls this does not need it
        const { ReadContext } = require('../ejson-reading');
        const r = new ReadContext({ relaxed: false, legacy: Boolean(option(options, 'legacy')) });
        const keys = Object.keys(doc);
        if (Object.prototype.hasOwnProperty.call(doc, '$uuid')) return readUUIDExtendedJSON(r, doc, keys);
        return readBinaryExtendedJSON(r, doc, keys);
    }

    inspect(depth, options, inspect) {
        inspect = inspect || defaultInspect;
        const base64 = this.toString('base64');
        return `Binary.createFromBase64(${inspect(base64, options)}, ${inspect(this.sub_type, options)})`;
    }

    // ---- vectors (subtype 9): byte 0 the dtype, byte 1 the padding, then the data

    toInt8Array() {
        checkVector(this, VECTOR_INT8, 'Int8');
        return new Int8Array(vectorData(this));
    }

    toFloat32Array() {
        checkVector(this, VECTOR_FLOAT32, 'Float32');
        const data = vectorData(this);
        if (BIG_ENDIAN_HOST) swap32(new Uint8Array(data));
        return new Float32Array(data);
    }

    toPackedBits() {
        checkVector(this, VECTOR_PACKED_BIT, 'packed bit');
        return new Uint8Array(vectorData(this));
    }

    toBits() {
        checkVector(this, VECTOR_PACKED_BIT, 'packed bit');
        const b = this.buffer;
        const bitCount = (this.position - 2) * 8 - b[1];
        const bits = new Int8Array(bitCount);
        for (let i = 0; i < bitCount; i++) {
            bits[i] = (b[2 + (i >>> 3)] >>> (7 - (i & 7))) & 1;
        }
        return bits;
    }

    // From an Int8Array (any typed array is taken as its raw bytes) or an array of
    // integers -128..127.
    static fromInt8Array(array) {
        let bytes;
        if (ArrayBuffer.isView(array)) {
            bytes = vectorBytes(VECTOR_INT8, 0, array.byteLength);
            bytes.set(viewBytes(array), 2);
        } else if (Array.isArray(array)) {
            bytes = vectorBytes(VECTOR_INT8, 0, array.length);
            for (let i = 0; i < array.length; i++) {
                const v = array[i];
                if (!Number.isInteger(v) || v < -128 || v > 127) {
                    throw new BSONError(`Invalid Int8 vector value at ${i}: must be an integer from -128 to 127, found ${v}`);
                }
                bytes[2 + i] = v;
            }
        } else {
            throw new BSONError(`Binary.fromInt8Array needs an Int8Array or an array of numbers, got ${describe(array)}`);
        }
        const bin = new this(bytes, Binary.SUBTYPE_VECTOR);
        validateBinaryVector(bin);
        return bin;
    }

    // From a Float32Array (any typed array is taken as its raw bytes) or an array of numbers.
    static fromFloat32Array(array) {
        let bytes;
        if (ArrayBuffer.isView(array)) {
            bytes = vectorBytes(VECTOR_FLOAT32, 0, array.byteLength);
            bytes.set(viewBytes(array), 2);
        } else if (Array.isArray(array)) {
            for (let i = 0; i < array.length; i++) {
                if (typeof array[i] !== 'number') {
                    throw new BSONError(`Invalid Float32 vector value at ${i}: must be a number, found ${String(array[i])}`);
                }
            }
            const floats = new Float32Array(array);
            bytes = vectorBytes(VECTOR_FLOAT32, 0, floats.byteLength);
            bytes.set(new Uint8Array(floats.buffer), 2);
        } else {
            throw new BSONError(`Binary.fromFloat32Array needs a Float32Array or an array of numbers, got ${describe(array)}`);
        }
        if (BIG_ENDIAN_HOST) swap32(bytes.subarray(2));
        const bin = new this(bytes, Binary.SUBTYPE_VECTOR);
        validateBinaryVector(bin);
        return bin;
    }

    // From bytes of packed bits (a Uint8Array or an array of integers 0..255) and the
    // count of unused low bits in the last byte.
    static fromPackedBits(array, padding = 0) {
        if (padding === null) padding = 0;
        if (!Number.isInteger(padding) || padding < 0 || padding > 7) {
            throw new BSONError(`Invalid Vector: padding must be a value between 0 and 7. found: ${String(padding)}`);
        }
        let bytes;
        if (ArrayBuffer.isView(array)) {
            bytes = vectorBytes(VECTOR_PACKED_BIT, padding, array.byteLength);
            bytes.set(viewBytes(array), 2);
        } else if (Array.isArray(array)) {
            bytes = vectorBytes(VECTOR_PACKED_BIT, padding, array.length);
            for (let i = 0; i < array.length; i++) {
                const v = array[i];
                if (!Number.isInteger(v) || v < 0 || v > 255) {
                    throw new BSONError(`Invalid packed bit vector byte at ${i}: must be an integer from 0 to 255, found ${v}`);
                }
                bytes[2 + i] = v;
            }
        } else {
            throw new BSONError(`Binary.fromPackedBits needs a Uint8Array or an array of numbers, got ${describe(array)}`);
        }
        const bin = new this(bytes, Binary.SUBTYPE_VECTOR);
        validateBinaryVector(bin);
        return bin;
    }

    // From an array-like of 0s and 1s, packed most significant bit first.
    static fromBits(bits) {
        if (bits == null || typeof bits.length !== 'number') {
            throw new BSONError(`Binary.fromBits needs an array of 0s and 1s, got ${describe(bits)}`);
        }
        const count = bits.length;
        const remainder = count % 8;
        const bytes = vectorBytes(VECTOR_PACKED_BIT, remainder === 0 ? 0 : 8 - remainder, (count + 7) >>> 3);
        for (let i = 0; i < count; i++) {
            const bit = bits[i];
            if (bit !== 0 && bit !== 1) {
                throw new BSONError(`Invalid bit value at ${i}: must be 0 or 1, found ${bit}`);
            }
            if (bit === 1) bytes[2 + (i >>> 3)] |= 0x80 >>> (i & 7);
        }
        return new this(bytes, Binary.SUBTYPE_VECTOR);
    }
}

Binary.BUFFER_SIZE = 256;
Binary.SUBTYPE_DEFAULT = 0;
Binary.SUBTYPE_FUNCTION = 1;
Binary.SUBTYPE_BYTE_ARRAY = 2;
Binary.SUBTYPE_UUID_OLD = 3;
Binary.SUBTYPE_UUID = 4;
Binary.SUBTYPE_MD5 = 5;
Binary.SUBTYPE_ENCRYPTED = 6;
Binary.SUBTYPE_COLUMN = 7;
Binary.SUBTYPE_SENSITIVE = 8;
Binary.SUBTYPE_VECTOR = 9;
Binary.SUBTYPE_USER_DEFINED = 128;
Binary.VECTOR_TYPE = Object.freeze({ Int8: VECTOR_INT8, Float32: VECTOR_FLOAT32, PackedBit: VECTOR_PACKED_BIT });

const UUID_ARGUMENT_ERROR =
    'Argument passed in UUID constructor must be a UUID, a 16 byte Buffer or a 32/36 character hex string (dashes excluded/included, format: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx).';

// A UUID made by another copy of the library (e.g. bson's own UUID class).
function isForeignUUID(value) {
    return (
        typeof value === 'object' &&
        value._bsontype === 'Binary' &&
        value.sub_type === Binary.SUBTYPE_UUID &&
        typeof value.toHexString === 'function' &&
        ArrayBuffer.isView(value.buffer) &&
        value.buffer.byteLength === 16
    );
}

class UUID extends Binary {
    // From nothing (a random v4 UUID), a 32/36-character hex string, 16 bytes
    // (kept, not copied, as bson does) or another UUID (copied).
    constructor(input, ownBytes = null) {
        if (ownBytes === OWN_BYTES) {
            super(input, Binary.SUBTYPE_UUID, OWN_BYTES);
            return;
        }
        let bytes;
        if (input == null) {
            bytes = UUID.generate();
        } else if (input instanceof UUID || isForeignUUID(input)) {
            bytes = fromArray(viewBytes(input.buffer));
        } else if (ArrayBuffer.isView(input) && input.byteLength === 16) {
            bytes = asBuffer(input);
        } else if (typeof input === 'string') {
            bytes = UUID.bytesFromString(input);
        } else {
            throw new BSONError(UUID_ARGUMENT_ERROR);
        }
        super(bytes, Binary.SUBTYPE_UUID);
    }

    // Decoder fast path: a UUID holding a copy of the 16 bytes buf[start..end).
    // No validation: the caller has checked the bounds and the length.
    static fromBytes(buf, start, end) {
        return new UUID(copyToNewBuffer(buf, start, end), OWN_BYTES);
    }

    get id() {
        return this.buffer;
    }

    set id(value) {
        this.buffer = value;
    }

    toHexString(includeDashes = true) {
        const bytes = asBuffer(this.buffer);
        const hex = toHex(bytes, 0, bytes.length);
        return includeDashes ? uuidDashed(hex) : hex;
    }

    toString(encoding) {
        if (encoding === 'hex') return this.toHexString(false);
        if (encoding === 'base64') {
            const bytes = asBuffer(this.buffer);
            return toBase64(bytes, 0, bytes.length);
        }
        return this.toHexString();
    }

    toJSON() {
        return this.toHexString();
    }

    equals(other) {
        if (!other) return false;
        if (other instanceof UUID) return compare(asBuffer(this.buffer), asBuffer(other.buffer)) === 0;
        try {
            return compare(asBuffer(this.buffer), asBuffer(new UUID(other).buffer)) === 0;
        } catch {
            return false;
        }
    }

    // A plain Binary (subtype 4) over the same bytes.
    toBinary() {
        return new Binary(this.buffer, Binary.SUBTYPE_UUID);
    }

    // 16 random bytes with the version (4) and variant (10xx) bits of RFC 4122 set.
    static generate() {
        const bytes = randomBytes(16);
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        return bytes;
    }

    static isValid(input) {
        if (!input) return false;
        if (typeof input === 'string') return UUID.isValidUUIDString(input);
        if (ArrayBuffer.isView(input) && input[Symbol.toStringTag] === 'Uint8Array') return input.byteLength === 16;
        return (
            input._bsontype === 'Binary' &&
            input.sub_type === Binary.SUBTYPE_UUID &&
            input.buffer != null &&
            input.buffer.byteLength === 16
        );
    }

    static createFromHexString(hexString) {
        return new UUID(UUID.bytesFromString(hexString));
    }

    static createFromBase64(base64) {
        return new UUID(fromBase64(base64));
    }

    static bytesFromString(representation) {
        if (!UUID.isValidUUIDString(representation)) {
            throw new BSONError('UUID string representation must be 32 hex digits or canonical hyphenated representation');
        }
        return fromHex(representation.replace(/-/g, ''));
    }

    static isValidUUIDString(representation) {
        return UUID_NO_DASHES.test(representation) || UUID_DASHES.test(representation);
    }

    inspect(depth, options, inspect) {
        inspect = inspect || defaultInspect;
        return `new UUID(${inspect(this.toHexString(), options)})`;
    }
}

// {$binary: {base64, subType}}, when legacy {$binary: base64, $type: subType}; the
// value's bytes are buffer[0, position). A flag, not options, as for Int32
// (lib/ejson.js's speed).
function binaryExtendedJSON(binary, legacy) {
    validateBinaryVector(binary);
    const bytes = binary.buffer;
    const base64 = toBase64(view(bytes.buffer, bytes.byteOffset, binary.position), 0, binary.position);
    const subType = hexByte(binary.sub_type);
    if (legacy) return { $binary: base64, $type: subType };
    return { $binary: { base64, subType } };
}

// 32 hex digits in the canonical 8-4-4-4-12 form
function uuidDashed(hex) {
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function hexByte(n) {
    const hex = Number(n).toString(16);
    return hex.length === 1 ? '0' + hex : hex;
}

// A $binary's base64 text and hex subtype: a UUID for subtype 4 with 16 bytes, as
// bson gives it; any other length stays a Binary rather than failing.
function binaryFromExtendedJSON(r, base64, subTypeHex) {
    if (!BASE64_RE.test(base64)) throw r.fail(`$binary base64 ${JSON.stringify(base64)} is not base64`);
    if (!SUBTYPE_RE.test(subTypeHex)) {
        throw r.fail(`$binary subType must be one or two hexadecimal digits, found ${JSON.stringify(subTypeHex)}`);
    }
    const bytes = fromBase64(base64);
    const subType = parseInt(subTypeHex, 16);
    if (subType === Binary.SUBTYPE_UUID && bytes.length === 16) return new UUID(bytes);
    return new Binary(bytes, subType);
}

// {$binary: {base64, subType}}; with the legacy option also {$binary: base64, $type: subType}
function readBinaryExtendedJSON(r, obj, keys) {
    const inner = obj.$binary;
    if (r.legacy && typeof inner === 'string' && Object.prototype.hasOwnProperty.call(obj, '$type')) {
        r.expectKeys(obj, keys, ['$binary', '$type']);
        return binaryFromExtendedJSON(r, inner, r.expectString(obj.$type, '$type'));
    }
    if (typeof inner === 'string') {
        throw r.fail('$binary as a base64 string (with $type) is the legacy form, read only with the legacy option');
    }
    r.expectKeys(obj, keys, ['$binary']);
    r.expectObject(inner, '$binary must be an object with base64 and subType');
    r.expectKeys(inner, Object.keys(inner), ['base64', 'subType']);
    return binaryFromExtendedJSON(r, r.expectString(inner.base64, '$binary base64'), r.expectString(inner.subType, '$binary subType'));
}

// {$uuid: 32 hex digits, optionally hyphenated 8-4-4-4-12}
function readUUIDExtendedJSON(r, obj, keys) {
    r.expectKeys(obj, keys, ['$uuid']);
    const s = obj.$uuid;
    if (typeof s !== 'string' || !UUID.isValidUUIDString(s)) {
        throw r.fail(`$uuid must be a UUID string of 32 hexadecimal digits, optionally hyphenated 8-4-4-4-12, not ${r.describe(s)}`);
    }
    return new UUID(s);
}

module.exports = { Binary, UUID, uuidDashed, validateBinaryVector, binaryExtendedJSON, readBinaryExtendedJSON, readUUIDExtendedJSON };
