'use strict';

// A whole short process, as a command-line tool or a serverless function runs one:
//   node short-process.js qbson|bson FILE
// loads the library, decodes the document in FILE (its BSON bytes), encodes it and decodes
// that. Prints the seconds from before the library's require to after the last decode; the
// parent times the process from its spawn to its exit.

const start = process.hrtime.bigint();
const fs = require('fs');

const [lib, file] = process.argv.slice(2);
let encode, decode;
if (lib === 'qbson') {
    ({ encode, decode } = require('qbson'));    // the package's require entry, as a user's program gets it
} else if (lib === 'bson') {
    ({ serialize: encode, deserialize: decode } = require('bson'));
} else {
    throw new Error('short-process.js: no library ' + lib);
}
const doc = decode(fs.readFileSync(file));
const again = decode(encode(doc));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ seconds, keys: Object.keys(again).length }) + '\n');
