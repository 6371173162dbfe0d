// qbson against bson in each JavaScript runtime, on the benchmark's data sets:
// ops/s of encode and decode, their ratio qbson/bson, and the geometric mean of
// the ratios, one table per runtime.
//   node benchmark/runtimes/run.mjs [--quick] [--filter a,b] [--runtimes node,bun,...] [--update FILE] [--parallel]
// Runtimes: node, bun, deno (Node compatibility, index.mjs), deno-esm and chromium
// (dist/qbson.browser.mjs, made by `npm run build`, with bson's browser build).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildDatasets } from './build.mjs';
import { findChromium, serve, launchChromium, pageResult } from '../../test/runtimes/browser.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const BUN = path.join(ROOT, 'node_modules', '.bin', 'bun');
const DENO = path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
const INDEX = path.join(ROOT, 'index.mjs');
const BROWSER_BUILD = path.join(ROOT, 'dist', 'qbson.browser.mjs');
const BSON_NODE = path.join(ROOT, 'node_modules', 'bson', 'lib', 'bson.node.mjs');
const BSON_BROWSER = path.join(ROOT, 'node_modules', 'bson', 'lib', 'bson.mjs');
const RUNTIMES = ['node', 'bun', 'deno', 'deno-esm', 'chromium'];
const TARGET = 1.5;

function parseArgs(argv) {
    const opts = { mode: 'full', filter: '', runtimes: RUNTIMES, update: null, parallel: false };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '--quick') opts.mode = 'quick';
        else if (argv[i] === '--filter') opts.filter = argv[++i];
        else if (argv[i] === '--runtimes') opts.runtimes = argv[++i].split(',');
        else if (argv[i] === '--update') opts.update = argv[++i];
        else if (argv[i] === '--parallel') opts.parallel = true;
        else throw new Error(`unknown argument ${argv[i]}; usage: node benchmark/runtimes/run.mjs [--quick] [--filter a,b] [--runtimes ${RUNTIMES}] [--update FILE] [--parallel]`);
    }
    return opts;
}

function versionOf(file, args) {
    const res = spawnSync(file, args, { encoding: 'utf8' });
    return res.status === 0 ? res.stdout.split('\n')[0].trim() : null;
}

// the runtime's result; the runtimes timed by CPU time run side by side (--parallel)
function runModule(exe, pre, datasets, qbson, bson, opts) {
    const args = [...pre, path.join(HERE, 'run-module.mjs'), datasets, qbson, bson, opts.mode, opts.filter];
    return new Promise((resolve) => {
        const child = spawn(exe, args, { cwd: ROOT });
        let stdout = '', stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (status) => {
            if (status !== 0) resolve({ error: `${path.basename(exe)} exited with ${status}: ${stderr.slice(-1500)}` });
            else resolve(JSON.parse(stdout.trim().split('\n').pop()));
        });
    });
}

function ensureBrowserBuild() {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts || {};
    if (!scripts.build) return 'no `npm run build` to make dist/qbson.browser.mjs';
    const res = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    return res.status === 0 && fs.existsSync(BROWSER_BUILD) ? null : `npm run build failed: ${res.stderr.slice(-500)}`;
}

async function inChromium(datasets, opts) {
    const executable = findChromium();
    if (!executable) return { error: 'no Chromium found (QBSON_CHROMIUM, /usr/bin/chromium)' };
    const { server, origin } = await serve(ROOT, '/benchmark/runtimes/page.mjs');
    const browser = await launchChromium(executable);
    try {
        const rel = (file) => '/' + path.relative(ROOT, file).split(path.sep).join('/');
        const query = `datasets=${rel(datasets)}&qbson=${rel(BROWSER_BUILD)}&bson=${rel(BSON_BROWSER)}&mode=${opts.mode}&filter=${opts.filter}`;
        const result = (await pageResult(browser.context, `${origin}/page.html?${query}`, 'qbsonBenchmark', 1800000)).value;
        result.version = `Chromium ${browser.context.browser().version()}`;
        return result;
    } finally {
        await browser.close();
        server.close();
    }
}

async function measureRuntime(name, datasets, opts, browserBuild) {
    const readRoot = `--allow-read=${ROOT}`;
    switch (name) {
        case 'node':
            return { ...(await runModule(process.execPath, [], datasets, INDEX, BSON_NODE, opts)), version: `Node ${process.version}`, qbson: 'index.mjs' };
        case 'bun':
            return { ...(await runModule(BUN, [], datasets, INDEX, BSON_NODE, opts)), version: `Bun ${versionOf(BUN, ['--version'])}`, qbson: 'index.mjs' };
        case 'deno':
            return { ...(await runModule(DENO, ['run', readRoot], datasets, INDEX, BSON_NODE, opts)), version: versionOf(DENO, ['--version']), qbson: 'index.mjs (Node compatibility)' };
        case 'deno-esm':
            if (browserBuild) return { error: browserBuild };
            return { ...(await runModule(DENO, ['run', '--no-npm', '--no-remote', readRoot], datasets, BROWSER_BUILD, BSON_BROWSER, opts)), version: versionOf(DENO, ['--version']), qbson: 'dist/qbson.browser.mjs' };
        case 'chromium':
            if (browserBuild) return { error: browserBuild };
            return { ...(await inChromium(datasets, opts)), qbson: 'dist/qbson.browser.mjs' };
        default:
            throw new Error(`unknown runtime ${name}`);
    }
}

const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
const geomean = (values) => Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);

function table(name, result) {
    const lines = [`### ${name}: ${result.version || ''}${result.qbson ? `, qbson from \`${result.qbson}\`` : ''}${result.clock ? `, timed by ${result.clock}` : ''}`, ''];
    if (result.error) return [...lines, `Not measured: ${result.error.split('\n')[0]}`, ''];
    lines.push('| data set | encode qbson ops/s | encode bson ops/s | encode ratio | decode qbson ops/s | decode bson ops/s | decode ratio |');
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    const enc = [], dec = [];
    for (const row of result.rows) {
        if (row.error) {
            lines.push(`| ${row.name} | wrong output: ${row.error} | | | | | |`);
            continue;
        }
        const er = row.encode[0] / row.encode[1], dr = row.decode[0] / row.decode[1];
        enc.push(er);
        dec.push(dr);
        lines.push(`| ${row.name} | ${fmt(row.encode[0])} | ${fmt(row.encode[1])} | ${er.toFixed(2)} | ${fmt(row.decode[0])} | ${fmt(row.decode[1])} | ${dr.toFixed(2)} |`);
    }
    if (enc.length) {
        const ge = geomean(enc), gd = geomean(dec);
        lines.push(`| **geometric mean** | | | **${ge.toFixed(2)}** | | | **${gd.toFixed(2)}** |`);
        const miss = [ge < TARGET && 'encode', gd < TARGET && 'decode'].filter(Boolean);
        lines.push('', miss.length ? `Below the ${TARGET}x target: ${miss.join(' and ')}.` : `Both directions at or above the ${TARGET}x target.`);
    }
    return [...lines, ''];
}

function machine() {
    const cpus = os.cpus();
    return `${cpus.length} x ${cpus[0] ? cpus[0].model : 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`;
}

const opts = parseArgs(process.argv.slice(2));
const datasets = await buildDatasets();
const browserBuild = opts.runtimes.some((r) => r === 'deno-esm' || r === 'chromium') ? ensureBrowserBuild() : null;
const out = [
    '# qbson against bson in each runtime',
    '',
    `Generated by \`npm run benchmark:runtimes -- ${process.argv.slice(2).join(' ')}\` (benchmark/runtimes/run.mjs), ${opts.mode} mode,`,
    `on ${new Date().toISOString().slice(0, 10)}, ${machine()}. Ratios are qbson's ops/s over bson@7's`,
    'in the same runtime and the same run (higher is faster); each rate is the median of timed samples taken',
    'in turn across the two libraries after a warm-up; qbson\'s output is checked against bson\'s before timing.',
    '',
];
console.log(out.join('\n'));
// with --parallel, the runtimes timed by process CPU time at once, then Chromium (wall clock) alone
const together = opts.parallel ? opts.runtimes.filter((r) => r !== 'chromium') : [];
const early = Object.fromEntries(await Promise.all(together.map(async (r) => [r, await measureRuntime(r, datasets, opts, browserBuild)])));
for (const name of opts.runtimes) {
    const lines = table(name, early[name] || (await measureRuntime(name, datasets, opts, browserBuild)));
    console.log(lines.join('\n'));
    out.push(...lines);
}
const text = out.join('\n');
if (opts.update) {
    const file = path.resolve(ROOT, opts.update);
    const prose = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('<!-- tables -->')[1] : undefined;
    fs.writeFileSync(file, text + '\n<!-- tables -->' + (prose === undefined ? '\n' : prose));
}
