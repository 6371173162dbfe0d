'use strict';

// Run by test/kept-maps.test.js, under node --expose-gc --trace-deopt: reads one
// BSON reply (argv[2]) with the way named in argv[3] (decode, a codec compiled from
// the schema in argv[4], or the control), ROUNDS times READS reads, and between two
// rounds runs major GCs with nothing read alive. V8's trace of the optimized code it
// throws away goes to stdout.

const fs = require('fs');
const { readerOf } = require('./cursor-reply');

const ROUNDS = 8;
const READS = 20;
const GCS = 4;
const bytes = fs.readFileSync(process.argv[2]);
const way = process.argv[3];

// the control: objects from a constructor that keeps none of them, as the generated
// readers' constructors were; V8 holds the map their properties lead to only weakly
function Item(id, name) {
    this.id = id;
    this.name = name;
}

let read = readerOf(way, process.argv[4]);
if (read === null) {
    read = function control(b) {
        const items = [];
        for (let i = 0; i < 10000; i++) items.push(new Item(i, String(i + b.length)));
        return items;
    };
}

// a function of its own, so that no register of this module's code holds the last result
function round() {
    let count = 0;
    for (let i = 0; i < READS; i++) count += Object.keys(read(bytes)).length;
    return count;
}

let count = 0;
for (let r = 0; r < ROUNDS; r++) {
    count += round();
    for (let i = 0; i < GCS; i++) global.gc();
}
console.log('done', count);
