'use strict';

// What the qbson commands share: opening the input, writing output with
// backpressure, the progress bar, and the two kinds of failure (usage, input).

const fs = require('fs');

const READ_CHUNK_SIZE = 1024 * 1024;
// output is gathered into writes of about this size
const WRITE_BATCH_SIZE = 64 * 1024;

// A mistake in the command line: exit status 2.
class UsageError extends Error {}

// Input that cannot be read or is not what it should be: exit status 1. The
// message names the file (and, from the decoder, the byte offset).
class InputError extends Error {
    constructor(message, cause) {
        super(message);
        if (cause !== undefined) this.cause = cause;
    }
}

function displayName(file) {
    return file === '-' ? '<stdin>' : file;
}

// The input as a stream of chunks, with its size when known (a regular file).
function openInput(file) {
    const name = displayName(file);
    if (file === '-') {
        let size = null;
        try {
            const st = fs.fstatSync(0);
            if (st.isFile()) size = st.size;
        } catch (err) {
            // no size: no progress bar
        }
        return { name, stream: process.stdin, size };
    }
    let st;
    try {
        st = fs.statSync(file);
    } catch (err) {
        throw new InputError(`${name}: ${describeSystemError(err)}`, err);
    }
    if (st.isDirectory()) throw new InputError(`${name}: is a directory`);
    const stream = fs.createReadStream(file, { highWaterMark: READ_CHUNK_SIZE });
    return { name, stream, size: st.isFile() ? st.size : null };
}

function describeSystemError(err) {
    switch (err.code) {
        case 'ENOENT':
            return 'no such file or directory';
        case 'EACCES':
        case 'EPERM':
            return 'permission denied';
        case 'EISDIR':
            return 'is a directory';
        default:
            return err.message;
    }
}

// Reads chunks from an opened input, turning read failures into InputErrors.
async function* chunksOf(input) {
    try {
        for await (const chunk of input.stream) yield chunk;
    } catch (err) {
        if (err instanceof InputError) throw err;
        throw new InputError(`${input.name}: ${describeSystemError(err)}`, err);
    }
}

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

// Gathers strings or buffers into batches and writes them, waiting for 'drain'
// when the stream asks to: output never piles up in memory.
class Sink {
    constructor(stream, name, isStdout) {
        this.stream = stream;
        this.name = name;
        this.isStdout = isStdout;
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

    // Flushes, then waits until everything written has left (and a file is closed).
    async end() {
        await this.flush();
        const stream = this.stream;
        await new Promise((resolve, reject) => {
            const fail = (err) => reject(this.outputError(err));
            if (this.isStdout) {
                stream.write('', (err) => (err ? fail(err) : resolve()));
            } else {
                stream.once('error', fail);
                stream.once('close', resolve);
                stream.end();
            }
        });
        stream.off('error', this.onError);
    }

    // After a failure: whatever is gathered still goes out, best effort.
    async abandon() {
        try {
            await this.end();
        } catch (err) {
            // the failure being reported matters more
        }
    }
}

function openOutput(file) {
    if (file === undefined || file === '-') return new Sink(process.stdout, '<stdout>', true);
    const stream = fs.createWriteStream(file);
    return new Sink(stream, file, false);
}

function formatBytes(n) {
    if (n < 1024) return `${n} B`;
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    let value = n / 1024;
    let i = 0;
    while (value >= 1024 && i < units.length - 1) {
        value /= 1024;
        i++;
    }
    return `${value.toFixed(value < 10 ? 2 : 1)} ${units[i]}`;
}

// A progress bar on stderr: bytes done of the input's size, documents per
// second and ETA. Only when stderr is a terminal and the size is known; else
// every method does nothing, and nothing but errors reaches stderr.
class Progress {
    constructor(command, size, enabled) {
        this.bar = null;
        if (!enabled || size === null || !process.stderr.isTTY) return;
        const cliProgress = require('cli-progress');
        this.started = Date.now();
        this.size = size;
        this.sizeText = formatBytes(size);
        this.bar = new cliProgress.SingleBar(
            {
                stream: process.stderr,
                format: `qbson ${command} [{bar}] {percentage}% | {done} / {total_size} | {docs} docs | {rate} docs/s | ETA {eta_formatted}`,
                barsize: 30,
                hideCursor: true,
                fps: 8,
            },
            cliProgress.Presets.legacy
        );
        this.bar.start(Math.max(size, 1), 0, this.payload(0, 0));
    }

    payload(bytes, docs) {
        const seconds = (Date.now() - this.started) / 1000;
        const rate = seconds > 0 ? Math.round(docs / seconds) : 0;
        return { done: formatBytes(bytes), total_size: this.sizeText, docs, rate };
    }

    update(bytes, docs) {
        if (this.bar === null) return;
        this.bar.update(Math.min(bytes, this.size), this.payload(bytes, docs));
    }

    stop() {
        if (this.bar === null) return;
        this.bar.stop();
        this.bar = null;
    }
}

module.exports = {
    UsageError,
    InputError,
    openInput,
    openOutput,
    chunksOf,
    displayName,
    Progress,
    formatBytes,
};
