'use strict';

// Long string values, written in batches. A native utf8Write call costs
// about 150 ns whatever the string (measured with 80-character strings), so the
// encoder reserves each long string's room as if it were ASCII (one byte per
// character), notes where it goes, and writes the batch's strings joined in one
// call when the encode ends, then copies each to its place. flat_bson, with 48
// strings of 80 characters, encodes 1.10-1.19x faster (same-process A/B).
//
// If a string turns out not to be ASCII, its room is too small: the bytes after
// it are moved up, its length prefix is rewritten, and the length of every
// document around it is taken again by walking the encoded bytes. A full batch
// is written early when it is all ASCII; otherwise it waits for the end, and the
// strings after it are written at once.

const C = require('./constants');
const { SHORT_ENCODE_LENGTH } = require('./utf8');
const { dataViewOf } = require('./bytes');
const { allocUnsafeSlow, utf8ByteLength, utf8Write } = require('./platform');

// Shorter strings are written by utf8.js's JavaScript loop at once; longer ones
// by their own native call, where the call costs little next to the copy.
const MIN_LENGTH = SHORT_ENCODE_LENGTH + 1;
const MAX_LENGTH = 2048;
const MAX_STRINGS = 256;
// characters in a batch; their UTF-8 takes at most 3 bytes each (a lone
// surrogate, U+FFFD), so a batch always fits the scratch buffer
const MAX_CHARS = 16 * 1024;
const SCRATCH_SIZE = 3 * MAX_CHARS;
// Long strings written at once, unbatched, after a batch turned out not ASCII:
// text that is mostly not ASCII would otherwise be written twice. The pause
// doubles each time batching fails again, up to the most, and is back to the
// least after a batch that was all ASCII (the large data set, 98% of its long
// strings not ASCII, otherwise encodes in 13% more instructions).
const REST_AFTER_NON_ASCII = 4096;
const MAX_REST_AFTER_NON_ASCII = 1 << 22;
// A new encoder writes its first long strings directly: a process that encodes a few
// documents does not compile the batch's code (a tweet's first encode in a fresh
// process took 1.29 ms against 1.67 batching from the first string, medians of 11).
// 4,096 put api_statuses 3% more instructions behind in its pauses (above) in the
// instruction counts' window; 512, 1.4%.
const REST_AT_START = 512;

// one scratch buffer for every batch: a batch is written without calling out
const scratch = allocUnsafeSlow(SCRATCH_SIZE);
const scratchView = dataViewOf(scratch);

class StringBatch {
    constructor() {
        // where each string's bytes go, and the string
        this.positions = new Int32Array(MAX_STRINGS);
        this.strings = new Array(MAX_STRINGS).fill('');
        this.count = 0;
        this.chars = 0;
        // a full batch that was not all ASCII, waiting for the end of the encode
        this.held = false;
        // long strings still to be written unbatched, and the pause after the next failure
        this.rest = REST_AT_START;
        this.nextRest = REST_AFTER_NON_ASCII;
    }

    // Whether str is to go in the batch (its room is then str.length bytes).
    takes(enc, str) {
        const len = str.length;
        if (len < MIN_LENGTH || len > MAX_LENGTH) return false;
        if (this.rest !== 0) {
            this.rest--;
            return false;
        }
        return (this.count < MAX_STRINGS && this.chars + len <= MAX_CHARS) || this.makeRoom(enc);
    }

    // A full batch is written now if it can be; false if it waits for the end.
    makeRoom(enc) {
        return !this.held && this.writeIfAscii(enc);
    }

    add(pos, str) {
        const i = this.count;
        this.positions[i] = pos;
        this.strings[i] = str;
        this.count = i + 1;
        this.chars += str.length;
    }

    // Batches from the next long string on, pause or not (for tests).
    resume() {
        this.rest = 0;
        this.nextRest = REST_AFTER_NON_ASCII;
    }

    // Forgets the batch (written, or after a failed encode).
    clear() {
        const strings = this.strings;
        for (let i = 0; i < this.count; i++) strings[i] = '';
        this.count = 0;
        this.chars = 0;
        this.held = false;
    }

    // Writes the batch into enc's buffer if every string in it is ASCII; returns
    // whether it did (if not, the batch is held for finish()).
    writeIfAscii(enc) {
        const n = this.count;
        const strings = this.strings;
        let joined = strings[0];
        for (let i = 1; i < n; i++) joined += strings[i];
        // a UTF-16 unit past ASCII takes 2 or more bytes
        if (utf8Write(scratch, joined, 0) !== this.chars) {
            this.held = true;
            return false;
        }
        this.nextRest = REST_AFTER_NON_ASCII;
        // Copied 8 bytes at a time through Float64: ASCII bytes never make a
        // NaN's bit pattern, the one a double load and store could change.
        const positions = this.positions;
        const view = enc.view;
        const buf = enc.buf;
        let from = 0;
        for (let i = 0; i < n; i++) {
            let to = positions[i];
            const stop = from + strings[i].length;
            for (; from + 8 <= stop; from += 8, to += 8) view.setFloat64(to, scratchView.getFloat64(from, true), true);
            for (; from < stop; from++, to++) buf[to] = scratch[from];
        }
        this.clear();
        return true;
    }

    // At the end of an encode, with the document at [start, end) in enc's buffer:
    // writes the batch; returns where the document ends now.
    finish(enc, start, end) {
        if (this.held || !this.writeIfAscii(enc)) {
            end = this.writeExpanded(enc, end);
            fixDocumentLength(enc.buf, enc.view, start);
            this.rest = this.nextRest;
            this.nextRest = Math.min(2 * this.nextRest, MAX_REST_AFTER_NON_ASCII);
            this.clear();
        }
        return end;
    }

    // Writes each string with its true length, from the last to the first: the
    // bytes after string i move up by what strings 0..i need beyond their room.
    writeExpanded(enc, end) {
        const n = this.count;
        const positions = this.positions;
        const strings = this.strings;
        const byteLengths = new Int32Array(n);
        let growth = 0;
        for (let i = 0; i < n; i++) {
            byteLengths[i] = utf8ByteLength(strings[i]);
            growth += byteLengths[i] - strings[i].length;
        }
        enc.ensure(end, growth);
        const buf = enc.buf;
        let shift = growth;
        let segmentEnd = end;
        for (let i = n - 1; i >= 0; i--) {
            const pos = positions[i];
            const str = strings[i];
            const roomEnd = pos + str.length;
            buf.copyWithin(roomEnd + shift, roomEnd, segmentEnd);
            const bytes = byteLengths[i];
            shift -= bytes - str.length;
            utf8Write(buf, str, pos + shift);
            // the length prefix (with the NUL) just before the string; the next
            // round moves it up with the bytes between string i-1 and string i
            enc.view.setInt32(pos - 4, bytes + 1, true);
            segmentEnd = pos;
        }
        return end + growth;
    }
}

// Rewrites the length of the document at pos, and of every document and code
// with scope inside it, from where their elements end; returns the pos after it.
// The bytes are the encoder's own, so nothing is checked.
function fixDocumentLength(buf, view, pos) {
    const start = pos;
    pos += 4;
    for (;;) {
        const type = buf[pos++];
        if (type === 0) break;
        pos = buf.indexOf(0, pos) + 1;
        const fixed = C.FIXED_VALUE_SIZE[type];
        if (fixed >= 0) {
            pos += fixed;
            continue;
        }
        switch (type) {
            case C.BSON_STRING:
            case C.BSON_CODE:
            case C.BSON_SYMBOL:
                pos += 4 + view.getInt32(pos, true);
                break;
            case C.BSON_DBPOINTER:
                pos += 4 + view.getInt32(pos, true) + 12;
                break;
            case C.BSON_DOCUMENT:
            case C.BSON_ARRAY:
                pos = fixDocumentLength(buf, view, pos);
                break;
            case C.BSON_BINARY:
                // int32 length, subtype, payload
                pos += 5 + view.getInt32(pos, true);
                break;
            case C.BSON_REGEXP:
                pos = buf.indexOf(0, buf.indexOf(0, pos) + 1) + 1;
                break;
            case C.BSON_CODE_W_SCOPE: {
                const total = pos;
                pos += 4;
                pos += 4 + view.getInt32(pos, true);
                pos = fixDocumentLength(buf, view, pos);
                view.setInt32(total, pos - total, true);
                break;
            }
            default:
                throw new Error(`unknown BSON type 0x${type.toString(16)} in the encoder's own output`);
        }
    }
    view.setInt32(start, pos - start, true);
    return pos;
}

module.exports = { StringBatch, MIN_LENGTH, MAX_LENGTH, MAX_STRINGS, MAX_CHARS, REST_AFTER_NON_ASCII };
