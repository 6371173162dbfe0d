'use strict';

// index.d.ts against test/fixtures/usage*.ts: a strict type-check with tsc (lines
// marked @ts-expect-error must still be errors, so loosened types fail too), then
// the same files compiled and run against the real module, so every declared
// member the fixtures use exists and behaves as typed.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const FIXTURES = path.join(__dirname, 'fixtures');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// Where @types/node can be found: QBSON_TYPE_ROOTS (a typeRoots directory), or the
// project's own node_modules/@types when it has node. null when neither.
function nodeTypeRoots() {
    const candidates = [process.env.QBSON_TYPE_ROOTS, path.join(ROOT, 'node_modules', '@types')];
    for (const dir of candidates) {
        if (dir && fs.existsSync(path.join(dir, 'node', 'package.json'))) return dir;
    }
    return null;
}

function tsc(args) {
    const started = Date.now();
    const res = spawnSync(process.execPath, [TSC, '--pretty', 'false', ...args], { cwd: ROOT, encoding: 'utf8' });
    return {
        status: res.status,
        output: `${res.stdout || ''}${res.stderr || ''}${res.error ? res.error.stack : ''}`,
        ms: Date.now() - started,
    };
}

function assertClean(result, what) {
    assert.strictEqual(result.status, 0, `tsc (${what}) exited ${result.status}:\n${result.output}`);
    assert.strictEqual(result.output.trim(), '', `tsc (${what}) printed:\n${result.output}`);
}

describe('type declarations', function () {
    const typeRoots = nodeTypeRoots();
    let version;
    let plain;
    let tmp;

    before(function (done) {
        version = tsc(['--version']);
        plain = tsc(['-p', path.join(FIXTURES, 'tsconfig.json')]);
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-types-'));
        done();
    });

    after(function (done) {
        if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
        done();
    });

    it('tsc runs', function () {
        assert.strictEqual(version.status, 0, `cannot run ${TSC}:\n${version.output}`);
        assert.match(version.output, /Version \d+\.\d+/);
    });

    it('usage fixtures type-check under --strict without @types/node, every @ts-expect-error an error', function () {
        assertClean(plain, 'tsconfig.json');
    });

    it('the fixtures keep their lines that must not type-check', function () {
        const text = fs.readFileSync(path.join(FIXTURES, 'usage.ts'), 'utf8');
        const count = (text.match(/\/\/ @ts-expect-error/g) || []).length;
        assert.ok(count >= 60, `only ${count} @ts-expect-error lines in usage.ts`);
        assert.ok(!/@ts-ignore|@ts-nocheck/.test(text), 'usage.ts must not switch checking off');
    });

    (typeRoots ? it : it.skip)('with @types/node: Buffer results, a Transform from encodeStream, a Readable source', function () {
        assertClean(tsc(['-p', path.join(FIXTURES, 'tsconfig.node.json'), '--typeRoots', typeRoots]), 'tsconfig.node.json');
    });

    // The MongoDB driver's own declarations with 'bson' mapped to qbson's, as an
    // app using the package.json "overrides" recipe of the README sees them.
    (typeRoots ? it : it.skip)("the mongodb driver's mongodb.d.ts type-checks with 'bson' resolved to index.d.ts", function () {
        const config = path.join(tmp, 'tsconfig.driver.json');
        fs.writeFileSync(config, JSON.stringify({
            compilerOptions: {
                strict: true,
                noEmit: true,
                module: 'nodenext',
                moduleResolution: 'nodenext',
                target: 'es2022',
                lib: ['es2022'],
                types: ['node'],
                typeRoots: [typeRoots],
                skipLibCheck: false,
                paths: { bson: [path.join(ROOT, 'index.d.ts')] },
            },
            files: [require.resolve('mongodb/mongodb.d.ts', { paths: [ROOT] })],
        }));
        const result = tsc(['-p', config, '--traceResolution']);
        // the trace shows 'bson' went to qbson's declarations, not to node_modules/bson
        const resolved = /Module name 'bson' was successfully resolved to '([^']+)'/.exec(result.output);
        assert.ok(resolved, `no resolution of 'bson' in the trace (status ${result.status})`);
        assert.strictEqual(path.resolve(resolved[1]), path.join(ROOT, 'index.d.ts'));
        const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line));
        assert.deepStrictEqual(errors, []);
        assert.strictEqual(result.status, 0);
    });

    it('the fixtures, compiled, run against the real module (CommonJS, ES module and require forms)', function () {
        // `qbson` resolves from the output through a link to the repository
        fs.mkdirSync(path.join(tmp, 'node_modules'));
        fs.symlinkSync(ROOT, path.join(tmp, 'node_modules', 'qbson'), 'junction');
        const out = path.join(tmp, 'out');
        assertClean(tsc(['-p', path.join(FIXTURES, 'tsconfig.json'), '--noEmit', 'false', '--outDir', out]), 'emit');
        const driver = `
            const path = require('path');
            const { pathToFileURL } = require('url');
            const out = ${JSON.stringify(out)};
            require(path.join(out, 'usage.js')).done
                .then(() => import(pathToFileURL(path.join(out, 'usage-esm.mjs')).href))
                .then(() => { require(path.join(out, 'usage-cjs.cjs')); require(path.join(out, 'usage-bson-names.js')); console.log('usage ok'); })
                .catch((err) => { console.error(err); process.exit(1); });
        `;
        const res = spawnSync(process.execPath, ['-e', driver], { cwd: tmp, encoding: 'utf8' });
        assert.strictEqual(res.status, 0, `the compiled fixtures failed:\n${res.stdout}${res.stderr}`);
        assert.strictEqual(res.stdout.trim(), 'usage ok', res.stderr);
    });
});
