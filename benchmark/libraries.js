'use strict';

// The libraries under comparison, as adapters:
//   { name, format, version, available, reason, encode(doc), decode(buf), prepare(doc), canon(value) }
// Each loads lazily (load()), so one that is missing or broken shows as n/a with
// its reason instead of stopping the benchmark.
//   format   'bson' libraries must produce bson's bytes and decode bson's bytes;
//            'msgpack' and 'json' encode the plain relaxed-EJSON form and decode their own output.
//   prepare  converts a bson-typed document to the library's own type classes, once, untimed.
//   canon    maps the library's own decoded type objects to { type, value } for verify.js.
//   normalize(out, ref)  turns a decoded value's own forms into bson's, where bson's decode `ref`
//            has that type (deepkit's ObjectId as a string...), for verify.js.
//   specialize(ds)  for a library that reads and writes one declared type (deepkit's typed JIT):
//            its { encode, decode } for that data set; forDataset() builds it once.

const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
// native addons (bson-ext) are installed here on demand, never into a consumer's tree:
// `npm run benchmark:native`.  Resolving from here also finds the repository's own node_modules.
const NATIVE_DIR = path.join(__dirname, 'native');
const NATIVE_HINT = 'not installed: `npm run benchmark:native` builds it into benchmark/native (needs a C++ compiler and Python)';

// the repository's own packages first: benchmark/native also holds bson-ext's bson@4
function resolvePackage(name) {
    try {
        return require.resolve(name);
    } catch (err) {
        if (err.code !== 'MODULE_NOT_FOUND') throw err;
        return require.resolve(name, { paths: [NATIVE_DIR] });
    }
}

// how msgpackr is configured, as the tables state it
const MSGPACKR_CONFIG = 'new Packr({ useRecords: false, variableMapSize: true }) and unpack()';

// the package behind a library whose name is not its package's
const PACKAGES = { 'deepkit-generic': '@deepkit/bson', 'deepkit-jit': '@deepkit/bson' };

function packageVersion(name) {
    name = PACKAGES[name] || name;
    if (name === 'qbson') return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    for (let dir = path.dirname(resolvePackage(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const file = path.join(dir, 'package.json');
        if (!fs.existsSync(file)) continue;
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (pkg.name === name) return pkg.version;
    }
    return '?';
}

// rebuild a value, replacing each typed value (one with a _bsontype) by convert(value, rebuild)
function mapTypes(value, convert) {
    const rebuild = (v) => mapTypes(v, convert);
    if (value === null || typeof value !== 'object') return value;
    if (typeof value._bsontype === 'string') return convert(value, rebuild);
    if (Array.isArray(value)) return value.map(rebuild);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;     // Date, RegExp, Buffer...
    const out = {};
    for (const key of Object.keys(value)) out[key] = rebuild(value[key]);
    return out;
}

function binaryBytes(bin) {
    return Buffer.from(bin.buffer.subarray(0, bin.position));
}

// bson-ext 4 serializes the type classes of bson 4, its own dependency
function toBson4(B4) {
    return (v, rebuild) => {
        switch (v._bsontype) {
        case 'ObjectId': case 'ObjectID': return new B4.ObjectId(v.toHexString());
        case 'Long': return B4.Long.fromBits(v.low, v.high, v.unsigned);
        case 'Int32': return new B4.Int32(v.value);
        case 'Double': return new B4.Double(v.value);
        case 'Binary': return new B4.Binary(binaryBytes(v), v.sub_type);
        case 'Code': return new B4.Code(v.code, v.scope == null ? undefined : rebuild(v.scope));
        case 'Timestamp': return new B4.Timestamp({ t: v.high >>> 0, i: v.low >>> 0 });
        case 'Decimal128': return new B4.Decimal128(Buffer.from(v.bytes));
        case 'MinKey': return new B4.MinKey();
        case 'MaxKey': return new B4.MaxKey();
        case 'BSONRegExp': return new B4.BSONRegExp(v.pattern, v.options);
        case 'BSONSymbol': return new B4.BSONSymbol(v.value);
        case 'DBRef': return new B4.DBRef(v.collection, rebuild(v.oid), v.db, rebuild(v.fields));
        default: throw new Error('no bson 4 conversion for ' + v._bsontype);
        }
    };
}

// buffalo has Long, ObjectId and Timestamp classes, and Buffers with a .subtype for Binary
function toBuffalo(bf) {
    return (v) => {
        switch (v._bsontype) {
        case 'ObjectId': return new bf.ObjectId(Buffer.from(v.toHexString(), 'hex'));
        case 'Long': return new bf.Long(v.low, v.high);
        case 'Timestamp': return new bf.Timestamp(v.low, v.high);
        case 'Int32': case 'Double': return v.value;
        case 'Binary': { const buf = binaryBytes(v); buf.subtype = v.sub_type; return buf; }
        default: throw new Error('buffalo has no ' + v._bsontype + ' type');
        }
    };
}

function buffaloCanon(bf) {
    return (v) => {
        if (v instanceof bf.ObjectId) return { type: 'ObjectId', value: v.bytes.toString('hex') };
        if (v instanceof bf.Timestamp) return { type: 'Timestamp', value: { t: v.high_ >>> 0, i: v.low_ >>> 0 } };
        if (v instanceof bf.Long) return { type: 'Long', value: { low: v.low_, high: v.high_, unsigned: false } };
        if (Buffer.isBuffer(v) && 'subtype' in v) {
            return { type: 'Binary', value: { sub_type: v.subtype, bytes: new Uint8Array(v.buffer, v.byteOffset, v.length) } };
        }
        return undefined;
    };
}

const DEFINITIONS = [
    ['qbson', 'bson', () => {
        // the package's require entry, as a user's program gets it (dist/node/qbson.cjs, which
        // run.js builds from lib/ before it measures)
        const q = require('qbson');
        if (typeof q.encode !== 'function' || typeof q.decode !== 'function') {
            throw new Error("require('qbson') does not export encode() and decode()");
        }
        return { encode: (doc) => q.encode(doc), decode: (buf) => q.decode(buf) };
    }],
    ['bson', 'bson', () => {
        const b = require('bson');
        return { encode: (doc) => b.serialize(doc), decode: (buf) => b.deserialize(buf) };
    }],
    ['bson-ext', 'bson', () => {
        const ext = requireNative('bson-ext');
        const convert = toBson4(require(require.resolve('bson', { paths: [path.dirname(resolvePackage('bson-ext'))] })));
        return { encode: (doc) => ext.serialize(doc), decode: (buf) => ext.deserialize(buf),
            prepare: (doc) => mapTypes(doc, convert) };
    }],
    ['buffalo', 'bson', () => {
        const bf = require('buffalo');
        const convert = toBuffalo(bf);
        return { encode: (doc) => bf.serialize(doc), decode: (buf) => bf.parse(buf),
            prepare: (doc) => mapTypes(doc, convert), canon: buffaloCanon(bf) };
    }],
    // deepkit's schemaless writer and reader: what it uses for values typed `any`
    ['deepkit-generic', 'bson', () => {
        const dk = require('@deepkit/bson'), deepkit = require('./deepkit');
        return { encode: (doc) => dk.serializeBSONWithoutOptimiser(doc), decode: (buf) => dk.deserializeBSONWithoutOptimiser(buf),
            prepare: (doc) => deepkit.toDeepkit(doc, false, dk), normalize: deepkit.fromDeepkit,
            note: 'serializeBSONWithoutOptimiser, deserializeBSONWithoutOptimiser' };
    }],
    // deepkit's typed JIT, on a type built from each data set's documents (deepkit.js)
    ['deepkit-jit', 'bson', () => {
        const dk = require('@deepkit/bson'), deepkit = require('./deepkit');
        const unspecialized = () => { throw new Error('deepkit-jit needs a data set\'s type: libraries.forDataset()'); };
        return { encode: unspecialized, decode: unspecialized,
            prepare: (doc) => deepkit.toDeepkit(doc, true, dk), normalize: deepkit.fromDeepkit,
            specialize: (ds) => {
                const type = deepkit.inferType(ds.docs);
                const serialize = dk.getBSONSerializer(undefined, type), deserialize = dk.getBSONDeserializer(undefined, type);
                return { encode: (doc) => serialize(doc), decode: (buf) => deserialize(buf) };
            },
            note: 'getBSONSerializer, getBSONDeserializer of a type built from each data set' };
    }],
    ['msgpackr', 'msgpack', () => {
        // the module's own pack/unpack (plain MessagePack, no records), with the option its
        // error message asks for on objects of over 65,535 keys
        const m = require('msgpackr');
        const packr = new m.Packr({ useRecords: false, variableMapSize: true });
        return { encode: (doc) => packr.pack(doc), decode: (buf) => m.unpack(buf),
            note: (m.isNativeAccelerationEnabled ? 'native extract' : 'pure js') + ', ' + MSGPACKR_CONFIG };
    }],
    ['JSON', 'json', () => ({ encode: (doc) => JSON.stringify(doc), decode: (str) => JSON.parse(str) })],
    // JSON as an application stores and reads it: UTF-8 bytes in, UTF-8 bytes out
    ['JSON-bytes', 'json', () => ({ encode: (doc) => Buffer.from(JSON.stringify(doc)),
        decode: (buf) => JSON.parse(buf.toString('utf8')) })],
];

// the libraries built into the engine (no package, no require time)
const BUILTIN = ['JSON', 'JSON-bytes'];

// a native addon from benchmark/native; when it is absent the error says how to build it
function requireNative(name) {
    let file;
    try {
        file = resolvePackage(name);
    } catch (err) {
        if (err.code !== 'MODULE_NOT_FOUND') throw err;
        throw Object.assign(new Error(NATIVE_HINT), { notInstalled: true });
    }
    return require(file);
}

function makeAdapter(name, format, init) {
    const lib = { name, format, available: false, reason: 'not loaded', version: '',
        encode: null, decode: null, prepare: (doc) => doc, canon: null, normalize: null, specialize: null, note: '', loadSeconds: NaN };
    lib.load = function load() {
        if (lib.available || lib.reason !== 'not loaded') return lib;
        try {
            const start = process.hrtime.bigint();
            Object.assign(lib, init());
            lib.loadSeconds = Number(process.hrtime.bigint() - start) / 1e9;
            lib.version = BUILTIN.includes(name) ? 'V8 ' + process.versions.v8 : packageVersion(name);
            lib.available = true;
            lib.reason = '';
        } catch (err) {
            lib.reason = (err.notInstalled ? '' : 'failed to load: ') + String(err.message).split('\n')[0];
        }
        return lib;
    };
    return lib;
}

const NAMES = DEFINITIONS.map((d) => d[0]);

// the adapter to use on a data set: the library's own, or the one specialized to the data
// set's type (built on first use and kept, so verification and timing run the same functions)
function forDataset(lib, ds) {
    if (!lib.specialize) return lib;
    lib.specialized = lib.specialized || new Map();
    if (!lib.specialized.has(ds.name)) lib.specialized.set(ds.name, Object.assign(Object.create(lib), lib.specialize(ds)));
    return lib.specialized.get(ds.name);
}

// fresh (unloaded) adapters for the named libraries, in the canonical order
function create(names) {
    return DEFINITIONS.filter((d) => !names || names.includes(d[0])).map((d) => makeAdapter(d[0], d[1], d[2]));
}

module.exports = { NAMES, BUILTIN, NATIVE_DIR, create, forDataset, mapTypes, packageVersion };
