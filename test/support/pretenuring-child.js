'use strict';

// Run by test/pretenuring.test.js, under node --min-semi-space-size=1
// --max-semi-space-size=1 --trace-pretenuring-statistics: reads one BSON reply
// (argv[2]), and decodes it ROUNDS times with the way named in argv[3] (decode, or a
// codec compiled from the schema in argv[4]), keeping each result until the next is
// whole, so a reply's documents survive the scavenges that come while it is read.
// V8's trace of its pretenuring decisions goes to stdout; the line "measuring"
// marks where this run's own allocations begin.

const fs = require('fs');
const { readerOf } = require('./cursor-reply');

const ROUNDS = 12;
const bytes = fs.readFileSync(process.argv[2]);
const way = process.argv[3];
let read = readerOf(way, process.argv[4]);
if (read === null) {
    // the control: each document an object literal holding a fresh string, as a
    // generated reader built them before; these sites are what V8 pretenures here
    read = (b) => {
        const items = [];
        for (let i = 0; i < 10000; i++) items.push({ id: i, name: String(i + b.length), tags: ['a' + i, 'b'] });
        return items;
    };
}
console.log('measuring');
let kept = null;
for (let i = 0; i < ROUNDS; i++) kept = read(bytes);
console.log('done', Array.isArray(kept) ? kept.length : Object.keys(kept).length);
