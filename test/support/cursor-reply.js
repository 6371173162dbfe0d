'use strict';

// A cursor reply of 10,000 items, as tests of what V8 does with a large reply's
// documents read it: the documents and arrays a reader builds (all fields there,
// optional ones in varying sets, arrays of strings, of documents, of arrays). Not
// arrays that can hold only numbers: a codec makes those from `[]`, which keeps
// their doubles unboxed, and they hold nothing young but their elements.

const { prng, word, ASCII } = require('../../benchmark/generate');

function cursorReply() {
    const rng = prng(7);
    const firstBatch = [];
    for (let i = 0; i < 10000; i++) {
        const item = { id: i, name: word(rng, ASCII, 4, 8), tags: [word(rng, ASCII, 1, 3), word(rng, ASCII, 1, 3)] };
        if (rng() < 0.5) item.note = word(rng, ASCII, 2, 6);
        if (rng() < 0.3) item.owner = { login: word(rng, ASCII, 3, 8), since: i };
        item.paths = [[word(rng, ASCII, 1, 3)], [word(rng, ASCII, 1, 3), 'x']];
        item.parts = [{ label: word(rng, ASCII, 1, 4) }];
        firstBatch.push(item);
    }
    return { cursor: { firstBatch, id: 0 } };
}

module.exports = { cursorReply };
