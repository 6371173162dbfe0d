'use strict';

// The decoder's key strings, cached for the life of the process and shared by
// every decode (lib/key-table.js is the encoder's counterpart).

const { readUtf8, asciiString, wellFormedUtf8, readUtf8Native, MAX_ASCII_CALL_LENGTH, COLD_STRINGS } = require('./utf8');
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

// The first COLD_STRINGS keys a process decodes are made by the native method and not
// cached, as the first strings are (lib/utf8.js says why).
let coldKeys = COLD_STRINGS;

// Decodes a key (buf[start, end), no NUL inside); undefined if invalid UTF-8 and
// validate. inSequence: the decoder reads the document's keys in sequence (below).
function readKey(buf, start, end, validate, inSequence) {
    if (inSequence === true) return readNextKey(buf, start, end, validate);
    if (coldKeys !== 0) {
        coldKeys--;
        return readUtf8Native(buf, start, end, validate);
    }
    const len = end - start;
    if (len > KEY_CACHE_MAX_LENGTH || len === 0) return readUtf8(buf, start, end, validate);
    const str = cachedKey(buf, start, end);
    return str !== undefined ? str : readUtf8Native(buf, start, end, validate);
}

// The key buf[start, end) from the cache, or made and cached; undefined for a key
// the cache does not keep (too long, empty, not well-formed UTF-8).
function cachedKey(buf, start, end) {
    const len = end - start;
    if (len > KEY_CACHE_MAX_LENGTH || len === 0) return undefined;
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
        return undefined;
    }
    keyCacheLengths[slot] = len;
    keyCacheStrings[slot] = str;
    return str;
}

// Past its first 128 fields (lib/decoder.js), a document's keys are read in
// sequence: the keys of the last such document are kept in the order they came,
// and each key is first compared with the one at its place there. Documents of
// one shape find their keys where the last one had them, one slot after the
// other, where the cache's slots are read at random: each key of a 10,000-field
// document was a cache miss there, and 46% of them had lost their slot to
// another key and were made again (wide_10k_fields decodes in 0.46 of the time).
// Narrower documents do not use the sequence: from 17 fields up, documents of
// shapes that change from one to the next took 5-11% more instructions with it
// (30 fields), and api_statuses 6%. A slot is a key's length and then its bytes;
// keys of 16 bytes or more take no slot.
// Documents of one shape differ a little: a key up to SLOTS_AHEAD slots on (fields
// left out) is taken as the next, and a key in none of them (a field added) leaves
// the next key to be compared with the same slot. (Looking one slot on, 200-field
// documents whose last 72 fields are each there 80% of the time fell off the
// sequence at two fields left out in a row: 4 slots take 7% fewer instructions.)
// After MAX_KEYS_ADDED such keys in a row the document stops comparing (it is off
// the sequence) and takes its keys from the cache. Its keys are not written in the slots, so that documents of two
// shapes in turn keep one of them there. Only the second document in a row to
// be off the sequence, and every 8th after, rewrites the slots with its keys as
// they come; keys past the last slot are always added.
const SEQUENCE_SLOTS = 65536;
const SEQUENCE_SLOT_SIZE = 16;
const MAX_KEYS_ADDED = 4;
const SLOTS_AHEAD = 4;
const REWRITE_EVERY = 8;
const sequenceSlots = new Uint8Array(SEQUENCE_SLOTS * SEQUENCE_SLOT_SIZE);
// grown as the widest document needs; sequenceStrings[k] is the key in slot k
const sequenceStrings = [];
// nextSlot once a document is off the sequence or past its last slot: no slot is compared
const NO_SLOT = SEQUENCE_SLOTS + 1;
// the document read in sequence: the slot of its next key, whether it rewrites
// the slots, and whether it was off the sequence or rewrote a slot
let nextSlot = NO_SLOT;
let rewriting = false;
let offTheSequence = false;
// the slot keys were added at and how many in a row
let addedAt = -1;
let keysAdded = 0;
// how many documents in a row were off the sequence or rewrote a slot
let documentsOff = 0;
// whether a document is being read in sequence
let sequenceOpen = false;

// A document's keys are read in sequence from here on. The outermost such document
// starts at the first slot and returns true; one inside it goes on from its
// parent's place, so that the keys of both stay in one sequence.
function openKeySequence() {
    if (sequenceOpen) return false;
    sequenceOpen = true;
    documentsOff = offTheSequence ? documentsOff + 1 : 0;
    rewriting = documentsOff % REWRITE_EVERY === 1;
    offTheSequence = false;
    nextSlot = 0;
    addedAt = -1;
    return true;
}

// The document that opened the sequence ended (or a decode failed inside it).
function closeKeySequence() {
    sequenceOpen = false;
}

// The next key of a document read in sequence: readKey's result, from the slot
// where the last such document had it if it is there.
function readNextKey(buf, start, end, validate) {
    const slot = nextSlot;
    const len = end - start;
    // its own loop, not sameBytes: through sameBytes wide_10k_fields took 4.7% more instructions
    if (slot < sequenceStrings.length && sequenceSlots[slot * SEQUENCE_SLOT_SIZE] === len) {
        const from = start - slot * SEQUENCE_SLOT_SIZE - 1;
        let i = slot * SEQUENCE_SLOT_SIZE + 1;
        const last = slot * SEQUENCE_SLOT_SIZE + len;
        while (i <= last && sequenceSlots[i] === buf[from + i]) i++;
        if (i > last) {
            nextSlot = slot + 1;
            return sequenceStrings[slot];
        }
    }
    return readKeyOffSlot(buf, start, end, validate, slot);
}

// A key not in the slot it was looked for in (see above).
function readKeyOffSlot(buf, start, end, validate, slot) {
    const len = end - start;
    if (slot === NO_SLOT || len >= SEQUENCE_SLOT_SIZE) return readKey(buf, start, end, validate);
    const ahead = Math.min(slot + 1 + SLOTS_AHEAD, sequenceStrings.length);
    for (let next = slot + 1; next < ahead; next++) {
        if (sameBytes(buf, start, len, next * SEQUENCE_SLOT_SIZE)) {
            nextSlot = next + 1;
            return sequenceStrings[next];
        }
    }
    const str = cachedKey(buf, start, end);
    // not well-formed: in no slot
    if (str === undefined) return readUtf8(buf, start, end, validate);
    if (slot === sequenceStrings.length || rewriting) {
        if (slot === SEQUENCE_SLOTS) {
            nextSlot = NO_SLOT;
            return str;
        }
        if (slot === sequenceStrings.length) sequenceStrings.push('');
        else offTheSequence = true;
        writeSlot(buf, start, len, slot, str);
        nextSlot = slot + 1;
    } else {
        if (addedAt !== slot) {
            addedAt = slot;
            keysAdded = 0;
        }
        if (++keysAdded > MAX_KEYS_ADDED) {
            offTheSequence = true;
            nextSlot = NO_SLOT;
        }
    }
    return str;
}

function writeSlot(buf, start, len, slot, str) {
    const at = slot * SEQUENCE_SLOT_SIZE;
    sequenceSlots[at] = len;
    for (let i = 0; i < len; i++) sequenceSlots[at + 1 + i] = buf[start + i];
    sequenceStrings[slot] = str;
}

// whether the sequence slot at `at` holds the len bytes at buf[start]
function sameBytes(buf, start, len, at) {
    if (sequenceSlots[at] !== len) return false;
    for (let i = 0; i < len; i++) {
        if (sequenceSlots[at + 1 + i] !== buf[start + i]) return false;
    }
    return true;
}

module.exports = { readKey, openKeySequence, closeKeySequence };
