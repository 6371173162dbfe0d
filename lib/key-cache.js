'use strict';

// The decoder's key strings, cached for the life of the process and shared by
// every decode (lib/key-table.js is the encoder's counterpart).

const { readUtf8, asciiString, wellFormedUtf8, readUtf8Native, MAX_ASCII_CALL_LENGTH } = require('./utf8');
const { latin1Slice } = require('./platform');

// Keys repeat across documents, so short keys are looked up in a cache
// instead of being rebuilt: comparing a few bytes is cheaper than making a
// string. Slots are overwritten freely; a hit is always checked byte for byte.
// Only well-formed keys are kept, so a hit needs no validation whatever the call's.
// The slot comes from the length and the first, middle, last and next-to-last
// bytes: without the next-to-last, numbered keys (flag0 to flag39) shared a few
// slots and missed every time (40 such fields decoded at 1.38x bson, now 2.33x);
// keys up to 64 bytes fit (30 keys of 45 bytes: 1.12x, now 1.95x).
// 16,384 slots keep most keys of a 10,000-field document, which overwrote each
// other in 4,096 (wide_10k_fields decodes in 21% fewer instructions, wide_1k_fields
// 7%). Their bytes take 1 MiB (256 KiB with 4,096).
const KEY_CACHE_SLOTS = 16384;
const KEY_CACHE_MAX_LENGTH = 64;
const keyCacheBytes = new Uint8Array(KEY_CACHE_SLOTS * KEY_CACHE_MAX_LENGTH);
const keyCacheLengths = new Uint8Array(KEY_CACHE_SLOTS);
const keyCacheStrings = new Array(KEY_CACHE_SLOTS).fill('');

// Decodes a key (buf[start, end), no NUL inside); undefined if invalid UTF-8 and validate.
function readKey(buf, start, end, validate) {
    const len = end - start;
    if (len > KEY_CACHE_MAX_LENGTH || len === 0) return readUtf8(buf, start, end, validate);
    const slot = (len * 31 + buf[start] * 7 + buf[end - 1] * 131 + buf[len > 1 ? end - 2 : start] * 1031 + buf[start + (len >> 1)] * 17) & (KEY_CACHE_SLOTS - 1);
    const base = slot * KEY_CACHE_MAX_LENGTH;
    if (keyCacheLengths[slot] === len) {
        let i = 0;
        while (i < len && keyCacheBytes[base + i] === buf[start + i]) i++;
        if (i === len) return keyCacheStrings[slot];
    }
    let bits = 0;
    for (let i = 0; i < len; i++) bits |= keyCacheBytes[base + i] = buf[start + i];
    const str = bits < 0x80 ? (len <= MAX_ASCII_CALL_LENGTH ? asciiString(buf, start, len) : latin1Slice(buf, start, end)) : wellFormedUtf8(buf, start, end);
    if (str === undefined) {
        // the slot's bytes are half rewritten: it holds nothing now
        keyCacheLengths[slot] = 0;
        return readUtf8Native(buf, start, end, validate);
    }
    keyCacheLengths[slot] = len;
    keyCacheStrings[slot] = str;
    return str;
}

module.exports = { readKey };
