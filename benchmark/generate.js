'use strict';

// Seeded generator for the synthetic data sets: the same seed always yields
// the same documents, so results are comparable between runs and commits.

const bson = require('bson');

// mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1)
function prng(seed) {
    let a = seed >>> 0;
    return function next() {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const ASCII = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
// 1-, 2-, 3- and 4-byte UTF-8 characters (the last ones are surrogate pairs in JS)
const UNICODE = ['a', 'e', 'o', 'n', 's', 't', 'é', 'ü', 'ß', 'ñ', 'ø', 'α', 'Ω', 'ж', 'я',
    'ש', 'ع', '中', '文', '字', 'の', 'カ', '한', '€', '∑', '😀', '🚀', '𝄞'];

function int(rng, lo, hi) { return lo + Math.floor(rng() * (hi - lo + 1)); }
function pick(rng, list) { return list[Math.floor(rng() * list.length)]; }

function word(rng, alphabet, minLen, maxLen) {
    let s = '';
    for (let n = int(rng, minLen, maxLen); n > 0; n--) s += pick(rng, alphabet);
    return s;
}

function text(rng, nwords) {
    const words = [];
    for (let i = 0; i < nwords; i++) words.push(word(rng, rng() < 0.5 ? ASCII : UNICODE, 2, 9));
    return words.join(' ');
}

function bytes(rng, n) {
    const buf = Buffer.alloc(n);
    for (let i = 0; i < n; i++) buf[i] = int(rng, 0, 255);
    return buf;
}

function record(rng, seq) {
    return {
        _id: new bson.ObjectId(bytes(rng, 12)),
        seq: seq,
        name: word(rng, ASCII, 4, 12),
        title: text(rng, int(rng, 2, 8)),
        price: int(rng, 0, 1e6) / 100,
        ratio: rng(),
        count: int(rng, -2e9, 2e9),
        big: bson.Long.fromBits(int(rng, -2e9, 2e9), int(rng, -2e9, 2e9)),
        small64: bson.Long.fromNumber(int(rng, 0, 1e12)),
        flag: rng() < 0.5,
        none: null,
        at: new Date(1.5e12 + int(rng, 0, 1e11)),
        tags: Array.from({ length: int(rng, 0, 5) }, () => word(rng, ASCII, 3, 8)),
        point: { x: rng() * 360 - 180, y: rng() * 180 - 90 },
        data: new bson.Binary(bytes(rng, int(rng, 8, 40)), 0),
    };
}

// about 1.2 MB of BSON: many mixed-type records, a long unicode text, a numeric array
function largeDocument(seed) {
    const rng = prng(seed);
    const items = [];
    for (let i = 0; i < 3000; i++) items.push(record(rng, i));
    const samples = [];
    for (let i = 0; i < 10000; i++) samples.push(rng() * 1000);
    return {
        _id: new bson.ObjectId(bytes(rng, 12)),
        kind: 'large',
        created: new Date(1.6e12),
        description: text(rng, 2000),
        items: items,
        samples: samples,
    };
}

function smallDocuments(seed, count) {
    const rng = prng(seed);
    const docs = [];
    for (let i = 0; i < count; i++) docs.push(record(rng, i));
    return docs;
}

// The case of @deepkit/bson's own benchmark (packages/bson/benchmarks): a find command's reply
// whose first batch holds `count` items of one shape, each {id: i, name: 'Peter', ready: true,
// priority: 0, tags: ['a', 'b', 'c']}.  With a seed, the values vary instead (a name of 4-8
// characters, tags of 1-3, a random boolean and priority), of the same types.
function cursorItem(rng, id) {
    if (!rng) return { id: id, name: 'Peter', ready: true, priority: 0, tags: ['a', 'b', 'c'] };
    return {
        id: id,
        name: word(rng, ASCII, 4, 8),
        ready: rng() < 0.5,
        priority: int(rng, 0, 9),
        tags: [word(rng, ASCII, 1, 3), word(rng, ASCII, 1, 3), word(rng, ASCII, 1, 3)],
    };
}

function cursorReply(seed, count) {
    const rng = seed === undefined ? null : prng(seed);
    const firstBatch = [];
    for (let i = 0; i < count; i++) firstBatch.push(cursorItem(rng, i));
    return { cursor: { firstBatch } };
}

module.exports = { prng, int, pick, word, bytes, ASCII, largeDocument, smallDocuments, cursorItem, cursorReply };
