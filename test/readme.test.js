'use strict';

// Every JavaScript example in README.md and in docs/*.md runs as written: each ```js (CommonJS)
// or ```mjs (ES module) block is saved as its own program in a fresh temporary folder where
// require('qbson') / import 'qbson' resolve to this repository, and must exit 0.
// A `// → text` comment states a result: the block is run a second time, rewritten so that
// each such line checks its value (util.inspect on one line; for console.log, what it prints;
// `...` in the text stands for anything), and every stated result must have been checked.
// Not run, each named as a skipped test: blocks in other languages (shell commands, the
// command synopsis), and a block whose first line is `// not run: <reason>`.
// Every relative link in those files names a file that exists and, when it names a heading of a
// Markdown file (#anchor), a heading that file has, by GitHub's rule for heading anchors.

const assert = require('assert');
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const CHECKER = path.join(__dirname, 'support', 'readme-check.js');
const EXTENSIONS = { js: '.js', javascript: '.js', cjs: '.cjs', mjs: '.mjs' };
const RESULT = /^(\s*)(\S.*?)\s*\/\/ → (.*\S)\s*$/;
const RESULT_ALONE = /^\s*\/\/ → (.*\S)\s*$/;
const NOT_RUN = /^\/\/ not run: (\S.*)$/;

// the Markdown files whose examples run and whose links are checked, as paths from ROOT
const FILES = ['README.md'].concat(fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort()
    .map((f) => 'docs/' + f));

// how errors and test names call a file: README for README.md, else its path
const label = (file) => (file === 'README.md' ? 'README' : file);

// [{ lang, line (line of the block's first code line in its file), lines, where }]
function codeBlocks(markdown, file = 'README.md') {
    const blocks = [];
    let block = null;
    markdown.split('\n').forEach((text, i) => {
        if (!block) {
            const open = /^```(\S*)\s*$/.exec(text);
            if (open) block = { lang: open[1], line: i + 2, lines: [], where: label(file) };
        } else if (/^```\s*$/.test(text)) {
            blocks.push(block);
            block = null;
        } else {
            block.lines.push(text);
        }
    });
    assert.strictEqual(block, null, file + ' ends inside a code block');
    return blocks;
}

// the statement on one line rewritten to check its value against `expected`
function checkedStatement(code, line, expected, where = 'README') {
    if (!code.endsWith(';')) throw new Error(where + ' line ' + line + ': a line with a // → result must hold one statement ending in ;');
    const e = JSON.stringify(expected);
    const log = /^console\.log\((.+)\);$/.exec(code);
    if (log) return `__checkLog(${line}, ${e}, ${log[1]});`;
    const declared = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(code);
    if (declared) return `${code} __check(${line}, ${e}, ${declared[1]});`;
    return `__check(${line}, ${e}, (${code.slice(0, -1)}));`;
}

// the block with a check on every line that states a result, and those lines of its file
function instrument(block) {
    const where = block.where || 'README';
    const out = block.lines.slice();
    const lines = [];
    let lastCode = -1;
    block.lines.forEach((text, i) => {
        const alone = RESULT_ALONE.exec(text);
        const inline = !alone && RESULT.exec(text);
        if (alone) {
            if (lastCode < 0) throw new Error(where + ' line ' + (block.line + i) + ': a // → result with no statement before it');
            const m = /^(\s*)(.*?)\s*$/.exec(block.lines[lastCode]);
            out[lastCode] = m[1] + checkedStatement(m[2], block.line + lastCode, alone[1], where);
            lines.push(block.line + lastCode);
        } else if (inline) {
            out[i] = inline[1] + checkedStatement(inline[2], block.line + i, inline[3], where);
            lines.push(block.line + i);
        }
        if (text.trim() && !text.trim().startsWith('//')) lastCode = i;
    });
    return { source: out.join('\n') + '\n', lines };
}

// runs `source` as a program in a fresh folder where 'qbson' is this repository, which is
// also its os.tmpdir() so that whatever an example writes is removed with it; `where` names
// the example's file in the checker's messages
function runExample(source, ext, preload, where = 'README') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-readme-'));
    try {
        fs.writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n');
        fs.mkdirSync(path.join(dir, 'node_modules'));
        fs.symlinkSync(ROOT, path.join(dir, 'node_modules', 'qbson'), 'dir');
        const file = path.join(dir, 'example' + ext);
        fs.writeFileSync(file, source);
        const checks = path.join(dir, 'checks.json');
        const args = preload ? ['-r', preload, file] : [file];
        const run = childProcess.spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 60000,
            env: { ...process.env, QBSON_README_CHECKS: checks, QBSON_README_FILE: where, TMPDIR: dir } });   // os.tmpdir(): removed below
        const checked = fs.existsSync(checks) ? JSON.parse(fs.readFileSync(checks, 'utf8')) : [];
        return { status: run.status, signal: run.signal, stderr: run.stderr, error: run.error, checked };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

function assertRan(run, what) {
    assert.ifError(run.error);
    assert.ok(run.status === 0 && run.signal === null, what + ' exited ' + (run.signal || run.status) + ':\n' + run.stderr);
}

// the examples of one file, each a test
function exampleTests(blocks) {
    for (const block of blocks) {
        const name = block.where + ' line ' + block.line + ' (```' + (block.lang || 'plain') + ')';
        const ext = EXTENSIONS[block.lang];
        const notRun = NOT_RUN.exec(block.lines[0]);
        if (!ext) {
            it.skip(name + ': not JavaScript, not run' + (block.lang === 'sh' ? ' (shell commands)' : ''), function () {});
            continue;
        }
        if (notRun) {
            it.skip(name + ': not run: ' + notRun[1], function () {});
            continue;
        }
        it(name + ' runs as written', function () {
            assertRan(runExample(block.lines.join('\n') + '\n', ext, null, block.where), name);
        });
        const checked = instrument(block);
        if (checked.lines.length === 0) continue;
        it(name + ': its ' + checked.lines.length + ' stated result' + (checked.lines.length === 1 ? '' : 's') + ' (// →) are what it gives', function () {
            const run = runExample(checked.source, ext, CHECKER, block.where);
            assertRan(run, name + ' with its results checked');
            assert.deepStrictEqual(run.checked, checked.lines, 'the ' + block.where + ' lines whose results were checked');
        });
    }
}

const runnableOf = (blocks) => blocks.filter((b) => EXTENSIONS[b.lang] && !NOT_RUN.test(b.lines[0]));

const blocks = codeBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const runnable = runnableOf(blocks);

// the text of a Markdown file outside its fenced code blocks and inline code spans
function prose(markdown) {
    return markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '').replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

// the anchors GitHub gives a Markdown file's headings: the heading's text, lower-case, without
// its punctuation and symbols, spaces made hyphens; a repeated anchor gets -1, -2, ...
function anchors(markdown) {
    const seen = new Map();
    const out = new Set();
    const text = markdown.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
    for (const m of text.matchAll(/^#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
        const base = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase().trim()
            .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
        const n = seen.get(base) || 0;
        seen.set(base, n + 1);
        out.add(n ? base + '-' + n : base);
    }
    return out;
}

// [{ target, file, anchor }] for every relative link [text](target) in the prose of `markdown`
function relativeLinks(markdown) {
    return [...prose(markdown).matchAll(/\]\(<?([^)\s>]*)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1])
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .map((target) => {
            const hash = target.indexOf('#');
            return { target, file: hash < 0 ? target : target.slice(0, hash), anchor: hash < 0 ? null : decodeURIComponent(target.slice(hash + 1)) };
        });
}

// every relative link of `file` names a file there is and, in a Markdown file, a heading it has
function assertLinksResolve(file, root = ROOT) {
    for (const link of relativeLinks(fs.readFileSync(path.join(root, file), 'utf8'))) {
        const target = link.file ? path.join(path.dirname(path.join(root, file)), link.file) : path.join(root, file);
        assert.ok(fs.existsSync(target), file + ' links to ' + link.target + ', and there is no ' + path.relative(root, target));
        if (link.anchor !== null && target.endsWith('.md')) {
            assert.ok(anchors(fs.readFileSync(target, 'utf8')).has(link.anchor),
                file + ' links to ' + link.target + ', and ' + path.relative(root, target) + ' has no heading of that anchor');
        }
    }
}

describe('README examples: ' + runnable.length + ' of ' + blocks.length + ' code blocks run', function () {
    it('has JavaScript examples to run', function () {
        assert.ok(runnable.length >= 8, runnable.length + ' runnable blocks');
    });

    it('every relative link names a file there is, and a heading it has', function () {
        assertLinksResolve('README.md');
    });

    it('lists in its Contents every section after it, and every part of the API', function () {
        const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
        const contents = readme.split(/^## Contents$/m)[1].split(/^## /m)[0];
        const listed = new Set(relativeLinks(contents).filter((l) => l.file === '').map((l) => l.anchor));
        const after = readme.slice(readme.indexOf('\n## Contents\n') + 1).split(/^(?=## )/m).slice(1);
        const headings = after.flatMap((part) => (part.startsWith('## API\n') ? [...anchors(part)] : [[...anchors(part)][0]]));
        assert.deepStrictEqual([...listed].sort(), headings.sort());
    });

    exampleTests(blocks);
});

for (const file of FILES.filter((f) => f !== 'README.md')) {
    const docBlocks = codeBlocks(fs.readFileSync(path.join(ROOT, file), 'utf8'), file);
    describe(file + ' examples: ' + runnableOf(docBlocks).length + ' of ' + docBlocks.length + ' code blocks run', function () {
        it('every relative link names a file there is, and a heading it has', function () {
            assertLinksResolve(file);
        });

        exampleTests(docBlocks);
    });
}

describe('README and docs/*.md: the link checker', function () {
    it('fails a link to a file there is not, or to a heading its file does not have', function () {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-links-'));
        try {
            fs.mkdirSync(path.join(dir, 'docs'));
            fs.writeFileSync(path.join(dir, 'docs', 'a.md'), '# A\n\n## Present here\n\nBack to [the top](../README.md#top).\n');
            const check = (text) => {
                fs.writeFileSync(path.join(dir, 'README.md'), '# Top\n\n' + text + '\n');
                assertLinksResolve('README.md', dir);
                assertLinksResolve('docs/a.md', dir);
            };
            check('[a](docs/a.md) [b](docs/a.md#present-here) [c](#top) [d](https://example.com/x.md)');
            assert.throws(() => check('[a](docs/none.md)'), /README\.md links to docs\/none\.md, and there is no docs\/none\.md/);
            assert.throws(() => check('[a](docs/a.md#absent)'), /links to docs\/a\.md#absent, and docs\/a\.md has no heading of that anchor/);
            assert.throws(() => check('[a](#absent)'), /links to #absent, and README\.md has no heading/);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it('reads links and anchors as GitHub does', function () {
        assert.deepStrictEqual([...anchors('# `encode(doc, opts?)`\n## `encodeInto(doc, buf, offset = 0, opts?)`\n' +
            '### decode(buf, { fields: [...] })\n```\n# not a heading\n```\n#### qbson ÷ others, ops/s\n## Notes\n## Notes\n')],
        ['encodedoc-opts', 'encodeintodoc-buf-offset--0-opts', 'decodebuf--fields--', 'qbson--others-opss', 'notes', 'notes-1']);
        assert.deepStrictEqual(relativeLinks('[a](docs/x.md#y) [b](https://example.com) `[c](no.md)` [d](#e)\n```\n[f](no.md)\n```\n'),
            [{ target: 'docs/x.md#y', file: 'docs/x.md', anchor: 'y' }, { target: '#e', file: '', anchor: 'e' }]);
    });
});

describe('README examples: the checker', function () {
    const sample = { lang: 'js', line: 10, lines: [
        'const a = [1, 2];   // → [ 1, 2 ]',
        'a.length;',
        '// → 2',
        'console.log(\'x\', a[0]);   // → x 1',
        'Buffer.from(\'abcdef\');   // → <Buffer 61 ... 66>',
    ] };

    it('rewrites each stated result into a check of that line', function () {
        const { source, lines } = instrument(sample);
        assert.deepStrictEqual(lines, [10, 11, 13, 14]);
        assert.match(source, /^const a = \[1, 2\]; __check\(10, "\[ 1, 2 \]", a\);$/m);
        assert.match(source, /^__check\(11, "2", \(a\.length\)\);$/m);
        assert.match(source, /^__checkLog\(13, "x 1", 'x', a\[0\]\);$/m);
    });

    it('passes true results and fails a wrong one, naming its line', function () {
        assertRan(runExample(instrument(sample).source, '.js', CHECKER), 'the sample');
        const wrong = runExample(instrument({ lang: 'js', line: 5, lines: ['1 + 1;   // → 3'] }).source, '.js', CHECKER);
        assert.strictEqual(wrong.status, 1);
        assert.match(wrong.stderr, /README line 5: the comment says 3 but it gives 2/);
        const inDoc = runExample(instrument({ lang: 'js', line: 5, lines: ['1 + 1;   // → 3'], where: 'docs/x.md' }).source, '.js', CHECKER, 'docs/x.md');
        assert.match(inDoc.stderr, /docs\/x\.md line 5: the comment says 3 but it gives 2/);
    });

    it('refuses a stated result it cannot attach to one statement', function () {
        assert.throws(() => instrument({ lang: 'js', line: 1, lines: ['f(1)   // → 2'] }), /line 1: .* ending in ;/);
        assert.throws(() => instrument({ lang: 'js', line: 1, lines: ['// → 2'] }), /no statement before it/);
    });
});
