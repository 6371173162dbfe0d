'use strict';

// qbson in the other runtimes bson@7 runs in: Bun, Deno (through its Node
// compatibility, and as plain ES modules loading dist/qbson.browser.mjs with no
// npm and no Node built-in), headless Chromium (a page, a page under a
// Content-Security-Policy without 'unsafe-eval', a module Worker), and Node itself
// as the reference; Node, Bun and Deno's compatibility load the package's import entry
// (dist/node/qbson.mjs). Each runs test/runtimes/conformance.mjs, bundled by
// test/runtimes/build.mjs, and every named case of its report is a test here.
// A runtime not installed is skipped by name; with CI=true it fails.
// QBSON_RUNTIME_RUNS: documents per property (300).

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const RUNS = Number(process.env.QBSON_RUNTIME_RUNS) || 300;
const IN_CI = process.env.CI === 'true';
const HERE = path.join(__dirname, 'runtimes');
const BUNDLE = path.join(ROOT, '.build', 'runtimes', 'conformance.mjs');
const BROWSER_BUILD = path.join(ROOT, 'dist', 'qbson.browser.mjs');
const PACKAGE_IMPORT = path.join(ROOT, 'dist', 'node', 'qbson.mjs');
const BSON_NODE = path.join(ROOT, 'node_modules', 'bson', 'lib', 'bson.node.mjs');
const BSON_BROWSER = path.join(ROOT, 'node_modules', 'bson', 'lib', 'bson.mjs');
const RUN_MODULE = path.join(HERE, 'run-module.mjs');
const TIMEOUT = 240000;

// the first of these executables that exists, else the command found on PATH, else null
function findExecutable(files, command) {
    const found = files.find((file) => fs.existsSync(file));
    if (found) return found;
    const which = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
    return which.status === 0 ? which.stdout.trim() : null;
}

const BUN = findExecutable([path.join(ROOT, 'node_modules', '.bin', 'bun')], 'bun');
const DENO = findExecutable([path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno')], 'deno');

// A runtime other than Node starts through `env -u NODE_OPTIONS`: under nyc every
// child gets nyc's hooks in NODE_OPTIONS (put back on each spawn), and Deno and Bun
// read it but cannot load them.
function plainSpawn(file, args) {
    return spawnSync('env', ['-u', 'NODE_OPTIONS', 'NO_COLOR=1', file, ...args], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT, maxBuffer: 64 << 20 });
}

function run(file, args) {
    const res = file === process.execPath
        ? spawnSync(file, args, { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT, maxBuffer: 64 << 20 })
        : plainSpawn(file, args);
    if (res.error) return { error: `${file}: ${res.error.message}` };
    if (res.status !== 0) return { error: `${path.basename(file)} ${args.join(' ')} exited with ${res.status}: ${res.stderr.slice(-2000)}` };
    try {
        return { value: JSON.parse(res.stdout.trim().split('\n').pop()) };
    } catch (err) {
        return { error: `no report: ${res.stdout.slice(-500)} ${res.stderr.slice(-1500)}` };
    }
}

// whether `npm run build` (dist/qbson.browser.mjs) exists and gives the bundle: null, or why not
function buildBrowserModule() {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts || {};
    if (!scripts.build) return 'package.json has no build script to make dist/qbson.browser.mjs';
    const res = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT });
    if (res.status !== 0) return `npm run build failed: ${res.stderr.slice(-1000)}`;
    return fs.existsSync(BROWSER_BUILD) ? null : 'npm run build wrote no dist/qbson.browser.mjs';
}

// The modules dist/qbson.browser.mjs loads, as Deno sees them: none from npm or node:.
function foreignImports() {
    const res = plainSpawn(DENO, ['info', '--json', '--no-npm', '--no-remote', BROWSER_BUILD]);
    if (res.status !== 0) return [`deno info failed: ${res.stderr.slice(-500)}`];
    const graph = JSON.parse(res.stdout);
    return graph.modules.map((m) => m.specifier).filter((s) => !s.startsWith('file:'));
}

// name -> { missing } | { error } | { report }
function runAll() {
    const out = {};
    const built = spawnSync(process.execPath, [path.join(HERE, 'build.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT });
    if (built.status !== 0) throw new Error(`building the conformance bundle failed: ${built.stderr}`);
    const moduleRun = (exe, pre, qbson, bson) => run(exe, [...pre, RUN_MODULE, BUNDLE, qbson, bson, String(RUNS)]);
    // npm run build makes dist/node too: the package's import entry, which Node, Bun and Deno take
    const noBuild = buildBrowserModule();
    const entry = noBuild ? path.join(ROOT, 'index.mjs') : PACKAGE_IMPORT;
    out.node = moduleRun(process.execPath, [], entry, BSON_NODE);
    out.bun = BUN ? moduleRun(BUN, [], entry, BSON_NODE) : { missing: 'Bun is not installed' };
    const readRoot = `--allow-read=${ROOT}`;
    out['deno-node-compat'] = DENO ? moduleRun(DENO, ['run', readRoot], entry, BSON_NODE) : { missing: 'Deno is not installed' };
    if (!DENO) out['deno-esm'] = { missing: 'Deno is not installed' };
    else if (noBuild) out['deno-esm'] = { missing: noBuild };
    else {
        out['deno-esm'] = moduleRun(DENO, ['run', '--no-npm', '--no-remote', readRoot], BROWSER_BUILD, BSON_BROWSER);
        out['deno-esm'].imports = foreignImports();
    }
    const browsers = ['chromium', 'chromium-csp', 'chromium-worker'];
    if (noBuild) for (const name of browsers) out[name] = { missing: noBuild };
    else {
        const chromium = run(process.execPath, [path.join(HERE, 'chromium.mjs'), BUNDLE, BROWSER_BUILD, BSON_BROWSER, String(RUNS)]);
        for (const name of browsers) {
            if (chromium.error) out[name] = { error: chromium.error };
            else if (chromium.value.missing) out[name] = { missing: chromium.value.missing };
            else out[name] = { value: chromium.value[name] };
        }
    }
    return out;
}

function defineCases(name, result) {
    if (result.missing) {
        const title = `not run (skipped: ${result.missing})`;
        if (IN_CI) it('runs under CI', () => assert.fail(`${result.missing}; CI=true needs every runtime`));
        else it.skip(title);
        return;
    }
    const report = result.value;
    if (result.error || report.error) {
        it('gives a report', () => assert.fail(result.error || report.error));
        return;
    }
    if (result.imports) it(`dist/qbson.browser.mjs imports nothing from npm or node:`, () => assert.deepStrictEqual(result.imports, []));
    if (name === 'chromium-csp') {
        it(`the policy refuses code from strings`, () => assert.match(report.codeFromStrings, /^refused/));
    }
    for (const c of report.cases) {
        for (const skipped of c.skipped) it.skip(`${c.name}: ${skipped}`);
        it(`${c.name} (${c.passed} passed)`, function () {
            assert.ok(c.passed > 0, 'no check ran');
            assert.strictEqual(c.failed, 0, `${c.failed} failed:\n${c.failures.join('\n')}`);
        });
    }
}

describe('runtimes', function () {
    const results = runAll();
    for (const [name, result] of Object.entries(results)) describe(name, () => defineCases(name, result));
});
