'use strict';

const { randomBytes } = require('../random');
const { BSONValue } = require('./bson-value');
const { BSONError } = require('../errors');
const { alloc, allocUnsafe, fromHex, toBase64, fromBase64, HEX, HEX_VALUE, hexDigit } = require('../platform');

// Layout: the 12 bytes live in four own integer fields i0..i3, three bytes each,
// big-endian (i0 = bytes 0-2, ..., i3 = bytes 9-11). bson@7 uses the same fields,
// so either library can copy or compare the other's ids without a hex round trip,
// and 24-bit values stay small integers in V8. Measured against a 12-byte Buffer
// copy, this is several times faster to build from a decode buffer and to write back.

// each byte's two hex digits as character codes
const HEX_HIGH = new Uint8Array(256);
const HEX_LOW = new Uint8Array(256);
for (let n = 0; n < 256; n++) {
    HEX_HIGH[n] = HEX.charCodeAt(n >>> 4);
    HEX_LOW[n] = HEX.charCodeAt(n & 15);
}
const fromCharCode = String.fromCharCode;

// The 24 hex digits of the id whose fields (three bytes each) are a, b, c, d, made
// in one flat string: twice as fast as joining twelve 2-digit strings, and later
// reads need not flatten a tree of them.
function hexOfFields(a, b, c, d) {
    return fromCharCode(
        HEX_HIGH[a >>> 16], HEX_LOW[a >>> 16], HEX_HIGH[(a >>> 8) & 0xff], HEX_LOW[(a >>> 8) & 0xff], HEX_HIGH[a & 0xff], HEX_LOW[a & 0xff],
        HEX_HIGH[b >>> 16], HEX_LOW[b >>> 16], HEX_HIGH[(b >>> 8) & 0xff], HEX_LOW[(b >>> 8) & 0xff], HEX_HIGH[b & 0xff], HEX_LOW[b & 0xff],
        HEX_HIGH[c >>> 16], HEX_LOW[c >>> 16], HEX_HIGH[(c >>> 8) & 0xff], HEX_LOW[(c >>> 8) & 0xff], HEX_HIGH[c & 0xff], HEX_LOW[c & 0xff],
        HEX_HIGH[d >>> 16], HEX_LOW[d >>> 16], HEX_HIGH[(d >>> 8) & 0xff], HEX_LOW[(d >>> 8) & 0xff], HEX_HIGH[d & 0xff], HEX_LOW[d & 0xff],
    );
}

// The hex string of the id stored at buf[offset..offset+12), without making an
// ObjectId (decode's values: {objectId: 'hex'}; the caller checks bounds).
function objectIdHexAt(buf, offset) {
    return hexOfFields(field(buf, offset), field(buf, offset + 3), field(buf, offset + 6), field(buf, offset + 9));
}

// the field (three bytes, big-endian) at bytes[at]
function field(bytes, at) {
    return (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
}

// the id's fields from its 12 bytes at bytes[at]
function setFields(id, bytes, at) {
    id.i0 = field(bytes, at);
    id.i1 = field(bytes, at + 3);
    id.i2 = field(bytes, at + 6);
    id.i3 = field(bytes, at + 9);
}

// first argument that selects the decoder's constructor path
const FROM_BYTES = Symbol('ObjectId.fromBytes');

let processUnique = null; // 5 random bytes, made on first use
let counter = Math.floor(Math.random() * 0x1000000);

function nextCounter() {
    counter = (counter + 1) % 0x1000000;
    return counter;
}

// bytes with `time`'s low 32 bits (seconds) written big-endian at their start
function writeSeconds(bytes, time) {
    const t = time >>> 0;
    bytes[0] = t >>> 24;
    bytes[1] = t >>> 16;
    bytes[2] = t >>> 8;
    bytes[3] = t;
    return bytes;
}

function getProcessUnique() {
    if (processUnique === null) processUnique = randomBytes(5);
    return processUnique;
}

function isHex24(s) {
    if (typeof s !== 'string' || s.length !== 24) return false;
    for (let i = 0; i < 24; i++) {
        if (hexDigit(s, i) < 0) return false;
    }
    return true;
}

// the field written by the 6 hex digits at s[i]; the caller has validated the string
function hexField(s, i) {
    let value = 0;
    for (let end = i + 6; i < end; i++) value = (value << 4) | HEX_VALUE[s.charCodeAt(i)];
    return value;
}

function hasPackedFields(v) {
    return (
        v._bsontype === 'ObjectId' &&
        typeof v.i0 === 'number' &&
        typeof v.i1 === 'number' &&
        typeof v.i2 === 'number' &&
        typeof v.i3 === 'number'
    );
}

function viewBytes(view) {
    return view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function defaultInspect(value) {
    return JSON.stringify(value);
}

// hex strings kept while ObjectId.cacheHexString is true; otherwise toHexString()
// computes the string on each call (a private field for the cache measured nearly
// twice as slow to construct, and decoding builds far more ids than it prints)
const hexCache = new WeakMap();

// The fields of a new ObjectId from what its constructor was given (anything but
// decoded bytes, which take setFields alone: a decode's first id does not compile this).
function setFromInput(oid, input) {
    let working = input;
    if (typeof input === 'object' && input !== null && 'id' in input) {
        if (hasPackedFields(input)) {
            oid.i0 = input.i0;
            oid.i1 = input.i1;
            oid.i2 = input.i2;
            oid.i3 = input.i3;
            return;
        }
        const id = input.id;
        if (typeof id !== 'string' && !ArrayBuffer.isView(id)) {
            throw new BSONError('Argument passed in must have an id that is of type string or Buffer');
        }
        working = typeof input.toHexString === 'function' ? fromHex(String(input.toHexString())) : id;
    }

    if (working == null) {
        const time = Math.floor(Date.now() / 1000);
        const pu = getProcessUnique();
        oid.i0 = (time >>> 8) & 0xffffff;
        oid.i1 = ((time & 0xff) << 16) | (pu[0] << 8) | pu[1];
        oid.i2 = (pu[2] << 16) | (pu[3] << 8) | pu[4];
        oid.i3 = nextCounter();
    } else if (ArrayBuffer.isView(working) && working.byteLength === 12) {
        setFields(oid, viewBytes(working), 0);
    } else if (typeof working === 'string') {
        if (!isHex24(working)) {
            throw new BSONError('input must be a 24 character hex string, 12 byte Uint8Array, or an integer');
        }
        const s = working;
        oid.i0 = hexField(s, 0);
        oid.i1 = hexField(s, 6);
        oid.i2 = hexField(s, 12);
        oid.i3 = hexField(s, 18);
        if (ObjectId.cacheHexString) hexCache.set(oid, s.toLowerCase());
    } else {
        throw new BSONError('Argument passed in does not match the accepted types');
    }
}

class ObjectId extends BSONValue {
    constructor(input, source, offset) {
        super();
        if (input === FROM_BYTES) setFields(this, source, offset);
        else setFromInput(this, input);
    }

    get _bsontype() {
        return 'ObjectId';
    }

    // Decoder fast path: the 12 bytes at buf[offset..offset+12), copied without
    // validation (the caller checks bounds).
    static fromBytes(buf, offset) {
        return new ObjectId(FROM_BYTES, buf, offset);
    }

    // Encoder fast path: writes the 12 bytes at buf[offset] and returns offset + 12.
    writeTo(buf, offset) {
        const a = this.i0;
        const b = this.i1;
        const c = this.i2;
        const d = this.i3;
        buf[offset] = a >>> 16;
        buf[offset + 1] = a >>> 8;
        buf[offset + 2] = a;
        buf[offset + 3] = b >>> 16;
        buf[offset + 4] = b >>> 8;
        buf[offset + 5] = b;
        buf[offset + 6] = c >>> 16;
        buf[offset + 7] = c >>> 8;
        buf[offset + 8] = c;
        buf[offset + 9] = d >>> 16;
        buf[offset + 10] = d >>> 8;
        buf[offset + 11] = d;
        return offset + 12;
    }

    // What bson@7's serializer calls when handed a qbson ObjectId: returns the byte count.
    serializeInto(buf, offset) {
        this.writeTo(buf, offset);
        return 12;
    }

    // Fresh 12 bytes on every read (a Buffer on Node), as in bson@7.
    get id() {
        const out = allocUnsafe(12);
        this.writeTo(out, 0);
        return out;
    }

    set id(value) {
        if (!ArrayBuffer.isView(value) || value.byteLength !== 12) {
            throw new BSONError('ObjectId id must be a 12 byte Uint8Array');
        }
        setFields(this, viewBytes(value), 0);
        hexCache.delete(this);
    }

    toHexString() {
        const cache = ObjectId.cacheHexString;
        if (cache) {
            const cached = hexCache.get(this);
            if (cached !== undefined) return cached;
        }
        const hex = hexOfFields(this.i0, this.i1, this.i2, this.i3);
        if (cache) hexCache.set(this, hex);
        return hex;
    }

    toString(encoding) {
        if (encoding === 'base64') return toBase64(this.id, 0, 12);
        return this.toHexString();
    }

    toJSON() {
        return this.toHexString();
    }

    equals(other) {
        if (other === undefined || other === null) return false;
        if (typeof other === 'string') return other.toLowerCase() === this.toHexString();
        if (typeof other !== 'object') return false;
        if (hasPackedFields(other)) {
            return this.i3 === other.i3 && this.i0 === other.i0 && this.i1 === other.i1 && this.i2 === other.i2;
        }
        if (typeof other.toHexString === 'function') {
            const hex = other.toHexString();
            return typeof hex === 'string' && hex.toLowerCase() === this.toHexString();
        }
        return false;
    }

    getTimestamp() {
        const seconds = this.i0 * 0x100 + (this.i1 >>> 16);
        return new Date(seconds * 1000);
    }

    // 12 id bytes: 4-byte big-endian seconds (now unless given), the 5-byte
    // per-process random value, then the 3-byte counter.
    static generate(time) {
        if (typeof time !== 'number') time = Math.floor(Date.now() / 1000);
        const out = writeSeconds(allocUnsafe(12), time);
        const pu = getProcessUnique();
        out[4] = pu[0];
        out[5] = pu[1];
        out[6] = pu[2];
        out[7] = pu[3];
        out[8] = pu[4];
        const inc = nextCounter();
        out[9] = inc >>> 16;
        out[10] = inc >>> 8;
        out[11] = inc;
        return out;
    }

    static createPk() {
        return new ObjectId();
    }

    // An id whose first 4 bytes are `time` (seconds) and the rest zero: a bound for range queries.
    static createFromTime(time) {
        return new ObjectId(writeSeconds(alloc(12), time));
    }

    static createFromHexString(hexString) {
        if (typeof hexString !== 'string' || hexString.length !== 24) {
            throw new BSONError('hex string must be 24 characters');
        }
        if (!isHex24(hexString)) {
            throw new BSONError(`hex string must contain only hexadecimal digits, got ${JSON.stringify(hexString)}`);
        }
        return new ObjectId(hexString);
    }

    static createFromBase64(base64) {
        if (typeof base64 !== 'string' || base64.length !== 16) {
            throw new BSONError('base64 string must be 16 characters');
        }
        const bytes = fromBase64(base64);
        if (bytes.length !== 12) {
            throw new BSONError(`base64 string must encode 12 bytes, got ${JSON.stringify(base64)}`);
        }
        return new ObjectId(bytes);
    }

    static isValid(id) {
        if (id == null) return false;
        if (typeof id === 'string') return isHex24(id);
        try {
            new ObjectId(id);
            return true;
        } catch {
            return false;
        }
    }

    // bson's Extended JSON hooks
    toExtendedJSON() {
        return { $oid: this.toHexString() };
    }

    static fromExtendedJSON(doc) {
        return new ObjectId(doc.$oid);
    }

    inspect(depth, options, inspect) {
        inspect = inspect || defaultInspect;
        return `new ObjectId(${inspect(this.toHexString(), options)})`;
    }
}

// When true, each id keeps its hex string once computed; an id made from a hex string
// keeps that string (lower-cased) from the start.
ObjectId.cacheHexString = undefined;

module.exports = { ObjectId, objectIdHexAt };
