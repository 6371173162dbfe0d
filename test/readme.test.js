'use strict';

// Every JavaScript example in README.md runs as written: each ```js (CommonJS) or ```mjs
// (ES module) block is saved as its own program in a fresh temporary folder where
// require('qbson') / import 'qbson' resolve to this repository, and must exit 0.
// A `// → text` comment states a result: the block is run a second time, rewritten so that
// each such line checks its value (util.inspect on one line; for console.log, what it prints;
// `...` in the text stands for anything), and every stated result must have been checked.
// Not run, each named as a skipped test: blocks in other languages (shell commands, the
// command synopsis), and a block whose first line is `// not run: <reason>`.

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

// [{ lang, line (README line of the block's first code line), lines }]
function codeBlocks(markdown) {
    const blocks = [];
    let block = null;
    markdown.split('\n').forEach((text, i) => {
        if (!block) {
            const open = /^```(\S*)\s*$/.exec(text);
            if (open) block = { lang: open[1], line: i + 2, lines: [] };
        } else if (/^```\s*$/.test(text)) {
            blocks.push(block);
            block = null;
        } else {
            block.lines.push(text);
        }
    });
    assert.strictEqual(block, null, 'README.md ends inside a code block');
    return blocks;
}

// the statement on one line rewritten to check its value against `expected`
function checkedStatement(code, line, expected) {
    if (!code.endsWith(';')) throw new Error('README line ' + line + ': a line with a // → result must hold one statement ending in ;');
    const e = JSON.stringify(expected);
    const log = /^console\.log\((.+)\);$/.exec(code);
    if (log) return `__checkLog(${line}, ${e}, ${log[1]});`;
    const declared = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(code);
    if (declared) return `${code} __check(${line}, ${e}, ${declared[1]});`;
    return `__check(${line}, ${e}, (${code.slice(0, -1)}));`;
}

// the block with a check on every line that states a result, and those README lines
function instrument(block) {
    const out = block.lines.slice();
    const lines = [];
    let lastCode = -1;
    block.lines.forEach((text, i) => {
        const alone = RESULT_ALONE.exec(text);
        const inline = !alone && RESULT.exec(text);
        if (alone) {
            if (lastCode < 0) throw new Error('README line ' + (block.line + i) + ': a // → result with no statement before it');
            const m = /^(\s*)(.*?)\s*$/.exec(block.lines[lastCode]);
            out[lastCode] = m[1] + checkedStatement(m[2], block.line + lastCode, alone[1]);
            lines.push(block.line + lastCode);
        } else if (inline) {
            out[i] = inline[1] + checkedStatement(inline[2], block.line + i, inline[3]);
            lines.push(block.line + i);
        }
        if (text.trim() && !text.trim().startsWith('//')) lastCode = i;
    });
    return { source: out.join('\n') + '\n', lines };
}

// runs `source` as a program in a fresh folder where 'qbson' is this repository, which is
// also its os.tmpdir() so that whatever an example writes is removed with it
function runExample(source, ext, preload) {
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
            env: { ...process.env, QBSON_README_CHECKS: checks, TMPDIR: dir } });   // os.tmpdir(): removed below
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

const blocks = codeBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
const runnable = blocks.filter((b) => EXTENSIONS[b.lang] && !NOT_RUN.test(b.lines[0]));

describe('README examples: ' + runnable.length + ' of ' + blocks.length + ' code blocks run', function () {
    it('has JavaScript examples to run', function () {
        assert.ok(runnable.length >= 8, runnable.length + ' runnable blocks');
    });

    for (const block of blocks) {
        const name = 'README line ' + block.line + ' (```' + (block.lang || 'plain') + ')';
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
            assertRan(runExample(block.lines.join('\n') + '\n', ext, null), name);
        });
        const checked = instrument(block);
        if (checked.lines.length === 0) continue;
        it(name + ': its ' + checked.lines.length + ' stated result' + (checked.lines.length === 1 ? '' : 's') + ' (// →) are what it gives', function () {
            const run = runExample(checked.source, ext, CHECKER);
            assertRan(run, name + ' with its results checked');
            assert.deepStrictEqual(run.checked, checked.lines, 'the README lines whose results were checked');
        });
    }
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
    });

    it('refuses a stated result it cannot attach to one statement', function () {
        assert.throws(() => instrument({ lang: 'js', line: 1, lines: ['f(1)   // → 2'] }), /line 1: .* ending in ;/);
        assert.throws(() => instrument({ lang: 'js', line: 1, lines: ['// → 2'] }), /no statement before it/);
    });
});
