'use strict';

// The loop under dump, stat and validate: the input's chunks cut into documents
// by lib/stream's splitter, each handed to `each(bytes, offset)` in order. Every
// document before a damaged spot is handed over before the damage is reported.

const { DocumentSplitter } = require('../stream');
const { BSONError } = require('../errors');
const { InputError, chunksOf, Progress } = require('./io');

// each may return a promise (output waiting to drain); it is awaited.
async function readDocuments(input, opts, each) {
    const splitter = new DocumentSplitter({ maxDocumentSize: opts.maxDocumentSize });
    const progress = new Progress(opts.command, input.size, opts.progress);
    const batch = [];
    let bytes = 0;
    let documents = 0;
    try {
        for await (const chunk of chunksOf(input)) {
            bytes += chunk.length;
            let damage = null;
            try {
                splitter.push(chunk, batch);
            } catch (err) {
                damage = err;
            }
            for (let i = 0; i < batch.length; i += 2) {
                const pending = each(batch[i], batch[i + 1]);
                if (pending !== undefined) await pending;
                documents++;
            }
            batch.length = 0;
            progress.update(bytes, documents);
            if (damage !== null) throw damage;
        }
        splitter.end();
    } catch (err) {
        throw asInputError(err, input.name, documents);
    } finally {
        progress.stop();
    }
    return { documents, bytes };
}

function asInputError(err, name, documents) {
    if (err instanceof BSONError) {
        const where = documents === 1 ? 'after 1 good document' : `after ${documents} good documents`;
        return new InputError(`${name}: ${err.message} (${where})`, err);
    }
    return err;
}

module.exports = { readDocuments };
