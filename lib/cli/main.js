'use strict';

// The qbson command: parses the command line (util.parseArgs), runs one
// command, and turns the outcome into an exit status: 0 done, 1 bad input
// (the message names the file and byte offset), 2 a mistake in the usage.

const { parseArgs } = require('util');
const tty = require('tty');
const { UsageError, InputError, displayName } = require('./io');

// Each command's module (its options, help and code) is loaded only when that
// command runs, so help and usage errors come back fast.
const COMMANDS = new Map([
    ['dump', { summary: 'print each document as Extended JSON, one a line', load: () => require('./dump') }],
    ['load', { summary: 'write Extended JSON documents as BSON', load: () => require('./load') }],
    ['stat', { summary: 'count documents, sizes, nesting and BSON types', load: () => require('./stat') }],
    ['validate', { summary: 'check every document; report the first error and its offset', load: () => require('./validate') }],
]);

const EXIT_OK = 0;
const EXIT_BAD_INPUT = 1;
const EXIT_USAGE = 2;

function programHelp() {
    const width = Math.max(...[...COMMANDS.keys()].map((n) => n.length)) + ' [FILE|-]'.length + 3;
    const commands = [...COMMANDS].map(([name, c]) => `  ${(name + ' [FILE|-]').padEnd(width)}${c.summary}`).join('\n');
    return `Usage: qbson <command> [options] [FILE|-]

Reads and writes BSON files: documents stored back to back, as mongodump
writes them. Works as a stream, so files of any size convert in memory bounded
by the largest document. FILE - or no FILE means standard input.

Commands:
${commands}

Options:
  -h, --help     show this help (each command has its own: qbson dump --help)
  --version      print qbson's version

Exit status: 0 success, 1 bad input (the message names the file and byte
offset; with --keep-going, any document skipped), 2 usage error; stopped by
Ctrl-C or SIGTERM, it ends by that signal (130, 143). When standard error is a
terminal, a progress line shows bytes and documents done, and for an input of
known size the percentage, documents per second and ETA.
`;
}

// options every command takes
const COMMON_OPTIONS = {
    help: { type: 'boolean', short: 'h' },
    quiet: { type: 'boolean', short: 'q' },
    verbose: { type: 'boolean', short: 'v', multiple: true },
    'max-document-size': { type: 'string' },
};
// and those of the commands that read BSON (dump, stat, validate)
const READ_OPTIONS = {
    bsonFile: { type: 'string' },
    'keep-going': { type: 'boolean' },
};

function parseMaxDocumentSize(text) {
    if (text === undefined) return require('../stream').DEFAULT_MAX_DOCUMENT_SIZE;
    const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n) || n < 5 || n > 0x7fffffff) {
        throw new UsageError(`--max-document-size must be a whole number of bytes from 5 to 2147483647, not '${text}'`);
    }
    return n;
}

function editDistance(a, b) {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) {
            next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        row = next;
    }
    return row[b.length];
}

// The option of `options` spelled most like `given` (--name or -x), or null when none is close.
function nearestOption(given, options) {
    const name = given.replace(/^-+/, '').split('=')[0].toLowerCase();
    let best = null;
    let bestDistance = Infinity;
    for (const option of Object.keys(options)) {
        const d = editDistance(name, option.toLowerCase());
        if (d < bestDistance) {
            best = option;
            bestDistance = d;
        }
    }
    return bestDistance <= Math.max(2, Math.floor(name.length / 2)) ? best : null;
}

// The unknown option as the user typed it, from parseArgs' message
function unknownOptionError(err, options) {
    const match = /^Unknown option '([^']*)'/.exec(err.message);
    const given = match === null ? '' : match[1];
    const nearest = nearestOption(given, options);
    return new UsageError(`unknown option '${given}'${nearest === null ? '' : ` (did you mean --${nearest}?)`}`);
}

function parse(args, options) {
    try {
        return parseArgs({ args, options, allowPositionals: true, strict: true });
    } catch (err) {
        if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw unknownOptionError(err, options);
        if (err.code && err.code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(err.message.split('\n')[0]);
        throw err;
    }
}

function inputFile(values, positionals) {
    if (positionals.length > 1) throw new UsageError(`takes one FILE, not ${positionals.length}: ${positionals.join(' ')}`);
    if (values.bsonFile !== undefined && positionals.length === 1) throw new UsageError('give FILE or --bsonFile, not both');
    let file = values.bsonFile === undefined ? positionals[0] : values.bsonFile;
    if (file === undefined) {
        if (tty.isatty(0)) throw new UsageError('no FILE given and standard input is a terminal');
        file = '-';
    }
    if (file === '') throw new UsageError('FILE must not be empty');
    return file;
}

async function runCommand(command, args) {
    const { values, positionals } = parse(args, { ...COMMON_OPTIONS, ...(command.readsBSON ? READ_OPTIONS : {}), ...command.options });
    if (values.help) {
        process.stdout.write(command.help);
        return EXIT_OK;
    }
    const maxDocumentSize = parseMaxDocumentSize(values['max-document-size']);
    const file = inputFile(values, positionals);
    const common = { progress: !values.quiet, quiet: Boolean(values.quiet), maxDocumentSize, keepGoing: Boolean(values['keep-going']) };
    const result = await command.run(values, file, common);
    if (values.verbose !== undefined && !values.quiet) {
        process.stderr.write(`qbson ${command.name}: ${displayName(file)}: ${result.bytes} bytes, ${result.documents} documents${result.skipped ? `, ${result.skipped} skipped` : ''}\n`);
    }
    return result.skipped ? EXIT_BAD_INPUT : EXIT_OK;
}

function version() {
    return require('../../package.json').version;
}

// Runs the command line args (process.argv.slice(2)); resolves to the exit status.
async function main(args) {
    let prefix = 'qbson';
    try {
        if (args.length === 0) {
            process.stderr.write(programHelp());
            return EXIT_USAGE;
        }
        const name = args[0];
        if (COMMANDS.has(name)) {
            prefix = `qbson ${name}`;
            return await runCommand(COMMANDS.get(name).load(), args.slice(1));
        }
        if (name === 'help') {
            const which = args[1] === undefined ? undefined : COMMANDS.get(args[1]);
            if (args.length > 2 || (args[1] !== undefined && which === undefined)) throw new UsageError(`no help for '${args.slice(1).join(' ')}'`);
            process.stdout.write(which === undefined ? programHelp() : which.load().help);
            return EXIT_OK;
        }
        if (!name.startsWith('-')) throw new UsageError(`unknown command '${name}' (commands: ${[...COMMANDS.keys()].join(', ')})`);
        const { values, positionals } = parse(args, { help: COMMON_OPTIONS.help, version: { type: 'boolean' } });
        if (values.help) {
            process.stdout.write(programHelp());
            return EXIT_OK;
        }
        if (values.version) {
            process.stdout.write(`qbson ${version()}\n`);
            return EXIT_OK;
        }
        throw new UsageError(`expected a command before '${positionals[0] || args[0]}'`);
    } catch (err) {
        if (err instanceof UsageError) {
            // one line, so it stays readable in a script's log
            process.stderr.write(`${prefix}: ${err.message} (see '${prefix} --help')\n`);
            return EXIT_USAGE;
        }
        if (err instanceof InputError) {
            process.stderr.write(`${prefix}: ${err.message}\n`);
            return EXIT_BAD_INPUT;
        }
        // a reader that went away (qbson dump big.bson | head) is not a failure
        if (err && err.code === 'EPIPE') return EXIT_OK;
        process.stderr.write(`${prefix}: ${err && err.stack ? err.stack : err}\n`);
        return EXIT_BAD_INPUT;
    }
}

module.exports = { main, programHelp, EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE };
