'use strict';

// Fixed-size little-endian values. Every reader is (buf, pos) -> value and every
// writer is (buf, pos, value) -> next pos. Callers check bounds first: these
// helpers never do, so they stay small enough to inline.

const { allocUnsafe, view } = require('./platform');

const TWO_POW_32 = 4294967296;

function readInt32LE(buf, pos) {
    return buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24);
}

function readUint32LE(buf, pos) {
    return readInt32LE(buf, pos) >>> 0;
}

function writeInt32LE(buf, pos, value) {
    buf[pos] = value;
    buf[pos + 1] = value >>> 8;
    buf[pos + 2] = value >>> 16;
    buf[pos + 3] = value >>> 24;
    return pos + 4;
}

// The encoder writes through a DataView over its output, which V8 compiles to a
// single store: full_bson and batch1000 encode in 3% fewer instructions than with
// writeInt32LE's four byte stores.
function writeInt32ViewLE(view, pos, value) {
    view.setInt32(pos, value, true);
    return pos + 4;
}

// whether this machine keeps numbers big-endian (a Uint32Array's bytes are in its order)
const BIG_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 0;

// Doubles are read by copying their 8 bytes under a Float64Array: 25 ns per read
// against 29 ns for Buffer.readDoubleLE. (The ieee-float package reads them the
// same way, but loading it took 1.8 of require('qbson')'s 7.4 ms.)
const doubleWindow = new Float64Array(1);
const doubleWindowBytes = new Uint8Array(doubleWindow.buffer);

function readDoubleLE(buf, pos) {
    if (BIG_ENDIAN_HOST) return readDoubleSwapped(buf, pos);
    doubleWindowBytes[0] = buf[pos];
    doubleWindowBytes[1] = buf[pos + 1];
    doubleWindowBytes[2] = buf[pos + 2];
    doubleWindowBytes[3] = buf[pos + 3];
    doubleWindowBytes[4] = buf[pos + 4];
    doubleWindowBytes[5] = buf[pos + 5];
    doubleWindowBytes[6] = buf[pos + 6];
    doubleWindowBytes[7] = buf[pos + 7];
    return doubleWindow[0];
}

function readDoubleSwapped(buf, pos) {
    for (let i = 0; i < 8; i++) doubleWindowBytes[7 - i] = buf[pos + i];
    return doubleWindow[0];
}

// A double through a DataView over the input when the caller has one: V8 compiles
// getFloat64 to a single load, 1.3 ns per double in a loop against 8.1 ns through
// the window. Making the view costs ~70 ns, so only inputs that repay it get one.
function readDoubleFrom(buf, view, pos) {
    return view === null ? readDoubleLE(buf, pos) : view.getFloat64(pos, true);
}

// A DataView over exactly buf's bytes, for word-sized reads and writes.
function dataViewOf(buf) {
    return new DataView(buf.buffer, buf.byteOffset, buf.length);
}

// For bson's NumberUtils; the encoder writes through its DataView (below).
function writeDoubleLE(buf, pos, value) {
    doubleWindow[0] = value;
    for (let i = 0; i < 8; i++) buf[pos + i] = doubleWindowBytes[BIG_ENDIAN_HOST ? 7 - i : i];
    return pos + 8;
}

// The encoder writes doubles through a DataView over its output, which V8
// compiles to a single store: {a: 1234.5} encodes in 1,201 instructions against
// 1,439 through a Float64Array window.
function writeDoubleViewLE(view, pos, value) {
    view.setFloat64(pos, value, true);
    return pos + 8;
}

// An int64 as a JS number: exact within +-2^53, rounded beyond (as bson does).
function readInt64AsNumberLE(buf, pos) {
    return readInt32LE(buf, pos + 4) * TWO_POW_32 + readUint32LE(buf, pos);
}

// An integral number (a Date's milliseconds) as int64; NaN becomes 0 as in bson.
function writeInt64FromNumberLE(buf, pos, value) {
    if (value !== value) value = 0;
    writeInt32LE(buf, pos, value % TWO_POW_32);
    return writeInt32LE(buf, pos + 4, Math.floor(value / TWO_POW_32));
}

function readBigInt64LE(buf, pos) {
    return (BigInt(readInt32LE(buf, pos + 4)) << 32n) + BigInt(readUint32LE(buf, pos));
}

// Any bigint, wrapped to 64 bits two's complement as bson does.
function writeBigInt64LE(buf, pos, value) {
    const wrapped = BigInt.asUintN(64, value);
    writeInt32LE(buf, pos, Number(wrapped & 0xffffffffn));
    return writeInt32LE(buf, pos + 4, Number(wrapped >> 32n));
}

// 16 bytes, the size of a UUID, copied in straight-line code: 10 ns against 19 ns
// for the byte loop, as V8 then checks the bounds once.
const UUID_LENGTH = 16;
function copy16(from, f, to, t) {
    to[t] = from[f];
    to[t + 1] = from[f + 1];
    to[t + 2] = from[f + 2];
    to[t + 3] = from[f + 3];
    to[t + 4] = from[f + 4];
    to[t + 5] = from[f + 5];
    to[t + 6] = from[f + 6];
    to[t + 7] = from[f + 7];
    to[t + 8] = from[f + 8];
    to[t + 9] = from[f + 9];
    to[t + 10] = from[f + 10];
    to[t + 11] = from[f + 11];
    to[t + 12] = from[f + 12];
    to[t + 13] = from[f + 13];
    to[t + 14] = from[f + 14];
    to[t + 15] = from[f + 15];
}

function copyBytes(from, fromStart, fromEnd, to, toPos) {
    const n = fromEnd - fromStart;
    if (n === UUID_LENGTH) {
        copy16(from, fromStart, to, toPos);
    } else if (n <= 64) {
        // a byte loop beats TypedArray.set below ~64 bytes (set calls into C++)
        for (let i = 0; i < n; i++) to[toPos + i] = from[fromStart + i];
    } else {
        // a plain Uint8Array view costs less to make than a Buffer's subarray
        to.set(fromStart === 0 && fromEnd === from.length ? from : new Uint8Array(from.buffer, from.byteOffset + fromStart, n), toPos);
    }
    return toPos + n;
}

// New bytes (a Buffer on Node) holding buf[start, end): decoded Binary and Decimal128 values.
function copyToNewBuffer(buf, start, end) {
    const bytes = allocUnsafe(end - start);
    copyBytes(buf, start, end, bytes, 0);
    return bytes;
}

// Binary values of this many bytes or more are decoded as views of the input,
// sharing its memory as bson's are: from 4 KiB on, a copy needs memory of its own
// (2.5 µs at 4 KiB, 19 µs at 256 KiB, against 80 ns for a view), where smaller
// ones are copied from a pool (0.1-0.8 µs) and never share the input.
const SHARED_BYTES_MIN = 4096;

// A decoded binary value's bytes: buf[start, end) copied, or a view of it from SHARED_BYTES_MIN on.
function valueBytes(buf, start, end) {
    return end - start < SHARED_BYTES_MIN ? copyToNewBuffer(buf, start, end) : view(buf.buffer, buf.byteOffset + start, end - start);
}

module.exports = {
    BIG_ENDIAN_HOST,
    readInt32LE,
    readUint32LE,
    writeInt32LE,
    readDoubleLE,
    readDoubleFrom,
    dataViewOf,
    writeDoubleLE,
    writeInt32ViewLE,
    writeDoubleViewLE,
    readInt64AsNumberLE,
    writeInt64FromNumberLE,
    readBigInt64LE,
    writeBigInt64LE,
    copyBytes,
    copyToNewBuffer,
    valueBytes,
    SHARED_BYTES_MIN,
    TWO_POW_32,
};
