'use strict';

// Builds the package's entries for Node, Deno and Bun ("require" and "import" in
// package.json's exports) in as few files as a program loads:
//   dist/node/qbson.cjs    index.js and the modules require('qbson') loads, in one file, with
//                          the classes decode reaches one at a time with a value (Binary, Long,
//                          Int32, Double), which run on first use
//   dist/node/classes.cjs  the modules import 'qbson' loads besides (the classes it must
//                          bind, bson's namespaces), each run when first required
//   dist/node/lib/...      every other module, a file of its own at its place in lib/:
//                          those loaded on first call
//   dist/node/qbson.mjs    index.mjs, over qbson.cjs
//   dist/node/qbson.module.mjs  the same for bundlers, which cannot follow createRequire
//   dist/node/loaded.cjs   the exports of qbson.cjs's modules, by their path in lib/, and for
//                          those that run on first use a function that runs them
// Why: Node 20 spends about 0.2 ms on each file it loads (resolve, read, compile as a
// function); require('./index.js') loaded 38 files in 15.5 ms, the same code in one file
// in 7.1 ms (bson's one file: 7.5 ms), medians of 15-21 fresh processes. import 'qbson'
// loaded 59 files in 24.5 ms, these seven in 15.5 ms (bson: 7.7 ms), and now loads three.
// The classes but those four are not in qbson.cjs because parsing them cost require 1.9 ms
// when nothing uses them.
// Each module is in exactly one file, and the files require each other by relative
// paths, so a program gets one copy of each class through require, import, and any
// bundler that takes these entries.

const childProcess = require('child_process');
const fs = require('fs');
const path = require('path');
const { nameClasses, dropSameNames } = require('./class-names');

const ROOT = path.join(__dirname, '..');
const LIB = path.join(ROOT, 'lib');
const OUT = path.join(ROOT, 'dist', 'node');
const QBSON = path.join(OUT, 'qbson.cjs');
const CLASSES = path.join(OUT, 'classes.cjs');
const LOADED = path.join(OUT, 'loaded.cjs');
const MODULE = path.join(OUT, 'qbson.module.mjs');
const INDEX = path.join(ROOT, 'index.js');
// Modules of lib/ in qbson.cjs that run on first use, not at require: the classes decode reaches
// one at a time with a value, and import binds. In files of their own (as they were), a first
// decode meeting an int64 past 2^53 loaded long.js, and import loaded four files more; in qbson.cjs,
// by benchmark/start-instructions.js: require 40.1M -> 44.8M instructions (bson's: 73.0M), import
// 74.2M -> 65.8M (bson's: 77.7M), the first decode of flat_bson 15.4M -> 11.1M (bson's: 12.9M).
// Compiled at load like the rest (rewriteForLoading): left to compile when first run, they saved
// require 1.0M and cost import 0.9M and that first decode 0.8M.
const ON_DEMAND_IN_QBSON = ['types/long.js', 'types/int32.js', 'types/double.js', 'types/binary.js'];

// {b: Binary, l: 2^60, i: 7, d: 1.5}, read with promoteValues: false: a value of each class
// decode loads on first meeting one
const FIRST_VALUES = '2c000000' + '05620002000000006162' + '126c000000000000000010' + '10690007000000' + '016400000000000000f83f' + '00';

// the modules of lib/ loaded in a fresh process by require('./index.js'); then by a
// decode of FIRST_VALUES; then once every export is read as well (as import 'qbson'
// reads them): atImport is what the last adds to the first, less what the decode loads
function modulesLoaded() {
    const script = `const own = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(LIB + path.sep)}));
        const qbson = require('./index.js');
        const atRequire = own();
        qbson.decode(Buffer.from('${FIRST_VALUES}', 'hex'), { promoteValues: false });
        const atFirstValues = own();
        for (const name of Object.keys(qbson)) qbson[name];
        console.log(JSON.stringify({ atRequire, atFirstValues, atImport: own() }));`;
    const res = childProcess.spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
    if (res.status !== 0) throw new Error('require("./index.js") failed: ' + res.stderr);
    const { atRequire, atFirstValues, atImport } = JSON.parse(res.stdout);
    return { atRequire: new Set(atRequire), atImport: atImport.filter((f) => !atFirstValues.includes(f)) };
}

// every module of lib/ that index.js may come to load
async function reachableModules(esbuild) {
    const result = await esbuild.build({
        entryPoints: [path.join(ROOT, 'index.js')],
        bundle: true,
        platform: 'node',
        write: false,
        metafile: true,
        logLevel: 'silent',
    });
    return Object.keys(result.metafile.inputs).map((f) => path.join(ROOT, f)).filter((f) => f.startsWith(LIB + path.sep));
}

// a relative path from directory `from` to file `to`, as require takes it
function requirePath(from, to) {
    const rel = path.relative(from, to).split(path.sep).join('/');
    return rel.startsWith('.') ? rel : './' + rel;
}

const libPath = (file) => path.relative(ROOT, file).split(path.sep).join('/');
const ownFile = (file) => path.join(OUT, path.relative(ROOT, file));

// The plugin for one build: a module of `members` is bundled; a module elsewhere is
// required from its file, by code written in place of the module:
//   in qbson.cjs    its exports, recorded in loaded.cjs as qbson.cjs ran
//   in classes.cjs  the function there that runs it once and returns its exports
//   on its own      its file
// outDirOf(module): the directory of the file the requiring module is built into.
function placePlugin(members, { atRequire, atImport, onDemand }, outDirOf = () => OUT) {
    const inClasses = new Set(atImport);
    const elsewhere = (target, fromDir) => {
        const name = JSON.stringify(libPath(target));
        if (atRequire.has(target)) return `module.exports = require(${JSON.stringify(requirePath(fromDir, LOADED))})[${name}];`;
        if (onDemand.has(target)) return `module.exports = require(${JSON.stringify(requirePath(fromDir, LOADED))})[${name}]();`;
        if (inClasses.has(target)) return `module.exports = require(${JSON.stringify(requirePath(fromDir, CLASSES))})[${name}]();`;
        return `module.exports = require(${JSON.stringify(requirePath(fromDir, ownFile(target)))});`;
    };
    return {
        name: 'qbson-place',
        setup(build) {
            build.onResolve({ filter: /^\.\.?\// }, (args) => {
                if (args.kind === 'entry-point') return undefined;
                // the requires written by this plugin, of files in dist/node
                if (args.namespace === 'qbson-elsewhere' || args.path.endsWith('/loaded.cjs')) return { path: args.path, external: true };
                const target = require.resolve(path.resolve(args.resolveDir, args.path));
                if (members(target)) return undefined;
                // esbuild loads a path once for all the build's entries: the path names the
                // directory of the requiring module's output too (relative to dist/node, which
                // the built files then do not name)
                const fromDir = outDirOf(args.importer);
                return { path: libPath(target) + '?' + (path.relative(OUT, fromDir).split(path.sep).join('/') || '.'), namespace: 'qbson-elsewhere', pluginData: elsewhere(target, fromDir) };
            });
            build.onLoad({ filter: /.*/, namespace: 'qbson-elsewhere' }, (args) => ({ contents: args.pluginData, loader: 'js' }));
            build.onLoad({ filter: /\.js$/ }, (args) => {
                const source = fs.readFileSync(args.path, 'utf8');
                if (!atRequire.has(args.path)) return { contents: source, loader: 'js' };
                const record = `\nrequire(${JSON.stringify(requirePath(OUT, LOADED))})[${JSON.stringify(libPath(args.path))}] = module.exports;\n`;
                return { contents: source + record, loader: 'js' };
            });
        },
    };
}

async function buildNode(banner) {
    const esbuild = require('esbuild');
    const { atRequire, atImport: loadedAtImport } = modulesLoaded();
    const onDemand = new Set(ON_DEMAND_IN_QBSON.map((f) => path.join(LIB, f)));
    const atImport = loadedAtImport.filter((f) => !onDemand.has(f));
    const loaded = { atRequire, atImport, onDemand };
    const own = (await reachableModules(esbuild)).filter((f) => !atRequire.has(f) && !atImport.includes(f) && !onDemand.has(f));
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(OUT, { recursive: true });
    // keepNames: in one bundle esbuild renames classes (BSONError2, and _ObjectId for a class
    // that names itself); this keeps each its own name, as bson's classes and stack traces have
    const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node18', keepNames: true, logLevel: 'silent', banner: { js: banner } };
    // qbson.cjs's entry: index.js, after a function in loaded.cjs per module of ON_DEMAND_IN_QBSON
    // that runs it on first call, for the other files
    const qbsonEntry = [...onDemand].map((f) => `require(${JSON.stringify(requirePath(OUT, LOADED))})[${JSON.stringify(libPath(f))}] = () => require(${JSON.stringify(requirePath(ROOT, f))});\n`).join('') +
        `module.exports = require(${JSON.stringify(requirePath(ROOT, INDEX))});\n`;
    // classes.cjs's entry: a function per module, which runs it on first call
    const classesEntry = 'module.exports = {\n' +
        atImport.map((f) => `    ${JSON.stringify(libPath(f))}: () => require(${JSON.stringify(requirePath(ROOT, f))}),\n`).join('') + '};\n';
    await Promise.all([
        esbuild.build({ ...common, stdin: { contents: qbsonEntry, resolveDir: ROOT, sourcefile: 'qbson.cjs' }, outfile: QBSON,
            plugins: [placePlugin((f) => f === INDEX || atRequire.has(f) || onDemand.has(f), loaded)] }),
        esbuild.build({ ...common, stdin: { contents: classesEntry, resolveDir: ROOT, sourcefile: 'classes.cjs' }, outfile: CLASSES,
            plugins: [placePlugin((f) => atImport.includes(f), loaded)] }),
        esbuild.build({ ...common, entryPoints: own, outbase: ROOT, outdir: OUT, plugins: [placePlugin(() => false, loaded, (f) => path.dirname(ownFile(f)))] }),
    ]);
    for (const file of [QBSON, CLASSES, ...own.map(ownFile)]) rewriteForLoading(file);
    fs.writeFileSync(LOADED, banner + '\n// the exports of the modules in qbson.cjs, by their path in lib/\nmodule.exports = Object.create(null);\n');
    const esm = fs.readFileSync(path.join(ROOT, 'index.mjs'), 'utf8');
    if (!esm.includes("('./index.js')")) throw new Error("index.mjs no longer loads './index.js'");
    fs.writeFileSync(path.join(OUT, 'qbson.mjs'), banner + '\n' + esm.replace("('./index.js')", "('./qbson.cjs')"));
    fs.writeFileSync(MODULE, banner + '\n' + moduleEntry(esm));
    return { files: [QBSON, CLASSES, path.join(OUT, 'qbson.mjs'), MODULE, LOADED, ...own.map(ownFile)] };
}

// Two rewrites of esbuild's output that make loading it cheaper, each checked:
// - esbuild wraps each CommonJS module in a method (`"lib/x.js"(exports2, module2) {`), which V8
//   compiles lazily: it pre-parses the module as the file loads, then parses it again in full
//   when the module runs, which for these files is at once. Written as a function in
//   parentheses, it is compiled once, as the file loads (V8 compiles such functions eagerly).
// - keepNames adds `__name(f, "f")` after every function: a call at load that sets a name the
//   function already has. Those are dropped; the ones that restore a renamed function's name
//   (`__name(describe2, "describe")`) stay, and classes are named as they are created
//   (class-names.js says why).
// require('qbson'), medians of 21 fresh processes: 8.1 ms before keepNames, 8.2-8.8 ms with it,
// 7.6 ms with both rewrites; import 18.7, 19.7-20.2 and 18.7 ms (docs/design.md has the cold
// start section's figures).
function rewriteForLoading(file) {
    const source = fs.readFileSync(file, 'utf8');
    const lines = source.split('\n');
    let open = false;
    let rewritten = 0;
    for (let i = 0; i < lines.length; i++) {
        const start = /^  ("[^"\n]*")\(([\w, ]*)\) \{$/.exec(lines[i]);
        if (start !== null && !open) {
            lines[i] = `  ${start[1]}: (function (${start[2]}) {`;
            open = true;
        } else if (open && lines[i] === '});' && lines[i - 1] === '  }') {
            lines[i - 1] = '  })';
            open = false;
            rewritten++;
        }
    }
    const wrappers = source.split('__commonJS({').length - 1;
    if (open || rewritten !== wrappers) throw new Error(`${file}: ${rewritten} of ${wrappers} module wrappers rewritten; esbuild's output has changed`);
    fs.writeFileSync(file, nameClasses(dropSameNames(lines.join('\n')), path.relative(ROOT, file)).source);
}

// index.mjs for bundlers (the "module" condition): a static import of qbson.cjs, which a
// bundler follows, where Node's createRequire(import.meta.url) would leave a call to a file
// the bundle does not have. Node itself takes qbson.mjs: importing qbson.cjs statically
// had it read every export to name them, 30-45 ms against 15.5 ms.
function moduleEntry(esm) {
    const lines = ["import { createRequire } from 'node:module';", "const qbson = createRequire(import.meta.url)('./index.js');"];
    for (const line of lines) if (!esm.includes(line)) throw new Error('index.mjs no longer has the line ' + line);
    const notes = esm.slice(0, esm.indexOf(lines[0])).split('\n').filter((l) => l !== '').length;
    return ['// ESM entry for bundlers (package.json\'s "module" condition): qbson.mjs with a static import of',
        '// qbson.cjs, which a bundler follows. Node takes qbson.mjs (scripts/build-node.js says why).',
        ...esm.split('\n').slice(notes)].join('\n')
        .replace(lines[0], "import qbson from './qbson.cjs';").replace('\n' + lines[1] + '\n', '');
}

module.exports = { buildNode, reachableModules, OUT };
