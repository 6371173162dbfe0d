'use strict';

// Where a command's output goes, written with backpressure. A file is written
// as a temporary file beside it and renamed into place only when the command
// has written everything, so a failed or interrupted run leaves the old file
// (or none) in place, never a truncated or half-written one; the temporary file
// is removed on failure and on SIGINT/SIGTERM. An output that is the input
// (the same file, by any name or link) is refused before anything is opened.

const { Buffer } = require('buffer');
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { UsageError, InputError, describeSystemError } = require('./io');
const { untilDone } = require('./exit');

// output is gathered into writes of about this size
const WRITE_BATCH_SIZE = 64 * 1024;

function waitForDrain(stream) {
    return new Promise((resolve, reject) => {
        function cleanup() {
            stream.off('drain', onDrain);
            stream.off('error', onError);
            stream.off('close', onClose);
        }
        function onDrain() {
            cleanup();
            resolve();
        }
        function onError(err) {
            cleanup();
            reject(err);
        }
        function onClose() {
            cleanup();
            reject(Object.assign(new Error('output closed'), { code: 'EPIPE' }));
        }
        stream.on('drain', onDrain);
        stream.on('error', onError);
        stream.on('close', onClose);
    });
}

function statOrNull(file) {
    try {
        return fs.statSync(file);
    } catch (err) {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
        throw new InputError(`${file}: ${describeSystemError(err)}`, err);
    }
}

function sameFile(a, b) {
    return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;
}

// A regular file replaced whole on commit: the data goes to a temporary file
// in the same directory (so the rename stays on one file system).
class ReplacedFile {
    constructor(target, existing) {
        this.target = existing === null ? target : fs.realpathSync(target);
        const dir = path.dirname(this.target);
        this.temp = path.join(dir, `.${path.basename(this.target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
        try {
            this.fd = fs.openSync(this.temp, 'wx', 0o666);
        } catch (err) {
            throw new InputError(`${target}: ${describeSystemError(err)}`, err);
        }
        this.forget = untilDone(() => this.discard());
        if (existing !== null) this.keepOwnerAndMode(existing);
    }

    keepOwnerAndMode(st) {
        fs.fchmodSync(this.fd, st.mode & 0o7777);
        try {
            fs.fchownSync(this.fd, st.uid, st.gid);
        } catch (err) {
            // only the owner's own files can be given away; the mode is kept all the same
        }
    }

    // Everything is written: on disk, then in place.
    commit() {
        fs.fsyncSync(this.fd);
        fs.closeSync(this.fd);
        this.fd = -1;
        fs.renameSync(this.temp, this.target);
        this.forget();
    }

    discard() {
        this.forget();
        if (this.fd !== -1) {
            try {
                fs.closeSync(this.fd);
            } catch (err) {
                // already closed by its stream
            }
            this.fd = -1;
        }
        try {
            fs.unlinkSync(this.temp);
        } catch (err) {
            // gone already
        }
    }
}

// Gathers strings or buffers into batches and writes them, waiting for 'drain'
// when the stream asks to: output never piles up in memory.
class Sink {
    constructor(stream, name, isStdout, replaced) {
        this.stream = stream;
        this.name = name;
        this.isStdout = isStdout;
        this.replaced = replaced;
        this.parts = [];
        this.size = 0;
        this.error = null;
        this.onError = (err) => {
            if (this.error === null) this.error = err;
        };
        stream.on('error', this.onError);
    }

    // Adds data; true when a batch is full and flush() should be awaited.
    add(data) {
        this.parts.push(data);
        this.size += data.length;
        return this.size >= WRITE_BATCH_SIZE;
    }

    checkError() {
        if (this.error !== null) throw this.outputError(this.error);
    }

    outputError(err) {
        if (err.code === 'EPIPE') return err;
        return new InputError(`${this.name}: ${describeSystemError(err)}`, err);
    }

    async flush() {
        this.checkError();
        if (this.parts.length === 0) return;
        const parts = this.parts;
        const data = parts.length === 1 ? parts[0] : typeof parts[0] === 'string' ? parts.join('') : Buffer.concat(parts, this.size);
        this.parts = [];
        this.size = 0;
        try {
            if (!this.stream.write(data)) await waitForDrain(this.stream);
        } catch (err) {
            throw this.outputError(err);
        }
        this.checkError();
    }

    // Flushes, then waits until everything written has left; a replaced file
    // then takes its place.
    async end() {
        await this.flush();
        const stream = this.stream;
        await new Promise((resolve, reject) => {
            const fail = (err) => reject(this.outputError(err));
            if (this.isStdout) {
                stream.write('', (err) => (err ? fail(err) : resolve()));
            } else {
                stream.once('error', fail);
                stream.once(this.replaced === null ? 'close' : 'finish', resolve);
                stream.end();
            }
        });
        stream.off('error', this.onError);
        if (this.replaced !== null) {
            try {
                this.replaced.commit();
            } catch (err) {
                this.replaced.discard();
                throw this.outputError(err);
            }
        }
    }

    // After a failure: standard output (or a device) still gets what was
    // gathered, best effort; a replaced file is left as it was.
    async abandon() {
        if (this.replaced !== null) {
            this.stream.destroy();
            this.replaced.discard();
            return;
        }
        try {
            await this.end();
        } catch (err) {
            // the failure being reported matters more
        }
    }
}

// The output file the command line names: -o/--out or bsondump's --outFile (undefined: standard output).
function outputFileOf(values) {
    if (values.out !== undefined && values.outFile !== undefined) throw new UsageError('give -o/--out or --outFile, not both');
    return values.out === undefined ? values.outFile : values.out;
}

// file: the -o argument (undefined or - for standard output); input: what
// openInput returned, so that the input is never overwritten.
function openOutput(file, input) {
    if (file === undefined || file === '-') return new Sink(process.stdout, '<stdout>', true, null);
    const existing = statOrNull(file);
    if (sameFile(existing, input === undefined ? null : input.stat)) {
        throw new UsageError(`the output ${file} is the input ${input.name}: refusing to overwrite it`);
    }
    if (existing !== null && existing.isDirectory()) throw new InputError(`${file}: is a directory`);
    // a device or a pipe (/dev/null, a FIFO) is written to as it is
    if (existing !== null && !existing.isFile()) return new Sink(fs.createWriteStream(file), file, false, null);
    // replacing a file by rename needs only the directory's permission: ask for the file's, as writing it would
    if (existing !== null) {
        try {
            fs.accessSync(file, fs.constants.W_OK);
        } catch (err) {
            throw new InputError(`${file}: ${describeSystemError(err)}`, err);
        }
    }
    const replaced = new ReplacedFile(file, existing);
    const stream = fs.createWriteStream(null, { fd: replaced.fd, autoClose: false });
    return new Sink(stream, file, false, replaced);
}

module.exports = { openOutput, outputFileOf, Sink };
