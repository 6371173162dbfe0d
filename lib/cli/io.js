'use strict';

// What the qbson commands share: opening the input and the two kinds of
// failure (usage, input). Output is lib/cli/output.js's, the bar progress.js's.

const fs = require('fs');
const net = require('net');

const READ_CHUNK_SIZE = 1024 * 1024;

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

// The input as a stream of chunks, with its size when known (a regular file)
// and its stat (so an output file can be told apart from it), null if unknown.
function openInput(file) {
    const name = displayName(file);
    if (file === '-') {
        let st = null;
        try {
            st = fs.fstatSync(0);
        } catch (err) {
            // no size: the bar shows bytes done only
        }
        return { name, stream: process.stdin, size: st !== null && st.isFile() ? st.size : null, stat: st };
    }
    let st;
    try {
        st = fs.statSync(file);
    } catch (err) {
        throw new InputError(`${name}: ${describeSystemError(err)}`, err);
    }
    if (st.isDirectory()) throw new InputError(`${name}: is a directory`);
    const stream = st.isFIFO() ? namedPipeChunks(file) : fs.createReadStream(file, { highWaterMark: READ_CHUNK_SIZE });
    return { name, stream, size: st.isFile() ? st.size : null, stat: st };
}

// A named pipe is read as a socket, not by the thread pool: a read the thread
// pool has waiting on a pipe whose writer has stalled would keep the process
// from exiting after a failure until the writer closes.
async function* namedPipeChunks(file) {
    const fd = await new Promise((resolve, reject) => fs.open(file, 'r', (err, opened) => (err ? reject(err) : resolve(opened))));
    const socket = new net.Socket({ fd, readable: true, writable: false });
    try {
        yield* socket;
    } finally {
        socket.destroy();
    }
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

module.exports = {
    UsageError,
    InputError,
    openInput,
    describeSystemError,
    chunksOf,
    displayName,
};
