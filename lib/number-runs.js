'use strict';

// Arrays of numbers (vectors, series, coordinates), written key and value together.

const C = require('./constants');
const { digitGroupTable } = require('./index-keys');

// A number is an int32 when an integer in range and not -0, as in bson@7; else a double.
function storesAsInt32(value) {
    return (value | 0) === value && (value !== 0 || 1 / value > 0);
}

// Long runs of numbers (vectors, series) are written a range of keys at a time;
// a [lon, lat] pair costs more that way than element by element.
const MIN_NUMBER_RUN = 16;
// the most bytes a number in an array takes: type, a key of up to 10 digits and its NUL, 8 bytes
const MAX_INDEXED_NUMBER_SIZE = 20;
// the same in a short array, whose keys have at most 2 digits
const MAX_SHORT_NUMBER_SIZE = 12;
// elements whose room is made at once
const NUMBER_CHUNK = 1024;
// keys below 10^6 are a 0-2 digit prefix and a group of 4 (fewer below 10^4)
const GROUP = 10000;
const MAX_GROUPED_INDEX = 1000000;

// The numbers an array starts with (at least MIN_NUMBER_RUN elements, up to index
// 10^6), a range of keys of one shape at a time. Returns the pos after them; how
// many there were is left in enc.numbersWritten, for the encoder to go on from.
function writeLeadingNumbers(enc, pos, arr) {
    const groups = digitGroupTable();
    const length = Math.min(arr.length, MAX_GROUPED_INDEX);
    let i = 0;
    while (i < length) {
        const end = Math.min(length, i + NUMBER_CHUNK, keyRangeEnd(i));
        enc.ensure(pos, (end - i) * MAX_INDEXED_NUMBER_SIZE);
        pos = writeNumberRange(enc.view, groups, pos, arr, i, end, enc);
        if (enc.numbersWritten < end) return pos;
        i = end;
    }
    return pos;
}

// where the keys from index i on stop having the same length and prefix
function keyRangeEnd(i) {
    if (i < 10) return 10;
    if (i < 100) return 100;
    if (i < 1000) return 1000;
    return i - (i % GROUP) + GROUP;
}

// Numbers from index `from` to `to`, whose keys have the same length and prefix.
// Type byte, key and NUL are two word stores: the prefix (index / 10^4, when there
// is one) and the digit group of the rest come from the table, placed by shifts
// fixed for the range; the zeros the second word writes past the NUL are
// overwritten by the value. double_array encodes in 21% fewer instructions and
// int32_array in 32% than with each key's digits counted and grouped on its own.
function writeNumberRange(view, groups, pos, arr, from, to, enc) {
    let offset = 0; // subtracted from the index for its digit group
    let shift = 0; // drops the digit group's leading zeros
    let head = 0; // the prefix, placed after the type byte
    let up = 8; // where the digit group starts in the first word
    let keyLength;
    if (from < GROUP) {
        keyLength = from < 10 ? 1 : from < 100 ? 2 : from < 1000 ? 3 : 4;
        shift = 32 - 8 * keyLength;
    } else {
        const high = (from / GROUP) | 0;
        const prefixLength = high < 10 ? 1 : 2;
        offset = high * GROUP;
        head = (groups[high] >>> (32 - 8 * prefixLength)) << 8;
        keyLength = prefixLength + 4;
        up = 8 + 8 * prefixLength;
    }
    const down = 32 - up;
    let i = from;
    for (; i < to; i++) {
        const value = arr[i];
        if (typeof value !== 'number') break;
        const isInt32 = storesAsInt32(value);
        const digits = groups[i - offset] >>> shift;
        view.setUint32(pos, (isInt32 ? C.BSON_INT32 : C.BSON_DOUBLE) | head | (digits << up), true);
        view.setUint32(pos + 4, digits >>> down, true);
        pos = writeNumberValue(view, pos + 2 + keyLength, value, isInt32);
    }
    enc.numbersWritten = i;
    return pos;
}

// A short array (fewer than MIN_NUMBER_RUN elements) of numbers only, a GeoJSON
// position or a matrix row, as a whole document (length, elements, NUL) in one call
// instead of writeDocument's steps for any container. Each element's type byte, key
// and NUL are one word store, whose last byte the value overwrites: geojson_track
// encodes in 12-16% fewer instructions. Returns the pos after it, or -1, with nothing
// written, for any other array.
function writeShortNumberArray(enc, pos, arr, key) {
    const length = arr.length;
    if (length >= MIN_NUMBER_RUN) return -1;
    for (let i = 0; i < length; i++) {
        if (typeof arr[i] !== 'number') return -1;
    }
    enc.checkDepth(key);
    enc.ensure(pos, C.MIN_DOCUMENT_SIZE + length * MAX_SHORT_NUMBER_SIZE);
    const view = enc.view;
    let p = pos + 4;
    for (let i = 0; i < length; i++) {
        const value = arr[i];
        const isInt32 = storesAsInt32(value);
        const type = isInt32 ? C.BSON_INT32 : C.BSON_DOUBLE;
        if (i < 10) {
            view.setUint32(p, type | ((0x30 + i) << 8), true);
            p += 3;
        } else {
            // '1' and the second digit
            view.setUint32(p, type | 0x3100 | ((0x30 + i - 10) << 16), true);
            p += 4;
        }
        p = writeNumberValue(view, p, value, isInt32);
    }
    enc.buf[p] = 0;
    view.setInt32(pos, p + 1 - pos, true);
    return p + 1;
}

// The value, by a function of its own: with these DataView stores in the loop itself,
// or through lib/bytes.js's writers that every encoder path shares, V8 compiled the
// loop's stores as calls to its builtin once every data set had been encoded
// (double_array then took 550-910 us an encode against 290-380 us this way; alone,
// 2.85-2.88M instructions against 3.01M).
function writeNumberValue(view, pos, value, isInt32) {
    if (isInt32) {
        view.setInt32(pos, value, true);
        return pos + 4;
    }
    view.setFloat64(pos, value, true);
    return pos + 8;
}

module.exports = { storesAsInt32, writeLeadingNumbers, writeShortNumberArray, MIN_NUMBER_RUN };
