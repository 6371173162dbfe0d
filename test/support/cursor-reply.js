'use strict';

// A cursor reply of 10,000 items, as tests of what V8 does with a large reply's
// documents read it: the documents and arrays a reader builds (all fields there,
// optional ones in varying sets, arrays of strings, of documents, of arrays). Not
// arrays that can hold only numbers: a codec makes those from `[]`, which keeps
// their doubles unboxed, and they hold nothing young but their elements. Each item's
// ratio is a BSON double, whole in the first item only: to V8 a small integer there
// and a heap number after, a field whose representation changes after the first item.

const fs = require('fs');
const os = require('os');
const path = require('path');
const qbson = require('../..');
const { prng, word, ASCII } = require('../../benchmark/generate');
const { inferSchema } = require('./infer-schema');

function cursorReply() {
    const rng = prng(7);
    const firstBatch = [];
    for (let i = 0; i < 10000; i++) {
        const item = { id: i, name: word(rng, ASCII, 4, 8), ratio: new qbson.Double(i === 0 ? 1 : i + 0.5), tags: [word(rng, ASCII, 1, 3), word(rng, ASCII, 1, 3)] };
        if (rng() < 0.5) item.note = word(rng, ASCII, 2, 6);
        if (rng() < 0.3) item.owner = { login: word(rng, ASCII, 3, 8), since: i };
        item.paths = [[word(rng, ASCII, 1, 3)], [word(rng, ASCII, 1, 3), 'x']];
        item.parts = [{ label: word(rng, ASCII, 1, 4) }];
        firstBatch.push(item);
    }
    return { cursor: { firstBatch, id: 0 } };
}

// the reply's bytes and its inferred schema in files of a new directory, for a child process
function writeReplyFiles(prefix) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const bytes = qbson.encode(cursorReply());
    const files = { dir, bytes: path.join(dir, 'reply.bson'), schema: path.join(dir, 'schema.json') };
    fs.writeFileSync(files.bytes, bytes);
    fs.writeFileSync(files.schema, JSON.stringify(inferSchema([bytes])));
    return files;
}

function removeReplyFiles(files) {
    fs.rmSync(files.dir, { recursive: true, force: true });
}

// In a child: how to read the reply's bytes the way named (decode, or a codec compiled from
// the schema file), or null for another way (the child's control).
function readerOf(way, schemaFile) {
    if (way === 'decode') return (b) => qbson.decode(b);
    if (way !== 'codec') return null;
    const codec = qbson.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
    return (b) => codec.decode(b);
}

module.exports = { cursorReply, writeReplyFiles, removeReplyFiles, readerOf };
