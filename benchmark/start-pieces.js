'use strict';

// Where the cold start's milliseconds go (start.js gives the totals beside bson's). Each figure
// is the median of `rounds` fresh processes, qbson and bson taking turns, each process first
// loading what start.js's child loads before it times anything (v8, ./libraries, ./timing):
//   compile          the CommonJS entry compiled, as require compiles it (vm.compileFunction)
//   run              that function run: every module of the entry loaded
//   import, by step  an empty ES module (Node's ESM loader); then createRequire of an empty
//                    CommonJS file; then of qbson.cjs; then qbson.mjs, whose named exports load
//                    the classes an import binds (dist/node/classes.cjs); bson.mjs beside them
//
//   node benchmark/start-pieces.js [--rounds N]

const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');

const ROOT = path.join(__dirname, '..');
const PRELOAD = `require('v8'); require(${JSON.stringify(path.join(__dirname, 'libraries'))}); require(${JSON.stringify(path.join(__dirname, 'timing'))});`;
const ENTRIES = {
    qbson: { cjs: path.join(ROOT, 'dist', 'node', 'qbson.cjs'), esm: path.join(ROOT, 'dist', 'node', 'qbson.mjs') },
    bson: { cjs: require.resolve('bson'), esm: path.join(path.dirname(require.resolve('bson')), 'bson.mjs') },
};

// milliseconds printed by a child, as numbers
function child(code) {
    return childProcess.execFileSync(process.execPath, ['-e', PRELOAD + code]).toString().trim().split(' ').map(Number);
}

const clock = 'const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;';

function compileAndRun(file) {
    return child(`${clock} const vm = require('vm'), fs = require('fs'), path = require('path');
        const source = fs.readFileSync(${JSON.stringify(file)}, 'utf8');
        let t = process.hrtime.bigint();
        const fn = vm.compileFunction(source, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: ${JSON.stringify(file)} });
        const compile = ms(t);
        const m = { exports: {} };
        t = process.hrtime.bigint();
        fn.call(m.exports, m.exports, require('module').createRequire(${JSON.stringify(file)}), m, ${JSON.stringify(file)}, path.dirname(${JSON.stringify(file)}));
        console.log(compile, ms(t));`);
}

function importTime(url) {
    return child(`${clock} const t = process.hrtime.bigint(); import(${JSON.stringify(url)}).then(() => console.log(ms(t)));`)[0];
}

// the ES modules of the import's steps, in a temporary folder
function importSteps(dir) {
    const empty = path.join(dir, 'empty.cjs');
    fs.writeFileSync(empty, 'module.exports = {};\n');
    const viaRequire = (name, target) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, `import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)(${JSON.stringify(target)});\n`);
        return pathToFileURL(file).href;
    };
    fs.writeFileSync(path.join(dir, 'empty.mjs'), 'export default 1;\n');
    return [
        ['an empty ES module', pathToFileURL(path.join(dir, 'empty.mjs')).href],
        ['+ createRequire of an empty file', viaRequire('require-empty.mjs', empty)],
        ['+ qbson.cjs instead', viaRequire('require-qbson.mjs', ENTRIES.qbson.cjs)],
        ['qbson.mjs (+ the classes its names bind)', pathToFileURL(ENTRIES.qbson.esm).href],
        ['bson.mjs', pathToFileURL(ENTRIES.bson.esm).href],
    ];
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

function main(argv) {
    const at = argv.indexOf('--rounds');
    const rounds = at >= 0 ? Number(argv[at + 1]) : 21;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-pieces-'));
    try {
        const steps = importSteps(dir);
        const load = { qbson: [], bson: [] };
        const imports = steps.map(() => []);
        for (let r = 0; r < rounds; r++) {
            for (const lib of ['qbson', 'bson']) load[lib].push(compileAndRun(ENTRIES[lib].cjs));
            steps.forEach(([, url], i) => imports[i].push(importTime(url)));
        }
        const f = (x) => x.toFixed(2) + ' ms';
        console.log(`the CommonJS entry, median of ${rounds} fresh processes each\n\n| library | compile | run | both |\n| :--- | ---: | ---: | ---: |`);
        for (const lib of ['qbson', 'bson']) {
            const c = median(load[lib].map((x) => x[0])), r = median(load[lib].map((x) => x[1]));
            console.log(`| ${lib} | ${f(c)} | ${f(r)} | ${f(median(load[lib].map((x) => x[0] + x[1])))} |`);
        }
        console.log('\nimport, by step\n\n| step | import |\n| :--- | ---: |');
        steps.forEach(([label], i) => console.log(`| ${label} | ${f(median(imports[i]))} |`));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

if (require.main === module) main(process.argv.slice(2));
