'use strict';

// The encoder's table of keys: shared by every encode and kept for the life of
// the process (a cache), while each encode's place in the sequence of its keys
// is its own, held by its Encoder.

const { writeCString } = require('./utf8');

// Keys repeat across documents, so encoding keeps their UTF-8 bytes (with the
// NUL) in a table, each padded to whole 32-bit words: a Map lookup and a few word
// writes instead of a charCodeAt and a byte store per character (flat_bson encodes
// 1.05-1.14x faster). When keys do not repeat the table is bypassed for a while: a
// stream of never-seen keys would otherwise write 2x slower.
const KEY_TABLE_ENTRIES = 4096;
const KEY_TABLE_WORDS = 8 * KEY_TABLE_ENTRIES;
// shorter and longer keys are written directly ({a: {a, b, c, d, e}} encodes 8%
// slower through the table)
const KEY_TABLE_MIN_LENGTH = 4;
const KEY_TABLE_MAX_BYTES = 64;
// key writes that bypass the table after it filled without its keys being reused
const KEY_TABLE_REST = 1 << 18;
const keyTableWords = new Int32Array(KEY_TABLE_WORDS);
const keyTableBytes = new Uint8Array(keyTableWords.buffer);
// key -> its number in the table (0, 1, ... in the order keys came in)
const keyTable = new Map();
// by number: the index of the key's first word * 128 + its byte length with the NUL
const keyEntries = new Int32Array(KEY_TABLE_ENTRIES);
let keyTableNextWord = 0;
// hits since the table was last emptied, counted up to its size
let keyTableHits = 0;
let keyTableRest = 0;
// Shut for a process's first encode (lib/encode.js opens it as the second begins,
// or as the first outgrows 64 kB): keys are looked up but none entered, so a
// short-lived process's first document neither runs nor compiles the entering (its
// first encode of flat_bson took 13% fewer instructions, tweet's 10%).
let keyTableOpen = false;

// Documents of one shape repeat their keys in one order, so each key that goes
// through the table is also remembered by its place in the sequence of keys since
// the encode began: when the same string comes at that place again, its entry is
// taken from there without the Map lookup, which took 8% of flat_bson's encode time.
// Past the first 1,024 places (an array of many records) each key is instead
// predicted by the one before it: every key in the table remembers the key that came
// after it last time. Both are needed: in a tree of a few keys (deep_bson) a key has
// many successors, and the sequence alone left an array of 3,000 records of 11
// keys to the lookup for 97% of its keys. What is remembered is shared by all
// encodes and every hit compares the key, so a place or a last key from another
// encode (or from before the table was emptied) costs a lookup, never a wrong byte.
const KEY_SEQUENCE_LENGTH = 1024;
const keySequenceKeys = new Array(KEY_SEQUENCE_LENGTH).fill('');
const keySequenceEntries = new Int32Array(KEY_SEQUENCE_LENGTH);
// a key's successor, by the key's number; the successor of START is the first key
// looked up in an encode (the sequence's keys do not move a cursor's keyLastNumber:
// its first key past the sequence takes the lookup)
const START = KEY_TABLE_ENTRIES;
// made with the table's first key rather than at require, where they took 50 us
// (until then there is nothing to predict: 1,024 keys too long for the table fill
// the sequence without entering it)
let nextKeys = null;
let nextNumbers = null;

// One encode's place in the key sequence, held by its Encoder in two fields of its
// own (keyAt, keyLastNumber: a load fewer per key than a cursor object of its
// own); a KeyCursor is such a place apart from an encoder. An encode re-entered
// from a toBSON has an Encoder of its own: it leaves the outer encode's place as it was.
class KeyCursor {
    constructor() {
        restartKeys(this);
    }
}

// Called as each encode begins (and by the holder's constructor, which so makes
// both fields): keyAt is the place in the sequence of the next key that goes
// through the table, keyLastNumber the number of the last key looked up or
// predicted (START: none yet).
function restartKeys(cursor) {
    cursor.keyAt = 0;
    cursor.keyLastNumber = START;
}

// Writes key and its NUL at pos through view (over buf's bytes), possibly writing
// up to 3 bytes past them; returns the next pos, or -1 if key holds a NUL.
// Kept small so the compiler inlines it into the encoder's loops. A key found by
// its place or its predecessor went through the table, so the table is not resting.
function writeKey(cursor, buf, view, pos, key) {
    if (key.length < KEY_TABLE_MIN_LENGTH) return writeCString(buf, pos, key);
    const at = cursor.keyAt;
    if (at < KEY_SEQUENCE_LENGTH) {
        if (keySequenceKeys[at] === key) {
            cursor.keyAt = at + 1;
            return writeKeyEntry(view, pos, keySequenceEntries[at]);
        }
    } else if (nextKeys !== null && nextKeys[cursor.keyLastNumber] === key) {
        return writeSuccessorKey(cursor, view, pos);
    }
    return writeKeyLookedUp(cursor, buf, view, pos, key);
}

// The key that came after the last one last time, come again.
function writeSuccessorKey(cursor, view, pos) {
    const number = nextNumbers[cursor.keyLastNumber];
    cursor.keyLastNumber = number;
    return writeKeyEntry(view, pos, keyEntries[number]);
}

// A key not at its place in the sequence: written directly, or through the table.
function writeKeyLookedUp(cursor, buf, view, pos, key) {
    if (keyTableRest !== 0) {
        keyTableRest--;
        return writeCString(buf, pos, key);
    }
    const at = cursor.keyAt;
    if (at < KEY_SEQUENCE_LENGTH) cursor.keyAt = at + 1;
    const number = keyTable.get(key);
    if (number === undefined) return writeNewKey(cursor, buf, pos, key, at);
    remember(cursor, at, key, number);
    return writeKeyEntry(view, pos, keyEntries[number]);
}

// Writes a table entry's words; the first three are unrolled, where a loop took
// 15 ns more per key.
function writeKeyEntry(view, pos, entry) {
    if (keyTableHits < KEY_TABLE_ENTRIES) keyTableHits++;
    const end = pos + (entry & 127);
    const word = entry >> 7;
    view.setInt32(pos, keyTableWords[word], true);
    view.setInt32(pos + 4, keyTableWords[word + 1], true);
    if (end > pos + 8) {
        view.setInt32(pos + 8, keyTableWords[word + 2], true);
        for (let p = pos + 12, w = word + 3; p < end; p += 4) view.setInt32(p, keyTableWords[w++], true);
    }
    return end;
}

// at: the key's place in the sequence
function writeNewKey(cursor, buf, pos, key, at) {
    const next = writeCString(buf, pos, key);
    const length = next - pos;
    if (next < 0 || length > KEY_TABLE_MAX_BYTES || !keyTableOpen) return next;
    const words = (length + 3) >> 2;
    if (keyTableNextWord + words > KEY_TABLE_WORDS || keyTable.size === KEY_TABLE_ENTRIES) {
        if (!emptyTable(cursor)) return next;
    }
    // the padding after the NUL is left as it is: the encoder overwrites what follows a key
    const first = keyTableNextWord;
    for (let i = 0; i < length; i++) keyTableBytes[first * 4 + i] = buf[pos + i];
    keyTableNextWord += words;
    if (nextKeys === null) makeSuccessors();
    const number = keyTable.size;
    keyEntries[number] = first * 128 + length;
    keyTable.set(key, number);
    remember(cursor, at, key, number);
    return next;
}

// Out of writeNewKey, which is inlined into the key writes: with these lines and
// keyTableOpen's test in it, binary_heavy and wide_1k_fields encoded in 5% more
// instructions.
function makeSuccessors() {
    nextKeys = new Array(KEY_TABLE_ENTRIES + 1).fill('');
    nextNumbers = new Int32Array(KEY_TABLE_ENTRIES + 1);
}

function openKeyTable() {
    keyTableOpen = true;
}

// for tests: how many keys the table holds
function keyTableSize() {
    return keyTable.size;
}

// Empties the full table; returns whether it is to take keys again now (its keys
// were reused), or rest.
function emptyTable(cursor) {
    const reused = keyTableHits >= keyTable.size;
    keyTable.clear();
    keySequenceKeys.fill('');
    if (nextKeys !== null) nextKeys.fill('');
    cursor.keyLastNumber = START;
    keyTableNextWord = 0;
    keyTableHits = 0;
    if (!reused) keyTableRest = KEY_TABLE_REST;
    return reused;
}

// Records key (numbered `number` in the table) at its place in the sequence (past
// the end, nothing) and as the cursor's last key's successor.
function remember(cursor, at, key, number) {
    if (at < KEY_SEQUENCE_LENGTH) {
        keySequenceKeys[at] = key;
        keySequenceEntries[at] = keyEntries[number];
    }
    const last = cursor.keyLastNumber;
    nextKeys[last] = key;
    nextNumbers[last] = number;
    cursor.keyLastNumber = number;
}

module.exports = { KeyCursor, restartKeys, writeKey, openKeyTable, keyTableSize };
