'use strict';

// Three outside type checks, each run with 'bson' resolved to a library folder
// of the caller's choice (qbson's root, or node_modules/bson as the baseline):
//  - js-bson's own type tests (test/fixtures/js-bson-types) with tsd;
//  - the MongoDB driver's src/ (shipped in the mongodb package) with the driver's
//    tsconfig and TypeScript version (5.8.3, the typescript-5.8 devDependency);
//  - the driver's type tests (test/fixtures/driver-types) with tsd, against the
//    published mongodb.d.ts or against src/.
// Each builds a folder in the system's temp directory, with links into this
// repository's node_modules, and returns the diagnostics as "file:line: text".
//
//   node test/support/type-suites.js    prints every suite's diagnostics with qbson and with bson

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..', '..');
const MODULES = path.join(ROOT, 'node_modules');
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const DRIVER = path.join(MODULES, 'mongodb');
const BSON_DIR = path.join(MODULES, 'bson');
const TSC_5_8 = path.join(MODULES, 'typescript-5.8', 'bin', 'tsc');

// What the driver's src/ and its declarations import, besides 'bson'
const DRIVER_DEPENDENCIES = ['@mongodb-js', 'mongodb-connection-string-url', 'whatwg-url', 'tr46', 'webidl-conversions', 'gcp-metadata', 'mongodb-client-encryption'];

function tempDir(name) {
    return fs.mkdtempSync(path.join(os.tmpdir(), `qbson-${name}-`));
}

function link(target, linkPath) {
    fs.mkdirSync(path.dirname(linkPath), { recursive: true });
    fs.symlinkSync(target, linkPath, 'junction');
}

// node_modules for a folder that compiles the driver: 'bson' is `bsonDir`; @types/node is
// the driver's own major (22, the types-node-22 alias), and @types/kerberos beside it.
function driverModules(dir, bsonDir) {
    const modules = path.join(dir, 'node_modules');
    link(bsonDir, path.join(modules, 'bson'));
    for (const name of DRIVER_DEPENDENCIES) link(path.join(MODULES, name), path.join(modules, name));
    link(path.join(MODULES, 'types-node-22'), path.join(modules, '@types', 'node'));
    link(path.join(MODULES, '@types', 'kerberos'), path.join(modules, '@types', 'kerberos'));
    link(path.join(MODULES, 'tsd'), path.join(modules, 'tsd'));
}

function copyTree(from, to) {
    fs.cpSync(from, to, { recursive: true, filter: (src) => !/(^|[\\/])(LICENSE\.md|ORIGIN\.md)$/.test(src) });
}

// Runs tsd over `dir` (whose package.json names the typings file) in a child process:
// tsd's compiler keeps state per process, and a child keeps the caller's heap small.
function runTsd(dir) {
    const script = `
        require(${JSON.stringify(path.join(MODULES, 'tsd', 'dist', 'index.js'))}).default({ cwd: ${JSON.stringify(dir)} })
            .then((diags) => { console.log(JSON.stringify(diags.map((d) => ({ file: d.fileName, line: d.line, message: d.message })))); })
            .catch((err) => { console.error(err && err.stack || err); process.exit(2); });`;
    const res = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (res.status !== 0) throw new Error(`tsd failed in ${dir}:\n${res.stderr}`);
    return JSON.parse(res.stdout).map((d) => `${path.relative(dir, d.file || dir).split(path.sep).join('/')}:${d.line}: ${d.message.split('\n')[0]}`);
}

// js-bson's test/types with its bson.d.ts replaced by `declarations`.
function jsBsonTypeTests(declarations) {
    const dir = tempDir('js-bson-types');
    try {
        copyTree(path.join(FIXTURES, 'js-bson-types'), path.join(dir, 'test', 'types'));
        fs.copyFileSync(declarations, path.join(dir, 'bson.d.ts'));
        // the one internal type the tests import from bson's sources
        fs.mkdirSync(path.join(dir, 'src', 'parser'), { recursive: true });
        fs.writeFileSync(path.join(dir, 'src', 'parser', 'utils.ts'), 'export type InspectFn = (x: unknown, options?: unknown) => string;\n');
        fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
            name: 'bson',
            types: 'bson.d.ts',
            tsd: { directory: 'test/types', compilerOptions: { strict: true, target: 'esnext', module: 'commonjs', moduleResolution: 'node' } },
        }));
        link(path.join(MODULES, 'tsd'), path.join(dir, 'node_modules', 'tsd'));
        return runTsd(dir);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// The driver's src/ compiled as the driver compiles it (its tsconfig.json, tsc 5.8.3, --noEmit).
function driverSource(bsonDir) {
    const dir = tempDir('driver-src');
    try {
        fs.cpSync(path.join(DRIVER, 'src'), path.join(dir, 'src'), { recursive: true });
        for (const file of ['tsconfig.json', 'package.json']) fs.copyFileSync(path.join(DRIVER, file), path.join(dir, file));
        driverModules(dir, bsonDir);
        const res = spawnSync(process.execPath, [TSC_5_8, '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        if (res.error) throw res.error;
        return `${res.stdout}${res.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line))
            .map((line) => line.replace(/^(.*?)\((\d+),\d+\): error (TS\d+): /, '$1:$2: $3 '));
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// The driver's test/types with tsd, its 'mongodb' being the published mongodb.d.ts
// (against 'dts') or src/index.ts (against 'src').
function driverTypeTests(bsonDir, against) {
    const dir = tempDir('driver-types');
    try {
        copyTree(path.join(FIXTURES, 'driver-types'), path.join(dir, 'test', 'types'));
        fs.copyFileSync(path.join(DRIVER, 'mongodb.d.ts'), path.join(dir, 'mongodb.d.ts'));
        if (against === 'src') {
            fs.cpSync(path.join(DRIVER, 'src'), path.join(dir, 'src'), { recursive: true });
            fs.writeFileSync(path.join(dir, 'test', 'mongodb.ts'), "export * from '../src/index';\n");
        } else {
            fs.writeFileSync(path.join(dir, 'test', 'mongodb.ts'), "export * from '../mongodb';\n");
        }
        fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
            name: 'mongodb',
            types: 'mongodb.d.ts',
            tsd: { directory: 'test/types', compilerOptions: { strict: true, target: 'esnext', module: 'commonjs', moduleResolution: 'node' } },
        }));
        driverModules(dir, bsonDir);
        return runTsd(dir);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// Every interface and type the published mongodb.d.ts exports, with its property
// names, as the driver's types see them with 'bson' resolved to `bsonDir`:
// Map name -> 'key1,key2,...' (sorted).
function driverOptionKeys(bsonDir) {
    const ts = require(path.join(MODULES, 'typescript-5.8'));
    const dir = tempDir('driver-keys');
    try {
        const file = path.join(dir, 'mongodb.d.ts');
        fs.copyFileSync(path.join(DRIVER, 'mongodb.d.ts'), file);
        driverModules(dir, bsonDir);
        const program = ts.createProgram([file], {
            strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(dir, 'node_modules', '@types')],
            target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
        });
        const checker = program.getTypeChecker();
        const keys = new Map();
        for (const sym of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))) {
            const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
            if (!(target.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) continue;
            const type = checker.getDeclaredTypeOfSymbol(target);
            if (!(type.flags & ts.TypeFlags.Object) && !type.isIntersection()) continue;
            // a symbol-keyed member's name carries the symbol's id in this program: __@bsonType@2486
            keys.set(sym.getName(), checker.getPropertiesOfType(type).map((p) => p.getName().replace(/@\d+$/, '')).sort().join(','));
        }
        return keys;
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

module.exports = { jsBsonTypeTests, driverSource, driverTypeTests, driverOptionKeys, ROOT, BSON_DIR };

if (require.main === module) {
    const show = (title, lines) => console.log(`${title}: ${lines.length}\n${lines.map((l) => '  ' + l).join('\n')}`);
    show('js-bson type tests, qbson', jsBsonTypeTests(path.join(ROOT, 'index.d.ts')));
    show('js-bson type tests, bson', jsBsonTypeTests(path.join(BSON_DIR, 'bson.d.ts')));
    show('driver src, qbson', driverSource(ROOT));
    show('driver src, bson', driverSource(BSON_DIR));
    for (const against of ['dts', 'src']) {
        show(`driver type tests (${against}), qbson`, driverTypeTests(ROOT, against));
        show(`driver type tests (${against}), bson`, driverTypeTests(BSON_DIR, against));
    }
}
