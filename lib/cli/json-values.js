'use strict';

// Cuts a byte stream of JSON text into top-level objects without parsing them:
// either objects one after another (one a line, or spread over lines as a pretty
// printer writes them), or, in array mode, the elements of one JSON array. It
// works on bytes, so offsets are byte offsets; UTF-8 never puts an ASCII byte
// inside a multi-byte character, so the structural characters are found as bytes.
// An object split across chunks is gathered in pieces and joined once.

const { Buffer } = require('buffer');

const { QUOTE, BACKSLASH, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, COMMA, NEWLINE, isJsonSpace } = require('../json-text-reading');
const BOM = [0xef, 0xbb, 0xbf];

// array mode: where we are around the elements
const BEFORE_ARRAY = 0;
const FIRST_ELEMENT = 1; // after '[': an element or ']'
const AFTER_ELEMENT = 2; // a ',' or ']'
const NEXT_ELEMENT = 3; // after ',': an element
const AFTER_ARRAY = 4;

class JSONSyntaxError extends Error {
    constructor(message, offset, line) {
        super(`${message} at offset ${offset} (line ${line})`);
        this.offset = offset;
        this.line = line;
    }
}

// whether the bytes just before end, back to start, are an odd number of backslashes
function oddBackslashesBefore(buf, end, start) {
    let k = end - 1;
    while (k >= start && buf[k] === BACKSLASH) k--;
    return ((end - 1 - k) & 1) === 1;
}

function describeByte(b) {
    return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

class JSONObjectSplitter {
    constructor(opts) {
        this.arrayMode = Boolean(opts && opts.array);
        this.maxObjectSize = (opts && opts.maxObjectSize) || Infinity;
        this.arrayState = BEFORE_ARRAY;
        this.offset = 0; // absolute offset of the next chunk
        this.inBOM = true;
        this.line = 1;
        this.depth = 0;
        this.inString = false;
        this.escaped = false;
        // where the object being read starts in the current chunk (-1: before it)
        this.from = -1;
        // the object being gathered
        this.start = 0;
        this.startLine = 0;
        this.pieces = [];
        this.piecesSize = 0;
    }

    fail(message, offset, line) {
        return new JSONSyntaxError(message, offset, line);
    }

    // Appends to out, for each object completed in chunk: its bytes, its offset
    // and its line (out.push(bytes, offset, line)).
    push(chunk, out) {
        const base = this.offset;
        let i = this.skipBOM(chunk, base);
        this.offset += chunk.length;
        // where the current object starts in this chunk, when it does
        this.from = this.depth > 0 ? 0 : -1;
        while (i < chunk.length) i = this.depth > 0 ? this.scanObject(chunk, i, base, out) : this.scanBetween(chunk, i, base);
        if (this.depth > 0) this.keepPiece(chunk.subarray(this.from, chunk.length));
    }

    // The offset in chunk after a byte order mark at the very start, however the chunks cut it.
    skipBOM(chunk, base) {
        let i = 0;
        while (this.inBOM && i < chunk.length) {
            if (chunk[i] !== BOM[base + i]) this.inBOM = false;
            else if (base + ++i === BOM.length) this.inBOM = false;
        }
        return i;
    }

    // Reads chunk from i inside an object, up to its end (then passed to out) or
    // the chunk's; returns where it stopped.
    scanObject(chunk, i, base, out) {
        const len = chunk.length;
        let depth = this.depth;
        let line = this.line;
        while (i < len && depth > 0) {
            if (this.inString) {
                i = this.skipString(chunk, i);
                continue;
            }
            const b = chunk[i++];
            if (b === QUOTE) this.inString = true;
            else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
            else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
            else if (b === NEWLINE) line++;
        }
        this.depth = depth;
        this.line = line;
        if (depth === 0) this.complete(chunk.subarray(this.from, i), out);
        return i;
    }

    // Jumps to the next quote in chunk from i: it ends the string unless an odd
    // run of backslashes escapes it. Returns the offset after it, or the chunk's length.
    skipString(chunk, i) {
        if (this.escaped) {
            this.escaped = false;
            return i + 1;
        }
        const quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) {
            // the string goes on into the next chunk
            this.escaped = oddBackslashesBefore(chunk, chunk.length, i);
            return chunk.length;
        }
        if (!oddBackslashesBefore(chunk, quote, i)) this.inString = false;
        return quote + 1;
    }

    // An object's last bytes: joined to its earlier pieces, handed to out.
    complete(bytes, out) {
        if (this.pieces.length !== 0) {
            this.pieces.push(bytes);
            bytes = Buffer.concat(this.pieces, this.piecesSize + bytes.length);
            this.pieces = [];
            this.piecesSize = 0;
        }
        out.push(bytes, this.start, this.startLine);
        this.from = -1;
        if (this.arrayMode) this.arrayState = AFTER_ELEMENT;
    }

    // An object's bytes up to the end of a chunk, kept until it ends.
    keepPiece(piece) {
        this.pieces.push(piece);
        this.piecesSize += piece.length;
        if (this.piecesSize > this.maxObjectSize) {
            throw this.fail(`document text longer than ${this.maxObjectSize} bytes`, this.start, this.startLine);
        }
    }

    // Reads one byte of chunk at i between objects (space, an object's '{', or in
    // array mode the array's punctuation); returns the offset after it.
    scanBetween(chunk, i, base) {
        const b = chunk[i];
        if (isJsonSpace(b)) {
            if (b === NEWLINE) this.line++;
        } else if (b === OPEN_BRACE && (!this.arrayMode || this.arrayState === FIRST_ELEMENT || this.arrayState === NEXT_ELEMENT)) {
            this.depth = 1;
            this.from = i;
            this.start = base + i;
            this.startLine = this.line;
        } else if (this.arrayMode) {
            this.arrayPunctuation(b, base + i);
        } else if (b === OPEN_BRACKET) {
            throw this.fail("expected a document but found '[' (use --array to read a JSON array)", base + i, this.line);
        } else {
            throw this.fail(`expected a document ('{') but found ${describeByte(b)}`, base + i, this.line);
        }
        return i + 1;
    }

    arrayPunctuation(b, offset) {
        const state = this.arrayState;
        if (state === BEFORE_ARRAY && b === OPEN_BRACKET) this.arrayState = FIRST_ELEMENT;
        else if (state === AFTER_ELEMENT && b === COMMA) this.arrayState = NEXT_ELEMENT;
        else if ((state === AFTER_ELEMENT || state === FIRST_ELEMENT) && b === CLOSE_BRACKET) this.arrayState = AFTER_ARRAY;
        else throw this.fail(this.arrayUnexpected(state, b), offset, this.line);
    }

    arrayUnexpected(state, b) {
        const found = describeByte(b);
        switch (state) {
            case BEFORE_ARRAY:
                return `expected '[' to start the array but found ${found}`;
            case FIRST_ELEMENT:
                return `expected a document or ']' but found ${found}`;
            case AFTER_ELEMENT:
                return `expected ',' or ']' after a document but found ${found}`;
            case NEXT_ELEMENT:
                return `expected a document after ',' but found ${found}`;
            default:
                return `unexpected ${found} after the end of the array`;
        }
    }

    end() {
        if (this.depth > 0) {
            throw this.fail('input ends inside the document that starts', this.start, this.startLine);
        }
        if (this.arrayMode && this.arrayState !== AFTER_ARRAY) {
            const what = this.arrayState === BEFORE_ARRAY ? "input has no array (expected '[')" : "input ends before the array's closing ']'";
            throw this.fail(what, this.offset, this.line);
        }
    }
}

module.exports = { JSONObjectSplitter, JSONSyntaxError };
