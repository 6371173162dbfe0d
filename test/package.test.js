'use strict';

// The package as a consumer receives it (the tarball `npm pack` makes), the repository as a
// fresh clone has it, and the Node versions package.json promises.

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const libraries = require('../benchmark/libraries');

const ROOT = path.join(__dirname, '..');
const PKG = readJson(path.join(ROOT, 'package.json'));
const LOCK = readJson(path.join(ROOT, 'package-lock.json'));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

function readJson(file) {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function walk(dir) {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        return e.isDirectory() ? walk(full) : [full];
    });
}

// `npm pack` into a temporary folder: the list of files and the package.json a consumer gets
function pack() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-pack-'));
    try {
        const out = childProcess.execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
            { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        const info = JSON.parse(out)[0];
        childProcess.execFileSync('tar', ['-xzf', path.join(dir, info.filename), '-C', dir]);
        return { files: info.files.map((f) => f.path), pkg: readJson(path.join(dir, 'package', 'package.json')) };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// the package names in the first column of the README's "Dependencies" table
function documentedDependencies() {
    const section = README.split(/^## Dependencies$/m)[1].split(/^## /m)[0];
    return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]).sort();
}

// the packages package-lock.json resolves outside devDependencies: what a consumer's install gets
function lockedRuntimePackages() {
    return Object.entries(LOCK.packages).filter(([key, entry]) => key !== '' && !entry.dev);
}

describe('package: what a consumer installs', function () {
    let packed;
    before(function () {
        packed = pack();
    });

    it('declares no optional, peer or bundled dependencies and no install scripts', function () {
        for (const field of ['optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies']) {
            assert.strictEqual(packed.pkg[field], undefined, field);
        }
        for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
            assert.strictEqual((packed.pkg.scripts || {})[script], undefined, script);
        }
        assert.ok(!packed.files.some((f) => /\.(node|gyp|cc|c|h)$/.test(f)), 'native sources or binaries in ' + packed.files);
    });

    it('depends at run time on exactly the packages the README documents', function () {
        assert.deepStrictEqual(Object.keys(packed.pkg.dependencies).sort(), documentedDependencies());
    });

    it('resolves to a runtime tree without native code or install scripts (per package-lock.json)', function () {
        const runtime = lockedRuntimePackages();
        for (const name of Object.keys(PKG.dependencies)) {
            assert.ok(runtime.some(([key]) => key === 'node_modules/' + name), name + ' not locked as a runtime package');
        }
        for (const [key, entry] of runtime) {
            assert.ok(!entry.hasInstallScript && !entry.gypfile, key + ' runs an install script or builds native code');
            assert.ok(!entry.optional, key + ' is optional');
        }
    });

    it('ships the code, the types, the command, the docs the README links to, and nothing of the repository\'s tests', function () {
        const files = new Set(packed.files);
        const code = walk(path.join(ROOT, 'lib')).map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
        for (const f of ['package.json', 'README.md', 'LICENSE', 'index.js', 'index.mjs', 'index.d.ts', 'bin/qbson', ...code]) {
            assert.ok(files.has(f), f + ' missing');
        }
        const links = [...README.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
        assert.ok(links.length > 0, 'the README links to no file');
        for (const link of links) assert.ok(files.has(link), 'README links to ' + link + ', which is not in the package');
        // and the docs shipped link only to what ships with them
        for (const doc of packed.files.filter((f) => /^docs\/.*\.md$/.test(f))) {
            const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
            for (const m of text.matchAll(/\]\(([^)#\s]*)(#[^)]*)?\)/g)) {
                if (!m[1] || /^[a-z]+:/.test(m[1])) continue;
                const target = path.posix.normalize(path.posix.join(path.posix.dirname(doc), m[1]));
                assert.ok(files.has(target), doc + ' links to ' + m[1] + ', which is not in the package');
            }
        }
        assert.deepStrictEqual(packed.files.filter((f) => /^(test|benchmark|\.ci)\//.test(f)), []);
    });

    it('names its repository, homepage and issue tracker', function () {
        assert.match(packed.pkg.repository.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
        const home = packed.pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
        assert.strictEqual(packed.pkg.homepage, home + '#readme');
        assert.strictEqual(packed.pkg.bugs.url, home + '/issues');
    });
});

describe('package: the benchmark\'s native addon stays out of installs', function () {
    const NATIVE_PKG = readJson(path.join(libraries.NATIVE_DIR, 'package.json'));

    it('bson-ext is declared only by benchmark/native, which npm install/ci of qbson never reads', function () {
        for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
            assert.ok(!(PKG[field] && 'bson-ext' in PKG[field]), 'bson-ext in ' + field);
        }
        assert.deepStrictEqual(Object.keys(LOCK.packages).filter((k) => k.endsWith('node_modules/bson-ext')), []);
        assert.ok(NATIVE_PKG.private && NATIVE_PKG.dependencies['bson-ext']);
        assert.match(PKG.scripts['benchmark:native'], /--prefix benchmark\/native\b/);
    });

    it('shows bson-ext as n/a with how to build it, or as loaded, whichever is true here', function () {
        const [ext] = libraries.create(['bson-ext']);
        ext.load();
        const installed = fs.existsSync(path.join(libraries.NATIVE_DIR, 'node_modules', 'bson-ext', 'package.json'));
        if (installed) {
            assert.ok(ext.available, ext.reason);
            assert.match(ext.version, /^4\./);
        } else {
            assert.strictEqual(ext.available, false);
            assert.match(ext.reason, /^not installed: `npm run benchmark:native`/);
        }
    });
});

describe('package: the repository stands alone', function () {
    // folder, files expected, and the origin its README must name
    const DATA = [
        ['test/data/bson-corpus', 31, 'source/bson-corpus/tests'],
        ['test/data/bson-binary-vector', 3, 'source/bson-binary-vector/tests'],
        ['benchmark/data', 3, 'extended_bson.tgz'],
    ];

    for (const [dir, count, origin] of DATA) {
        it(dir + ' holds its ' + count + ' JSON files and names their origin and commit', function () {
            const names = fs.readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.json'));
            assert.strictEqual(names.length, count);
            for (const name of names) readJson(path.join(ROOT, dir, name));
            const readme = fs.readFileSync(path.join(ROOT, dir === 'benchmark/data' ? dir : 'test/data', 'README.md'), 'utf8');
            assert.ok(readme.includes('mongodb/specifications') && readme.includes(origin), 'origin not named');
            assert.match(readme, /commit `[0-9a-f]{40}`/);
        });
    }
});

// Node APIs newer than Node 18.0, with the first 18.x release that has them.  engines.node
// must be the newest "since" among those the code uses.  This is a check of the source against
// these lists, not a run on old Nodes: the last test runs a smoke script on the Node named by
// QBSON_NODE (e.g. a Node 18.14.0 binary), else on this one.
const USED = [
    { api: 'util.parseArgs', since: '18.3.0', pattern: /\bparseArgs\b/, exists: () => typeof require('util').parseArgs === 'function' },
    // Node's own, not lib/platform.js's isUtf8 (a TextDecoder that runs anywhere)
    { api: 'buffer.isUtf8', since: '18.14.0', pattern: /\{[^}]*\bisUtf8\b[^}]*\}\s*=\s*require\('(node:)?buffer'\)|\bbuffer\.isUtf8\b/, exists: () => typeof require('buffer').isUtf8 === 'function' },
];
const TOO_NEW = [
    { api: 'buffer.isAscii', since: '18.15.0', pattern: /\bisAscii\b/ },
    { api: 'Buffer.copyBytesFrom', since: '18.16.0', pattern: /\bcopyBytesFrom\b/ },
    { api: 'AbortSignal.any', since: '18.17.0', pattern: /AbortSignal\.any\b/ },
    { api: 'stream.getDefaultHighWaterMark / setDefaultHighWaterMark', since: '18.17.0', pattern: /\b[gs]etDefaultHighWaterMark\b/ },
    { api: 'fs.openAsBlob', since: '19.8.0', pattern: /\bopenAsBlob\b/ },
    { api: 'Array.prototype.toSorted / toReversed / toSpliced', since: '20.0.0', pattern: /\.(toSorted|toReversed|toSpliced)\(/ },
    { api: 'String.prototype.isWellFormed / toWellFormed', since: '20.0.0', pattern: /\b(isWellFormed|toWellFormed)\b/ },
    { api: 'resizable ArrayBuffer', since: '20.0.0', pattern: /\bmaxByteLength\b/ },
    { api: 'import.meta.dirname / filename', since: '20.11.0', pattern: /import\.meta\.(dirname|filename)\b/ },
    { api: 'util.styleText', since: '20.12.0', pattern: /\bstyleText\b/ },
    { api: 'crypto.hash', since: '20.12.0', pattern: /\bcrypto\.hash\(/ },
    { api: 'parseArgs allowNegative', since: '20.16.0', pattern: /\ballowNegative\b/ },
    // lib/node-modules.js calls it only where it is a function, and requires the module where not
    { api: 'process.getBuiltinModule', since: '20.16.0', pattern: /\bgetBuiltinModule\b/, guard: /typeof \w+\.getBuiltinModule === 'function'/ },
    { api: 'ArrayBuffer.prototype.transfer', since: '21.0.0', pattern: /\.transfer(ToFixedLength)?\(/ },
    { api: 'Object.groupBy / Map.groupBy', since: '21.0.0', pattern: /\b(Object|Map)\.groupBy\b/ },
    { api: 'Promise.withResolvers', since: '22.0.0', pattern: /\bwithResolvers\b/ },
    { api: 'Array.fromAsync', since: '22.0.0', pattern: /\bArray\.fromAsync\b/ },
    { api: 'Iterator helpers', since: '22.0.0', pattern: /\bIterator\.from\b/ },
    { api: 'fs.glob', since: '22.0.0', pattern: /\bglob(Sync)?\(/ },
    { api: 'Symbol.dispose / asyncDispose', since: '24.0.0', pattern: /\bSymbol\.(async)?[dD]ispose\b/ },
    // the native calls, not functions of the same names (bson's ByteUtils has fromBase64, toHex...)
    { api: 'Uint8Array base64 / hex', since: '25.0.0', pattern: /\bUint8Array\.from(Base64|Hex)\(|\.to(Base64|Hex)\(\)|\.setFrom(Hex|Base64)\(/ },
];

function compareVersions(a, b) {
    const x = a.split('.').map(Number);
    const y = b.split('.').map(Number);
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
}

// the package's own source with comments removed (a comment may name an API it does not call)
function shippedSource() {
    const files = [path.join(ROOT, 'index.js'), path.join(ROOT, 'index.mjs'), path.join(ROOT, 'bin', 'qbson'),
        ...walk(path.join(ROOT, 'lib')).filter((f) => f.endsWith('.js'))];
    return files.map((file) => ({
        file: path.relative(ROOT, file),
        code: fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1'),
    }));
}

describe('package: engines names the oldest Node that runs it', function () {
    const sources = shippedSource();
    const usedBy = (entry) => sources.filter((s) => entry.pattern.test(s.code)).map((s) => s.file);
    const minimum = PKG.engines.node.replace(/^>=\s*/, '');

    it('engines.node is ">=" the newest version among the listed APIs the code uses', function () {
        for (const entry of USED) {
            assert.ok(usedBy(entry).length > 0, entry.api + ' is listed as used but the code no longer uses it');
            assert.ok(entry.exists(), entry.api + ' does not exist here');
        }
        const newest = USED.map((e) => e.since).sort(compareVersions).pop();
        assert.strictEqual(PKG.engines.node, '>=' + newest);
        assert.strictEqual(LOCK.packages[''].engines.node, PKG.engines.node, 'package-lock.json is out of date');
    });

    it('the code uses none of the listed APIs newer than that', function () {
        // an API with a guard may be used in a file that checks for it with that guard
        const unguarded = (e) => usedBy(e).filter((file) => !(e.guard && e.guard.test(sources.find((s) => s.file === file).code)));
        const found = TOO_NEW.filter((e) => compareVersions(e.since, minimum) > 0 && unguarded(e).length > 0)
            .map((e) => e.api + ' (Node ' + e.since + ') in ' + unguarded(e).join(', '));
        assert.deepStrictEqual(found, [], 'raise engines.node and add the API to USED, or avoid it');
    });

    const node = process.env.QBSON_NODE || process.execPath;
    it('the smoke script runs on ' + (process.env.QBSON_NODE ? 'QBSON_NODE=' + node : 'this Node (set QBSON_NODE for another)'), function () {
        const out = childProcess.execFileSync(node, [path.join(__dirname, 'fixtures', 'node-smoke.js')], { encoding: 'utf8' });
        const version = out.match(/^ok v(\d+\.\d+\.\d+)\n$/);
        assert.ok(version, out);
        assert.ok(compareVersions(version[1], minimum) >= 0, 'Node ' + version[1] + ' is older than engines.node');
    });
});
