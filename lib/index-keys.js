'use strict';

// An array's index keys ("10", "11", ...) as bytes, for the encoder and jsonToBSON.

// Array keys from 10 to 10^8 are written in whole words from a table of every 4-digit
// group ('0000' to '9999' as the little-endian words of their ASCII bytes):
// double_array (25,000 elements) encodes in 350-440 us instead of 420-580 us
// with each digit divided out. A group of fewer digits is the word shifted
// right, so the zeros shifted in end it as a NUL; the writes can reach 3 bytes past
// the key, into the room the header reserves for longer keys. The table is made
// with the first such key: making it takes about 1.5 ms before the code is compiled,
// a tenth of what require('qbson') took.
let digitGroups = null;
const MAX_TABLE_INDEX = 100000000;

// the table, made the first time it is asked for
function digitGroupTable() {
    if (digitGroups === null) digitGroups = makeDigitGroups();
    return digitGroups;
}

function makeDigitGroups() {
    const table = new Uint32Array(10000);
    for (let i = 0; i < 10000; i++) {
        table[i] = (0x30 + ((i / 1000) | 0)) | ((0x30 + (((i / 100) | 0) % 10)) << 8) | ((0x30 + (((i / 10) | 0) % 10)) << 16) | ((0x30 + (i % 10)) << 24);
    }
    return table;
}

// An index of 10 or more. Below 10^4 it is one word from the table, kept small
// enough for the compiler to inline into the encoder's array loops: geojson_track's
// 10,000 positions encode in 8-12% fewer instructions.
function writeLongIndexKey(buf, view, pos, index) {
    if (index < 10000 && digitGroups !== null) {
        const digits = index < 100 ? 2 : index < 1000 ? 3 : 4;
        view.setUint32(pos, digitGroups[index] >>> (32 - 8 * digits), true);
        buf[pos + digits] = 0;
        return pos + digits + 1;
    }
    return writeLargeIndexKey(buf, view, pos, index);
}

// an index of 10 or more, with the table made if it is not yet
function writeLargeIndexKey(buf, view, pos, index) {
    if (index >= MAX_TABLE_INDEX) return writeIndexKey(buf, pos, index);
    const groups = digitGroupTable();
    if (index < 10000) return writeLongIndexKey(buf, view, pos, index);
    const high = (index / 10000) | 0;
    pos = writeDigitPrefix(view, pos, high);
    view.setUint32(pos, groups[index - high * 10000], true);
    buf[pos + 4] = 0;
    return pos + 5;
}

// n (below 10^4) without leading zeros or a NUL
function writeDigitPrefix(view, pos, n) {
    const digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4;
    view.setUint32(pos, digitGroups[n] >>> (32 - 8 * digits), true);
    return pos + digits;
}

// An index of 10^8 or more (9 or 10 digits), a digit at a time.
function writeIndexKey(buf, pos, index) {
    const digits = index < 1000000000 ? 9 : 10;
    for (let i = pos + digits - 1; i >= pos; i--) {
        const rest = (index / 10) | 0;
        buf[i] = 0x30 + index - rest * 10;
        index = rest;
    }
    buf[pos + digits] = 0;
    return pos + digits + 1;
}

module.exports = { writeLongIndexKey, digitGroupTable };
