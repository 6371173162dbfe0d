// Bundles test/runtimes/conformance.mjs with fast-check, the spec corpus and
// Node's outcomes for the bad inputs into one ES module with no import at all:
//   node test/runtimes/build.mjs [OUT_DIR]     (default .build/runtimes)
// writes OUT_DIR/conformance.mjs, whose run(qbson, bson, { runs, seed }) gives the report.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { BAD_INPUTS, errorOutcome } from './bad-inputs.mjs';

const require = createRequire(import.meta.url);
const { loadCorpus } = require('../support/corpus.js');
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
export const DEFAULT_OUT = path.join(ROOT, '.build', 'runtimes');

// each bad input's outcome on Node, the reference for every runtime
function nodeErrors() {
    const qbson = require('../../index.js');
    const out = {};
    for (const bad of BAD_INPUTS) out[bad.name] = errorOutcome(qbson, bad);
    return out;
}

export async function buildConformance(outDir = DEFAULT_OUT) {
    fs.mkdirSync(outDir, { recursive: true });
    const entry = [
        "import { runConformance } from './conformance.mjs';",
        `const CORPUS = ${JSON.stringify(loadCorpus())};`,
        `const NODE_ERRORS = ${JSON.stringify(nodeErrors())};`,
        'export function run(qbson, bson, options) {',
        '    return runConformance(qbson, bson, Object.assign({ corpus: CORPUS, nodeErrors: NODE_ERRORS }, options));',
        '}',
    ].join('\n');
    const outfile = path.join(outDir, 'conformance.mjs');
    await esbuild.build({
        stdin: { contents: entry, resolveDir: HERE, sourcefile: 'conformance-entry.mjs', loader: 'js' },
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        target: 'es2020',
        outfile,
        logLevel: 'error',
    });
    return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    console.log(await buildConformance(process.argv[2] ? path.resolve(process.argv[2]) : undefined));
}
