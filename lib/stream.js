'use strict';

// Streams of BSON documents stored back to back, as in a .bson dump file.
//
// decodeStream reads chunks from any async iterable (a Readable included) and
// yields documents. A document may be split across chunks anywhere, its length
// prefix included. A document lying wholly inside one chunk is decoded where it
// lies; one that spans chunks is copied once into a buffer of its declared size,
// so memory is bounded by the largest document plus a chunk, and a large document
// arriving in many small chunks costs one copy, not a re-concatenation per chunk.
//
// encodeStream is a Transform from documents (object mode) to bytes. Node's stream
// module is loaded with the first one: it takes ~1.1 ms to load, and decodeStream
// and `import` of qbson's ESM entry (which loads this module) do not need it.

const { local, alloc, allocUnsafe } = require('./platform');
const { nodeStream } = require('./node-modules');
const { BSONError, BSONRuntimeError } = require('./errors');
const { option, checkOptionsObject, readMaxDocumentSize } = require('./options');
const { decode } = require('./decode');
const { encode } = require('./encode');
const { MIN_DOCUMENT_SIZE } = require('./constants');

// what the server accepts: 16 MiB for a document plus 16 KiB of headroom
const DEFAULT_MAX_DOCUMENT_SIZE = 16 * 1024 * 1024 + 16 * 1024;
const LENGTH_SIZE = 4;

function readLength(buf, pos) {
    return buf[pos] | (buf[pos + 1] << 8) | (buf[pos + 2] << 16) | (buf[pos + 3] << 24);
}

function asBuffer(chunk) {
    if (chunk instanceof Uint8Array) return local(chunk);
    const what = chunk === null ? 'null' : typeof chunk === 'object' ? chunk.constructor.name : typeof chunk;
    throw new TypeError(`decodeStream needs Buffer or Uint8Array chunks, not ${what}`);
}

// Cuts a byte stream into whole documents without decoding them. push() appends
// to `out` the bytes of each document completed by a chunk, followed by its
// absolute offset in the stream (out.push(bytes, offset)). The bytes are a view
// of the chunk when the document lies inside it, else a buffer of its own.
// A length that cannot be right throws a BSONError, after `out` has received
// every document before it; end() throws if the stream stopped inside a document.
class DocumentSplitter {
    constructor(opts) {
        this.maxDocumentSize = readMaxDocumentSize(option(opts, 'maxDocumentSize'), DEFAULT_MAX_DOCUMENT_SIZE);
        // absolute offset of the next byte to arrive
        this.offset = 0;
        // the document being assembled across chunks: its start, size and bytes so far
        this.docStart = 0;
        this.docSize = 0;
        this.docBuf = null;
        this.filled = 0;
        // a length prefix split across chunks
        this.header = alloc(LENGTH_SIZE);
        this.headerFilled = 0;
        this.failed = null;
    }

    // true when no document is partly received
    get idle() {
        return this.docBuf === null && this.headerFilled === 0;
    }

    checkSize(size, start) {
        if (size < MIN_DOCUMENT_SIZE) {
            throw this.fail(`document length ${size} is less than the minimum of ${MIN_DOCUMENT_SIZE}`, start, 'ERR_BSON_CORRUPT');
        }
        if (size > this.maxDocumentSize) {
            throw this.fail(`document length ${size} exceeds maxDocumentSize ${this.maxDocumentSize}`, start, 'ERR_BSON_TOO_LARGE');
        }
    }

    fail(message, offset, code) {
        const err = new BSONError(`${message} at offset ${offset}`, { code, offset });
        this.failed = err;
        return err;
    }

    push(input, out) {
        if (this.failed !== null) throw this.failed;
        const chunk = asBuffer(input);
        const len = chunk.length;
        const base = this.offset;
        this.offset += len;
        let pos = 0;
        while (pos < len) {
            if (this.docBuf !== null) {
                // continue the document being assembled
                const n = Math.min(this.docSize - this.filled, len - pos);
                this.docBuf.set(chunk.subarray(pos, pos + n), this.filled);
                this.filled += n;
                pos += n;
                if (this.filled === this.docSize) {
                    out.push(this.docBuf, this.docStart);
                    this.docBuf = null;
                }
            } else if (this.headerFilled !== 0 || len - pos < LENGTH_SIZE) {
                // a length prefix split across chunks
                if (this.headerFilled === 0) this.docStart = base + pos;
                while (pos < len && this.headerFilled < LENGTH_SIZE) this.header[this.headerFilled++] = chunk[pos++];
                if (this.headerFilled === LENGTH_SIZE) {
                    this.headerFilled = 0;
                    const size = readLength(this.header, 0);
                    this.checkSize(size, this.docStart);
                    this.docSize = size;
                    this.docBuf = allocUnsafe(size);
                    this.docBuf.set(this.header, 0);
                    this.filled = LENGTH_SIZE;
                }
            } else {
                const size = readLength(chunk, pos);
                this.checkSize(size, base + pos);
                if (len - pos >= size) {
                    // whole inside this chunk: no copy
                    out.push(chunk.subarray(pos, pos + size), base + pos);
                    pos += size;
                } else {
                    this.docStart = base + pos;
                    this.docSize = size;
                    this.docBuf = allocUnsafe(size);
                    this.docBuf.set(chunk.subarray(pos, len), 0);
                    this.filled = len - pos;
                    pos = len;
                }
            }
        }
    }

    end() {
        if (this.failed !== null) throw this.failed;
        if (this.headerFilled !== 0) {
            throw this.fail(
                `stream ends inside a document's length: ${this.headerFilled} of ${LENGTH_SIZE} bytes`,
                this.docStart,
                'ERR_BSON_TRUNCATED'
            );
        }
        if (this.docBuf !== null) {
            const size = this.docSize;
            const got = this.filled;
            this.docBuf = null;
            throw this.fail(`stream ends inside a document of ${size} bytes after ${got} of them`, this.docStart, 'ERR_BSON_TRUNCATED');
        }
    }
}

// A decode error from a document at docStart, re-addressed to its place in the
// stream. An option's error is about no byte, and is worded as decode words it.
function atStreamOffset(err, docStart) {
    if (!(err instanceof BSONError) || err.code === 'ERR_BSON_OPTION') return err;
    const inner = err.offset !== undefined ? err.offset : 0;
    const offset = docStart + inner;
    const message = err.message.replace(/ at offset \d+$/, '');
    const out = new BSONError(`${message} at offset ${offset} (byte ${inner} of the document at offset ${docStart})`, {
        code: err.code,
        offset,
        cause: err,
    });
    out.documentOffset = docStart;
    return out;
}

// Decodes one document cut out by a DocumentSplitter; errors name stream offsets.
function decodeAt(bytes, docStart, decodeOpts) {
    try {
        return decode(bytes, decodeOpts);
    } catch (err) {
        throw atStreamOffset(err, docStart);
    }
}

// the caller's decode options, less those that decodeStream owns
function decodeOptions(opts) {
    if (opts == null) return undefined;
    const out = {};
    for (const key of Object.keys(opts)) {
        if (key !== 'maxDocumentSize' && key !== 'index' && key !== 'allowObjectSmallerThanBufferSize') out[key] = opts[key];
    }
    return out;
}

function toIterable(source) {
    if (source == null) throw new TypeError('decodeStream needs a Readable or an async iterable of chunks');
    // a single buffer is one chunk, not an iterable of numbers
    if (source instanceof Uint8Array) return [source];
    if (typeof source[Symbol.asyncIterator] === 'function' || typeof source[Symbol.iterator] === 'function') return source;
    throw new TypeError('decodeStream needs a Readable or an async iterable of chunks');
}

// Yields every document in `source`, a Readable or (async) iterable of Buffer or
// Uint8Array chunks. Options: maxDocumentSize (bytes, default 16 MiB + 16 KiB) and
// any option of decode. On damage it yields every whole document before it, then
// throws a BSONError whose offset is the absolute byte offset in the stream.
function decodeStream(source, opts) {
    const iterable = toIterable(source);
    checkOptionsObject(opts);
    const splitter = new DocumentSplitter(opts);
    const decodeOpts = decodeOptions(opts);
    return decodeDocuments(iterable, splitter, decodeOpts);
}

async function* decodeDocuments(iterable, splitter, decodeOpts) {
    const batch = [];
    for await (const chunk of iterable) {
        let damage = null;
        try {
            splitter.push(chunk, batch);
        } catch (err) {
            damage = err;
        }
        for (let i = 0; i < batch.length; i += 2) {
            const doc = decodeAt(batch[i], batch[i + 1], decodeOpts);
            // let the chunk go as soon as its last document is out
            batch[i] = null;
            yield doc;
        }
        batch.length = 0;
        if (damage !== null) throw damage;
    }
    splitter.end();
}

// A Transform taking documents (object mode) and giving their BSON bytes, one
// document after another: what a .bson file holds. Options are encode's. A
// document that cannot be encoded is a stream error: the BSONError from encode,
// with `index`, the number of documents before it.
function encodeStream(opts) {
    checkOptionsObject(opts);
    let index = 0;
    const stream = nodeStream();
    if (stream === null) {
        throw new BSONRuntimeError("encodeStream makes a Node stream (a Transform), and this runtime has no Node 'stream' module: encode each document with encode instead");
    }
    const { Transform } = stream;
    return new Transform({
        writableObjectMode: true,
        readableObjectMode: false,
        transform(doc, encoding, callback) {
            let bytes;
            try {
                bytes = encode(doc, opts);
            } catch (err) {
                if (err !== null && typeof err === 'object') {
                    err.index = index;
                }
                callback(err);
                return;
            }
            index++;
            callback(null, bytes);
        },
    });
}

module.exports = {
    decodeStream,
    encodeStream,
    DocumentSplitter,
    decodeAt,
    atStreamOffset,
    DEFAULT_MAX_DOCUMENT_SIZE,
};
