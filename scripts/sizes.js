'use strict';

// What a browser downloads: one-line programs importing qbson through its
// package.json (the `browser` condition, "sideEffects": false), bundled and
// minified by esbuild, and their size gzipped at level 9; the same programs
// written for bson@7 beside them, with qbson's budgets and targets (below).
// docs/runtimes.md shows the table this prints; `npm run benchmark` prints it too.
//
//   node scripts/sizes.js            a markdown table
//   node scripts/sizes.js --analyze  and esbuild's account of the bytes of "encode + decode" and
//                                    "everything", and the bytes of the type classes alone
//   node scripts/sizes.js --floor    and encode + decode's size with parts of it dropped (floor())

const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const ROOT = path.join(__dirname, '..');

// every name bson@7 exports
const BSON_NAMES = Object.keys(require('bson')).filter((name) => name !== 'default').sort();
const PROGRAMS = {
    'encode + decode': "import { encode, decode } from 'qbson';\nglobalThis.out = decode(encode({ a: 1 }));\n",
    'encode + decode + EJSON': "import { encode, decode, EJSON } from 'qbson';\nglobalThis.out = EJSON.stringify(decode(encode({ a: 1 })));\n",
    "bson@7's names": `import { ${BSON_NAMES.join(', ')} } from 'qbson';\nglobalThis.out = [${BSON_NAMES.join(', ')}];\n`,
    'everything': "import * as qbson from 'qbson';\nglobalThis.qbson = qbson;\n",
};
// the same programs written for bson@7, by the same keys
const BSON_PROGRAMS = {
    'encode + decode': { label: 'serialize + deserialize',
        source: "import { serialize, deserialize } from 'bson';\nglobalThis.out = deserialize(serialize({ a: 1 }));\n" },
    'encode + decode + EJSON': { label: 'serialize + deserialize + EJSON',
        source: "import { serialize, deserialize, EJSON } from 'bson';\nglobalThis.out = EJSON.stringify(deserialize(serialize({ a: 1 })));\n" },
    "bson@7's names": { label: 'its 32 names',
        source: `import { ${BSON_NAMES.join(', ')} } from 'bson';\nglobalThis.out = [${BSON_NAMES.join(', ')}];\n` },
    'everything': { label: 'its whole browser build',
        source: "import * as bson from 'bson';\nglobalThis.bson = bson;\n" },
};

// Gzipped bytes each qbson program may take; test/size-budget.test.js fails past them, and
// when one falls more than BUDGET_SLACK under its budget, so that a saving is kept.
// Today's sizes, rounded up to the next 0.1 KB, until the targets (TARGETS, issue 45) are met;
// then the targets themselves. Against bson's programs bundled in the same run, gzipped:
//   encode + decode          <= bson's serialize + deserialize (21.7 KB with esbuild 0.28)
//   bson@7's names           <= bson's bundle of the same names (22.8 KB)
//   everything               <= 1.5 x bson's whole browser build (1.5 x 23.1 KB, 34.6 KB)
//   encode + decode + EJSON  has no target; its budget only keeps it from growing
// Raised, each by what it was measured to take:
//   encode + decode + EJSON, bson@7's names: +0.6, +0.8 KB for one reader of every entry
//     point's options, one ERR_BSON_OPTION wording per mistake (lib/options.js, issue 44)
//   everything: +0.6 KB for the same, and +16.7 KB (63.6 -> 80.3) for compile() and its
//     schema codecs (lib/schema/, issue 47), which only a program importing compile carries
//   all four: +3.0 KB for the decoder's readers of repeated shapes (lib/shape-reader.js,
//     issue 46), which decode deepkit's cursor reply 2.7x and its one item 2.3x as fast as
//     before (decode rates against bson's in one run of npm run benchmark: 734 and 682,
//     from 267 and 302)
//   all four: +2.2 KB for the encoder's writers of repeated shapes (lib/shape-writer.js,
//     issue 46), which take 37-44% fewer instructions to encode deepkit's cursor reply and
//     its one item (docs/design.md, "Writers for repeated shapes", has the figures)
//   all four: +0.4 KB for readers of what documents of one set of keys share
//     (lib/shape-reader.js mergeShapes, widen), which take 27% fewer instructions to decode
//     api_statuses and 34% fewer to decode a cursor reply of 1,000 varied statuses
//   everything: +0.4 KB more for the schema codecs' checker and writer of documents whose
//     keys come in another order (api_statuses' codec.encode 0.34x -> 1.28x ajv then encode)
//   everything: +0.2 KB (86.3 -> 86.41 KB, rounded up) for the codecs' slow paths decoding
//     with their options read once (codec.decode of full_bson 14% and of catalog_by_id 54%
//     fewer instructions), and for new LazyDocument() refused with a BSONError
//   all four: +0.1 KB (to 43.46, 47.49, 49.45 and 86.52 KB) for roots under 32 bytes read by
//     their shape's reader (lib/decoder.js readSmallRoot): {a: 1234} decodes in 721 instructions
//     instead of 1,928 once a process has decoded documents of other shapes (37 ns against 57)
//   all four: +0.2-0.3 KB (to 43.69, 47.73, 49.67 and 86.74 KB) for readers and writers of
//     documents that begin with _id keyed by the element after it, and readers
//     that leave a nested document to the decoder compiled again for the shape their documents
//     come to have (lib/shape-reader.js refine): two_collections decodes in 47% fewer
//     instructions, and mixed in 176 ns instead of 229 once a process has decoded object's and
//     nested-object's documents
//   encode + decode: +0.04 KB (to 43.73 KB) for the decoder's scratch of numbers growing to
//     the longest array read (decode of double_array and int32_array 29-31% faster)
//   everything: +0.7 KB (86.74 -> 87.43 KB) for the same and the schema codecs reading and writing arrays of
//     numbers as decode and encode do (lib/schema/generate.js numbersFirst, generate-writer.js
//     numberRun): codec.decode of double_array and int32_array in 29% less time, codec.encode in
//     23% and 29% fewer instructions
//   everything: +0.4 KB (87.35 -> 87.78 KB) for the schema codecs building documents with optional
//     properties missing by a function made for each set present (lib/schema/generate.js
//     Builders): codec.decode of two_collections 330 -> 231 µs per 1,000 documents
//   all four: +0.1 KB (to 43.82, 47.87, 49.80 and 87.89 KB) for binary values of 4 KiB or more
//     decoded as views of the input, as bson's are (lib/bytes.js valueBytes): a document holding
//     a 1 MiB Binary decoded at 0.01-0.02x bson's speed, copying it, and decodes at 2.0x
//   all four: +0.1 KB (to 43.94, 47.99, 49.88 and 87.97 KB) for the encoder's writers compiled
//     only for shapes at least 1 in 32 of the objects of their level (lib/shape-writer.js
//     COMPILE_WITHIN): 200 maps keyed by ids, encoded in turn, took 36.4M instructions per pass
//     and 150-250 ms of compiling, and take 4.2M (id_keyed_maps)
//   all four: +0.4 KB (to 44.29, 48.32, 50.24 and 88.31 KB) for readers of documents that leave
//     out fields, and of arrays of such documents (lib/shape-reader.js mergeShapes: optional
//     fields): sparse_fields decodes in 37% fewer instructions, api_statuses in 30% fewer and
//     small_docs_array in 28% fewer
//   encode + decode: +0.03 KB (to 44.33 KB; EJSON and bson's names stay within theirs) for
//     mergeShapes' merge of two key lists made a function of its own (lib/shape-reader.js
//     mergeKeyLists), which the schema codecs' learnt key orders use too, not a second copy
//   everything: +0.9 KB (to 89.25 KB) for the schema codecs learning the order documents
//     hold their keys in (lib/schema/key-orders.js), building documents past 16 sets of
//     optional properties by a constructor, and reading wide documents by key lookups:
//     codec.decode of sparse_fields in 41% fewer instructions, api_statuses 26%, large 19%,
//     id_keyed_maps 96% (106.8M -> 4.1M)
//   bson@7's names: +0.1 KB (50.29 -> 50.34 KB; the others stay within theirs) for the
//     decoder's readers taking a field null, or an array empty, in every document learnt
//     in place (lib/shape-reader.js emptyArrayValue): catalog_by_id decodes in 36% fewer
//     instructions, the tweet in 25% fewer, api_statuses in 14% fewer
//   everything: +0.3 KB (89.30 -> 89.52 KB) for the schema codecs reading the sub-documents and
//     arrays of documents of more than 256 properties by their generated readers
//     (lib/schema/generate.js wideReaders): codec.decode of catalog_by_id in 45% fewer
//     instructions (18.25M -> 9.96M)
//   all four: +0.2 KB (to 44.60, 48.59, 50.54 and 89.75 KB) for the decoder's readers calling
//     one function for a value they leave to the decoder, and writing a large shape met twice in
//     one reader once (lib/shape-reader.js anyValue, emitDocument): the readers compiled in the
//     first decode of api_statuses went from 199 kB of source to 132 kB, and that decode from
//     350M instructions to 300M (benchmark/start-instructions.js)
//   encode + decode, EJSON: +0.1 KB (to 44.65 and 48.66 KB; the others stay within theirs)
//     for a process's first 16 documents decoded without looking up the shape readers
//     (lib/decoder.js documentsBeforeShapes) and ObjectId's constructor split in two: the
//     first decodes of small_doc, tweet and flat_bson take 4.65M, 8.68M and 10.82M
//     instructions instead of 5.48M, 9.13M and 11.11M (benchmark/start-instructions.js)
//   all four: +0.1 KB (to 44.75, 48.76, 50.72 and 89.90 KB) for a process's first encode
//     written without entering keys in the key table unless it outgrows 64 kB (lib/encode.js
//     FIRST_ENCODES), and an ObjectId written apart from the other types (writeTypedElement):
//     the first encodes of small_doc, tweet and flat_bson take 4.72M, 6.59M and 6.46M
//     instructions instead of 5.57M, 7.30M and 7.37M (bson 3.90M, 5.79M and 7.57M)
//   encode + decode + EJSON, everything: +0.1 KB (to 48.81 and 89.95 KB; the others stay within
//     theirs) for a root looked up by its shape's reader in decodeRoot, before decodeStaged and
//     decodeDocument (lib/decoder.js): array, object and mixed decode in 7-16% fewer
//     instructions, api_statuses in 4% fewer
//   all four: +0.3-0.4 KB (to 45.13, 49.13, 51.04 and 90.62 KB) for the generated constructors
//     keeping one object each from stand-ins (lib/stand-in.js), so that V8 does not throw
//     the readers' optimized code away at every major GC: five decodes of api_statuses after
//     a pause with major GCs took 9.9 ms instead of 34.5, deepkit_cursor's 13.9 instead of 27.4
//     (docs/design.md, "Kept maps"); and everything a further +0.3 KB for the schema codecs
//     building documents by those constructors rather than literals, which V8 pretenured
//     (docs/schema.md)
//   all four: +0.1 KB (to 45.21, 49.23 and 51.14 KB) for kept objects holding null in fields
//     that may hold heap numbers (lib/stand-in.js), so that a field whose first value is a
//     small integer and a later one a double gives no map nothing keeps: the schema section's
//     tweet codec.decode ran at 0.80-0.83x decode before, 0.99-1.00x after; and everything
//     +0.3 KB (to 90.92 KB) for that in the codecs and for the schema interpreter checking a
//     document with fewer fields than its schema names field by field (id_keyed_maps'
//     codec.encode: 46 passes a second before, 337 after)
//   all four: +0.1 KB (to 45.32, 49.33, 51.21 and 91.04 KB) for a process's first 256 strings
//     and keys decoded by the native method (lib/utf8.js COLD_STRINGS), which spares the first
//     decode compiling the JavaScript paths: a tweet's first decode took 1.5 ms instead of
//     2.3 (bson 1.5), small_doc's 0.9 instead of 1.2 (1.0), flat_bson's 2.6 instead of 3.4 (3.5)
const BUDGETS = {
    'encode + decode': 45400,
    'encode + decode + EJSON': 49400,
    "bson@7's names": 51300,
    'everything': 91100,
};
const BUDGET_SLACK = 1000;
// each target as a multiple of bson's program of the same key
const TARGETS = { 'encode + decode': 1, "bson@7's names": 1, 'everything': 1.5 };

// bson's package folder: its exports hide package.json, so it is found from its require entry (lib/bson.cjs)
const BSON_DIR = path.dirname(path.dirname(require.resolve('bson', { paths: [ROOT] })));

// Bundles `source` as a program in a folder where 'qbson' is this repository and 'bson' the bson it compares with;
// returns the minified bytes and the files esbuild put in them (paths from ROOT).
// rewrite(file, text): a module's source as bundled instead of its own, or undefined (--floor).
async function bundle(source, analyze = false, rewrite = null) {
    const esbuild = require('esbuild');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-size-'));
    try {
        fs.mkdirSync(path.join(dir, 'node_modules'));
        fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'qbson'), 'dir');
        fs.symlinkSync(BSON_DIR, path.join(dir, 'node_modules', 'bson'), 'dir');
        fs.writeFileSync(path.join(dir, 'main.mjs'), source);
        const result = await esbuild.build({
            entryPoints: [path.join(dir, 'main.mjs')],
            bundle: true,
            minify: true,
            platform: 'browser',
            format: 'esm',
            write: false,
            metafile: true,
            logLevel: 'silent',
            plugins: rewrite === null ? [] : [rewritePlugin(rewrite)],
        });
        const output = Object.values(result.metafile.outputs)[0];
        const inputs = Object.keys(output.inputs).map((f) => path.relative(ROOT, path.resolve(f)).split(path.sep).join('/'));
        const text = analyze ? await esbuild.analyzeMetafile(result.metafile) : '';
        return { bytes: result.outputFiles[0].contents, inputs, analysis: text };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

const gzipped = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;

// One row per program: qbson's and bson's minified and gzipped bytes, qbson's budget, and its
// target in bytes where it has one (a multiple of bson's gzipped size).
async function measure() {
    const rows = [];
    for (const [name, source] of Object.entries(PROGRAMS)) {
        const q = await bundle(source), b = await bundle(BSON_PROGRAMS[name].source);
        const bsonGzipped = gzipped(b.bytes);
        rows.push({ name, minified: q.bytes.length, gzipped: gzipped(q.bytes), inputs: q.inputs, budget: BUDGETS[name],
            target: name in TARGETS ? Math.floor(TARGETS[name] * bsonGzipped) : NaN,
            bson: { label: BSON_PROGRAMS[name].label, minified: b.bytes.length, gzipped: bsonGzipped, inputs: b.inputs } });
    }
    return rows;
}

const kb = (n) => (n / 1000).toFixed(1) + ' KB';

// the rows as a table: a list of lines of cells, header first
function tableRows(rows) {
    const header = ['program', 'qbson minified', 'qbson gzipped', 'budget', 'bson@7 program', 'bson minified', 'bson gzipped',
        'qbson ÷ bson', 'target'];
    return [header].concat(rows.map((r) => [r.name, kb(r.minified), kb(r.gzipped), kb(r.budget), r.bson.label, kb(r.bson.minified),
        kb(r.bson.gzipped), (r.gzipped / r.bson.gzipped).toFixed(2) + '×',
        isFinite(r.target) ? '≤ ' + kb(r.target) + (r.gzipped <= r.target ? ' met' : ' missed') : '-']));
}

// esbuild's account of the bytes of encode + decode and of everything; and the type classes
// alone, which a program importing any one of them gets all of, from qbson as from bson
async function analyze() {
    for (const name of ['encode + decode', 'everything']) console.log(`\n${name}:` + (await bundle(PROGRAMS[name], true)).analysis);
    const oneClass = (lib) => `import { Long } from '${lib}';\nglobalThis.out = Long;\n`;
    const q = await bundle(oneClass('qbson')), b = await bundle(oneClass('bson'));
    console.log(`\none class (import { Long }): qbson ${kb(q.bytes.length)} minified, ${kb(gzipped(q.bytes))} gzipped; ` +
        `bson ${kb(b.bytes.length)} minified, ${kb(gzipped(b.bytes))} gzipped`);
}

// --floor: how small encode + decode could get by dropping parts of it, each program bundled
// with those modules emptied (it no longer runs; only its size is measured):
//   the fast paths       readers and writers of repeated shapes, wide objects, the key cache and
//                        table, string batches, number runs (docs/runtimes.md: what each buys)
//   the options' parts   decode's fields option and the options that map values
//   the wording          every string over 12 characters made empty: error messages, mostly
const FAST_PATH_MODULES = ['shape-reader', 'shape-writer', 'shapes', 'stand-in', 'wide-object', 'key-cache', 'key-table',
    'string-batch', 'number-runs'];
const OPTION_MODULES = ['projection', 'element-walker', 'path', 'value-mapping'];
const LONG_STRING = 12;

function rewritePlugin(rewrite) {
    return {
        name: 'qbson-floor',
        setup(build) {
            build.onLoad({ filter: /\.js$/ }, (args) => {
                const contents = rewrite(path.relative(ROOT, args.path).split(path.sep).join('/'), fs.readFileSync(args.path, 'utf8'));
                return contents === undefined ? undefined : { contents, loader: 'js' };
            });
        },
    };
}

// source with its string literals over LONG_STRING characters made empty, but for require's,
// and so the text of template literals (Babel's parser, which nyc brings, finds them)
function withoutLongStrings(source) {
    const { tokens } = require('@babel/parser').parse(source, { sourceType: 'script', tokens: true });
    let out = source;
    for (let i = tokens.length - 1; i >= 0; i--) {
        const t = tokens[i];
        const required = i > 1 && tokens[i - 2].value === 'require';
        if (t.type.label === 'string' && t.value.length > LONG_STRING && !required) out = out.slice(0, t.start) + "''" + out.slice(t.end);
        if (t.type.label === 'template' && t.value.length > LONG_STRING) out = out.slice(0, t.start) + out.slice(t.end);
    }
    return out;
}

async function floor() {
    const inLib = (file, names) => names.some((n) => file === `lib/${n}.js`);
    const steps = [
        ['as it is', () => undefined],
        ['without the fast paths', (f) => (inLib(f, FAST_PATH_MODULES) ? 'module.exports = {};' : undefined)],
        ['without the fast paths and the options\' parts', (f) => (inLib(f, [...FAST_PATH_MODULES, ...OPTION_MODULES]) ? 'module.exports = {};' : undefined)],
        ['without them and without the wording', (f, text) => (inLib(f, [...FAST_PATH_MODULES, ...OPTION_MODULES]) ? 'module.exports = {};'
            : f.startsWith('lib/') ? withoutLongStrings(text) : undefined)],
    ];
    const b = await bundle(BSON_PROGRAMS['encode + decode'].source);
    console.log(`\nencode + decode, parts dropped (bson's serialize + deserialize: ${kb(gzipped(b.bytes))} gzipped):`);
    for (const [label, rewrite] of steps) {
        const q = await bundle(PROGRAMS['encode + decode'], false, rewrite);
        console.log(`  ${label}: ${kb(q.bytes.length)} minified, ${kb(gzipped(q.bytes))} gzipped (${(gzipped(q.bytes) / gzipped(b.bytes)).toFixed(2)}× bson)`);
    }
}

module.exports = { bundle, measure, tableRows, gzipped, PROGRAMS, BSON_PROGRAMS, BUDGETS, BUDGET_SLACK, TARGETS };

if (require.main === module) {
    (async () => {
        const [header, ...rows] = tableRows(await measure());
        const line = (cells) => '| ' + cells.join(' | ') + ' |';
        console.log([line(header), line(header.map((h, i) => (i === 0 || i === 4 ? ':---' : '---:'))), ...rows.map(line)].join('\n'));
        if (process.argv.includes('--analyze')) await analyze();
        if (process.argv.includes('--floor')) await floor();
    })().catch((err) => {
        console.error(err.message);
        process.exit(1);
    });
}
