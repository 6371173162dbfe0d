// Bundles benchmark/datasets.js (and the generators it uses) into one ES module
// with no Node built-in, so every runtime builds the same data sets from the same
// seeds: .build/runtimes/datasets.mjs exports { NAMES, load }. The driver
// benchmark spec's documents are embedded; bson comes from its browser build.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
export const OUT_DIR = path.join(ROOT, '.build', 'runtimes');
const BSON_BROWSER = path.join(ROOT, 'node_modules', 'bson', 'lib', 'bson.mjs');

// fs and path as datasets.js uses them, over the embedded spec documents
function shims() {
    const dataDir = path.join(ROOT, 'benchmark', 'data');
    const files = {};
    for (const f of fs.readdirSync(dataDir).filter((name) => name.endsWith('.json'))) files[f] = fs.readFileSync(path.join(dataDir, f), 'utf8');
    return {
        fs: `const FILES = ${JSON.stringify(files)};
            const base = (f) => f.slice(f.lastIndexOf('/') + 1);
            export function existsSync(f) { return base(f) in FILES; }
            export function readFileSync(f) { return FILES[base(f)]; }`,
        path: 'export function join(...parts) { return parts.join("/"); }',
        // bson's browser build, as the one module instance every runtime can load
        bson: `export * from ${JSON.stringify(path.relative(OUT_DIR, BSON_BROWSER).split(path.sep).join('/'))};`,
    };
}

const shimPlugin = (contents) => ({
    name: 'runtime-shims',
    setup(build) {
        build.onResolve({ filter: /^(fs|path|bson)$/ }, (args) => ({ path: args.path, namespace: 'shim' }));
        build.onResolve({ filter: /bson\.mjs$/ }, (args) => ({ path: args.path, external: true }));
        build.onLoad({ filter: /.*/, namespace: 'shim' }, (args) => ({ contents: contents[args.path], loader: 'js', resolveDir: OUT_DIR }));
    },
});

export async function buildDatasets() {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    const outfile = path.join(OUT_DIR, 'datasets.mjs');
    await esbuild.build({
        entryPoints: [path.join(ROOT, 'benchmark', 'datasets.js')],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        target: 'es2020',
        outfile,
        define: { __dirname: '"/benchmark"' },
        // generate.js makes random bytes with Buffer.alloc; a Uint8Array where there is no Buffer
        banner: { js: 'const Buffer = globalThis.Buffer || { alloc: (n) => new Uint8Array(n) };' },
        plugins: [shimPlugin(shims())],
        logLevel: 'error',
    });
    // esbuild's CommonJS wrapper: datasets.js's exports as the default export
    return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(await buildDatasets());
