'use strict';

// The "driver to JSON" section: what an API server's read costs its own process. 10,000
// documents of a data set are stored in a MongoDB wire-protocol server running in a process
// of its own (driver-json-server.js); this process, the client, reads them all with the
// official driver on qbson (batches of 1,000) and makes the text of one JSON array:
//   find + JSON.stringify        JSON.stringify(await collection.find().toArray())
//   raw: true + bsonToJSON       each document's bytes through bsonToJSON, joined into an array
// Both texts are checked equal before anything is timed. A read is timed by the CPU time of
// this process (process.cpuUsage: every thread, so the driver, the socket and the garbage
// collector are counted); the server's CPU time, read from its process over IPC around the
// same read, is shown apart. Median of the reads, the two ways taken in turn.
//   node [--expose-gc] benchmark/driver-json.js [--quick] [--markdown] [--filter tweets,log_events]

const childProcess = require('child_process');
const path = require('path');
const { useQbsonInDriver, driverUsesQbson } = require('../test/support/driver-on-qbson');
const corpus = require('./corpus');
const report = require('./report');
const timing = require('./timing');

// `--bson-client`: a process of its own whose driver keeps its own bson (below)
const BSON_CLIENT = process.argv.includes('--bson-client');
if (!BSON_CLIENT) useQbsonInDriver();
const mongodb = require('mongodb');
const qbson = require('..');

const SERVER = path.join(__dirname, 'driver-json-server.js');
const COUNT = 10000;
const BATCH = 1000;
const MODES = {
    full: { warmup: 2, samples: 7 },
    quick: { warmup: 1, samples: 3 },
};
// name: [what it is, the documents]
const SETS = {
    tweets: ['10,000 statuses of a social-media API, Japanese text, users of 16 fields (seeds 100000…)',
        () => Array.from({ length: COUNT }, (_, i) => corpus.tweet(100000 + i))],
    log_events: ['10,000 log records: Dates, ObjectIds, Longs, short strings (seed 21)', () => corpus.logEvents(21, COUNT)],
};

const state = { sink: 0 };
const QUERY = { sort: { _id: 1 }, batchSize: BATCH };

const JSON_MODE = { mode: 'json' };
const JSON_ARRAY = { mode: 'json', many: 'array' };
const JSON_ARRAY_BYTES = { mode: 'json', many: 'array', output: 'bytes' };
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c));

// each way reads every document and returns the text of one JSON array, as a string or UTF-8 bytes
const WAYS = {
    'find + JSON.stringify': async (items) => JSON.stringify(await items.find({}, QUERY).toArray()),
    'raw: true + bsonToJSON each document': async (items) => {
        const parts = [];
        for await (const bytes of items.find({}, { raw: true, ...QUERY })) parts.push(qbson.bsonToJSON(bytes, JSON_MODE));
        return '[' + parts.join(',') + ']';
    },
    // docs/driver-json.md's streaming recipe: each batch received in one call, its brackets cut off
    "raw: true + bsonToJSON each batch, many: 'array', output: 'bytes'": async (items) => {
        const cursor = items.find({}, { raw: true, ...QUERY });
        const parts = [];
        for await (const first of cursor) {
            const text = qbson.bsonToJSON([first].concat(cursor.readBufferedDocuments()), JSON_ARRAY_BYTES);
            parts.push(parts.length === 0 ? OPEN : COMMA, text.subarray(1, text.length - 1));
        }
        return Buffer.concat(parts.length === 0 ? [OPEN, CLOSE] : parts.concat(CLOSE));
    },
    "raw: true, toArray + bsonToJSON many: 'array'": async (items) => qbson.bsonToJSON(await items.find({}, { raw: true, ...QUERY }).toArray(), JSON_ARRAY),
};
const ORDINARY = 'find + JSON.stringify';
// what the driver costs before any text is made, for reference: these return the documents
const REFERENCES = {
    'find, toArray (no text)': (items) => items.find({}, QUERY).toArray(),
    'raw: true, toArray (no text)': (items) => items.find({}, { raw: true, ...QUERY }).toArray(),
};
// the driver's own decode on bson, for the row above: read in a process whose driver was
// not given qbson (bsonClient), its reads timed by its own CPU time; the server's CPU is not
// read around them
const ON_BSON = 'find, toArray (no text), the driver on bson';

function startServer() {
    const child = childProcess.fork(SERVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const replies = [];
    child.on('message', (msg) => replies.shift()(msg));
    const next = () => new Promise((resolve) => replies.push(resolve));
    const ended = new Promise((resolve) => child.on('exit', resolve));
    return next().then(({ uri }) => ({
        uri,
        cpu: () => {
            const reply = next();
            child.send({ cpu: true });
            return reply.then((msg) => msg.cpu);
        },
        stop: () => {
            child.send({ stop: true });
            return ended;
        },
    }));
}

const cpuSeconds = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
};

// one read (a way, or a reference): { client, server, wall } seconds
async function timedRead(way, items, server) {
    if (global.gc) global.gc();
    const s0 = await server.cpu();
    const c0 = cpuSeconds(), t0 = timing.now();
    const out = await way(items);
    const c1 = cpuSeconds(), t1 = timing.now();
    const s1 = await server.cpu();
    state.sink = (state.sink + out.length) | 0;
    return { client: c1 - c0, server: s1 - s0, wall: t1 - t0 };
}

async function measureSet(name, mode, client, server) {
    const items = client.db('bench').collection(name);
    await items.deleteMany({});
    const docs = SETS[name][1]();
    // in parts: the server gathers a message by concatenating every chunk received so far
    for (let i = 0; i < docs.length; i += BATCH) await items.insertMany(docs.slice(i, i + BATCH));
    const names = Object.keys(WAYS);
    const texts = [];
    for (const way of names) texts.push(String(await WAYS[way](items)));
    const row = { name, title: SETS[name][0], docs: COUNT, textBytes: Buffer.byteLength(texts[0]), ways: {} };
    names.forEach((way, i) => {
        row.ways[way] = texts[i] === texts[0] ? { samples: [] } : { error: 'its text differs from JSON.stringify of the documents' };
    });
    for (const ref of Object.keys(REFERENCES)) row.ways[ref] = { samples: [] };
    const all = { ...WAYS, ...REFERENCES };
    const ok = Object.keys(all).filter((way) => !row.ways[way].error);
    for (let i = 0; i < mode.warmup; i++) for (const way of ok) await all[way](items);
    for (let i = 0; i < mode.samples; i++) for (const way of ok) row.ways[way].samples.push(await timedRead(all[way], items, server));
    for (const way of ok) {
        const s = row.ways[way].samples;
        Object.assign(row.ways[way], { client: timing.median(s.map((x) => x.client)), server: timing.median(s.map((x) => x.server)),
            wall: timing.median(s.map((x) => x.wall)) });
    }
    row.ways[ON_BSON] = readOnBson(server.uri, name, mode);
    await items.drop();
    return row;
}

// { client, wall } seconds, medians of `find, toArray` reads by the driver on its own bson
function readOnBson(uri, name, mode) {
    const args = [...process.execArgv, __filename, '--bson-client', uri, name, String(mode.warmup), String(mode.samples)];
    const samples = JSON.parse(childProcess.execFileSync(process.execPath, args, { encoding: 'utf8' }));
    if (samples.some((x) => x.docs !== COUNT)) throw new Error(`driver-json: the bson client read ${samples.map((x) => x.docs)} documents, not ${COUNT}`);
    return { samples, client: timing.median(samples.map((x) => x.client)), wall: timing.median(samples.map((x) => x.wall)) };
}

// the process readOnBson starts: its reads' samples as JSON on stdout
async function bsonClient([uri, name, warmup, samples]) {
    const client = new mongodb.MongoClient(uri);
    try {
        if (driverUsesQbson(mongodb)) throw new Error('the driver runs on qbson in the bson client');
        const items = client.db('bench').collection(name);
        const read = REFERENCES['find, toArray (no text)'];
        for (let i = 0; i < Number(warmup); i++) await read(items);
        const out = [];
        for (let i = 0; i < Number(samples); i++) {
            if (global.gc) global.gc();
            const c0 = cpuSeconds(), t0 = timing.now();
            const docs = await read(items);
            out.push({ client: cpuSeconds() - c0, wall: timing.now() - t0, docs: docs.length });
        }
        process.stdout.write(JSON.stringify(out));
    } finally {
        await client.close();
    }
}

const ms = (seconds) => (seconds === undefined ? '-' : (seconds * 1000).toFixed(1));

function tables(rows, md) {
    return report.table('one read of 10,000 documents to one JSON array text: CPU ms of the client and of the server, wall ms',
        ['data set', 'JSON', 'way', 'client CPU', 'server CPU', 'wall', 'client × find + JSON.stringify'],
        rows.flatMap((r) => Object.keys(r.ways).map((way) => {
            const w = r.ways[way];
            const ratio = w.client !== undefined && r.ways[ORDINARY].client ? (w.client / r.ways[ORDINARY].client).toFixed(2) + '×' : '-';
            return [r.name, report.bytes(r.textBytes), way, w.error ? 'wrong: ' + w.error : ms(w.client), ms(w.server), ms(w.wall),
                way === ORDINARY ? '' : ratio];
        })), md);
}

// the best raw way against the ordinary one, and the driver's own decode on qbson and on bson, per data set
function summary(rows) {
    const own = rows.map((r) => {
        const [q, b] = [r.ways['find, toArray (no text)'].client, r.ways[ON_BSON].client];
        return `${r.name}: find, toArray takes ${ms(q)} ms of client CPU with the driver on qbson, ${ms(b)} ms on bson (${(q / b).toFixed(2)}×)`;
    });
    return rows.map((r) => {
        const raw = Object.keys(WAYS).filter((way) => way !== ORDINARY && r.ways[way].client !== undefined)
            .sort((a, b) => r.ways[a].client - r.ways[b].client)[0];
        return raw === undefined ? `${r.name}: no raw way measured`
            : `${r.name}: ${raw} takes ${(r.ways[raw].client / r.ways[ORDINARY].client).toFixed(2)}× the client CPU of find + JSON.stringify (target ≤ 0.6×)`;
    }).concat(own).join('; ');
}

async function main(argv) {
    const mode = argv.includes('--quick') ? MODES.quick : MODES.full;
    const md = argv.includes('--markdown');
    const f = argv.indexOf('--filter');
    const names = f >= 0 ? argv[f + 1].split(',') : Object.keys(SETS);
    for (const name of names) if (!SETS[name]) throw new Error('driver-json: no data set ' + name + ' (' + Object.keys(SETS).join(', ') + ')');
    const server = await startServer();
    const client = new mongodb.MongoClient(server.uri);
    const rows = [];
    try {
        if (!driverUsesQbson(mongodb)) throw new Error('the driver does not run on qbson');
        for (const name of names) {
            process.stderr.write(`driver-json: ${name}\r`);
            rows.push(await measureSet(name, mode, client, server));
        }
    } finally {
        await client.close();
        await server.stop();
    }
    process.stdout.write(report.heading('From the MongoDB driver to JSON text: raw: true and bsonToJSON against find and JSON.stringify', md) +
        tables(rows, md) + '\n' + summary(rows) + '. The official driver on qbson reads from a wire-protocol server in another process ' +
        '(@push.rocks/smartmongo\'s, in memory), batches of ' + BATCH.toLocaleString('en-US') + '; CPU time by process.cpuUsage of each process, median of ' +
        mode.samples + ' reads after ' + mode.warmup + ' (sink ' + state.sink + ').\n\n');
    return rows;
}

if (require.main === module) {
    (BSON_CLIENT ? bsonClient(process.argv.slice(process.argv.indexOf('--bson-client') + 1)) : main(process.argv.slice(2))).catch((err) => {
        process.stderr.write(err.stack + '\n');
        process.exitCode = 1;
    });
}

module.exports = { main, WAYS, SETS, startServer };
