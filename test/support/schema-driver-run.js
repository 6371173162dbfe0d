'use strict';

// The driver recipe of docs/schema.md end to end, for test/schema-driver.test.js: a MongoDB
// wire-protocol server in this process (test/support/wire-server.js), the official driver
// as it comes (its own bson), documents checked with codec.validate before insertMany, and
// read back with { raw: true } and codec.decode per document. Prints one JSON line; then
// the process must end by itself, with the server and the client closed.
//   node test/support/schema-driver-run.js [COUNT]

const { MongoClient, ObjectId } = require('mongodb');
const qbson = require('../..');
const { startWireServer } = require('./wire-server');
const { FAIL } = require('../../lib/schema/generate');

const COUNT = Number(process.argv[2]) || 200;

// the recipe's schema
const schema = {
    bsonType: 'object',
    required: ['_id', 'sku', 'qty', 'tags'],
    properties: {
        _id: { bsonType: 'objectId' },
        sku: { bsonType: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
        qty: { bsonType: 'int', minimum: 0 },
        price: { bsonType: 'double' },
        tags: { bsonType: 'array', items: { bsonType: 'string' } },
        added: { bsonType: 'date' },
    },
};

function documentAt(i) {
    return {
        _id: ObjectId.createFromHexString('65a1f0c2a1b2c3d4' + i.toString(16).padStart(8, '0')),
        sku: `ABC-${String(i).padStart(4, '0')}`,
        qty: i % 50,
        price: i + 0.5,
        tags: i % 3 === 0 ? [] : ['a', String(i)],
        added: new Date(1700000000000 + i * 1000),
    };
}

// the recipe's write: every document checked first, nothing inserted when one fails
async function insertChecked(collection, codec, docs) {
    const problems = [];
    docs.forEach((doc, index) => {
        for (const p of codec.validate(doc)) problems.push({ index, ...p });
    });
    if (problems.length > 0) return { inserted: 0, problems };
    const res = await collection.insertMany(docs);
    return { inserted: res.insertedCount, problems };
}

// the recipe's read: the driver's raw bytes, decoded and checked by the codec
async function readChecked(collection, codec, seen) {
    const out = [];
    for await (const bytes of collection.find({}, { raw: true, sort: { _id: 1 }, batchSize: 50 })) {
        if (seen) seen.push(bytes);
        out.push(codec.decode(bytes));
    }
    return out;
}

async function main() {
    const server = await startWireServer();
    const client = new MongoClient(server.uri);
    const report = {};
    try {
        await client.connect();
        const items = client.db('shop').collection('items');
        const codec = qbson.compile({ $jsonSchema: schema });
        const docs = Array.from({ length: COUNT }, (_, i) => documentAt(i));

        // a batch with two bad documents is refused before it is sent
        const bad = docs.slice(0, 10).map((d) => ({ ...d }));
        bad[3].qty = -1;
        bad[7].sku = 'abc';
        const refused = await insertChecked(items, codec, bad);
        report.refused = { inserted: refused.inserted, problems: refused.problems.map((p) => [p.index, p.path, p.rule]), count: await items.countDocuments() };

        const accepted = await insertChecked(items, codec, docs);
        report.accepted = { inserted: accepted.inserted, problems: accepted.problems.length };

        const raw = [];
        const read = await readChecked(items, codec, raw);
        const plain = await items.find({}, { sort: { _id: 1 } }).toArray();
        report.read = {
            count: read.length,
            // what codec.decode gives is what qbson.decode gives, the driver's ObjectIds aside
            sameAsDecode: JSON.stringify(read) === JSON.stringify(plain.map((d) => qbson.decode(qbson.encode(d)))),
            sameAsInserted: JSON.stringify(read) === JSON.stringify(docs),
            first: read[0],
            // documents the codec's generated reader took (the rest would have gone to its interpreter)
            generated: raw.filter((b) => codec.read !== null && codec.read(b) !== FAIL).length,
        };

        // a document another writer stored against the schema: the read names it
        await items.insertOne({ _id: new ObjectId(), sku: 'XYZ-0001', qty: 1.5, tags: [] });
        try {
            await readChecked(items, codec);
            report.badRead = null;
        } catch (err) {
            report.badRead = { code: err.code, path: err.path, rule: err.rule, message: err.message };
        }
    } finally {
        await client.close();
        await server.stop();
    }
    process.stdout.write(JSON.stringify(report) + '\n');
}

main().catch((err) => {
    process.stderr.write(err.stack + '\n');
    process.exitCode = 1;
});
