'use strict';

// The loop under dump, stat and validate: the input's chunks cut into documents
// by lib/stream's splitter, each handed to `each(bytes, offset)` in order. Every
// document before a damaged spot is handed over before the damage is reported.
// With keepGoing, a document whose length is intact but whose content `each`
// rejects is reported (number, offset, reason) and skipped, and damage to the
// lengths themselves ends the reading as a last skip instead of a failure.

const { DocumentSplitter } = require('../stream');
const { BSONError } = require('../errors');
const { InputError, chunksOf } = require('./io');
const { Progress } = require('./progress');

// each may return a promise (output waiting to drain); it is awaited.
// Resolves to { documents (all whose length was intact), skipped, bytes }.
async function readDocuments(input, opts, each) {
    const splitter = new DocumentSplitter({ maxDocumentSize: opts.maxDocumentSize });
    const progress = new Progress(opts.command, input.size, opts.progress);
    const batch = [];
    let bytes = 0;
    let documents = 0;
    let skipped = 0;

    function skip(err, offset) {
        skipped++;
        progress.stop();
        process.stderr.write(`qbson ${opts.command}: ${input.name}: skipped document ${documents + 1} at offset ${offset}: ${err.message}\n`);
    }

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
                try {
                    const pending = each(batch[i], batch[i + 1]);
                    if (pending !== undefined) await pending;
                } catch (err) {
                    if (!opts.keepGoing || !(err instanceof BSONError)) throw err;
                    skip(err, batch[i + 1]);
                }
                documents++;
            }
            batch.length = 0;
            progress.update(bytes, documents);
            if (damage !== null) throw damage;
        }
        splitter.end();
    } catch (err) {
        if (!opts.keepGoing || !(err instanceof BSONError)) throw asInputError(err, input.name, documents - skipped);
        skipped++;
        process.stderr.write(`qbson ${opts.command}: ${input.name}: the rest cannot be read: ${err.message}\n`);
    } finally {
        progress.stop();
    }
    return { documents, skipped, bytes };
}

// The library names its option; the command names its flag. Damage before
// any good document may well mean the file is not BSON at all.
function asInputError(err, name, good) {
    if (!(err instanceof BSONError)) return err;
    const message = err.message.replace(/exceeds maxDocumentSize (\d+)/, 'exceeds the limit of $1 bytes (--max-document-size raises it)');
    if (good === 0) return new InputError(`${name}: ${message} (no good document before it: is this a BSON file?)`, err);
    const where = good === 1 ? 'after 1 good document' : `after ${good} good documents`;
    return new InputError(`${name}: ${message} (${where})`, err);
}

module.exports = { readDocuments };
