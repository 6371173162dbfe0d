'use strict';

// What must be undone however the command ends: a progress bar to take off the
// terminal (its cursor shown again), a temporary output file to remove. On
// SIGINT, SIGTERM or SIGHUP the undoing runs and the process exits with the
// conventional status, 128 + the signal's number.

const SIGNAL_STATUS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const pending = new Set();
let installed = false;

function undoAll() {
    const steps = [...pending].reverse();
    pending.clear();
    for (const step of steps) {
        try {
            step();
        } catch (err) {
            // the other steps still run
        }
    }
}

function install() {
    if (installed) return;
    installed = true;
    for (const signal of Object.keys(SIGNAL_STATUS)) {
        process.on(signal, () => {
            undoAll();
            process.exit(SIGNAL_STATUS[signal]);
        });
    }
    process.on('exit', undoAll);
}

// Registers step to run if the process ends before the returned function is called.
function untilDone(step) {
    install();
    pending.add(step);
    return () => {
        pending.delete(step);
    };
}

module.exports = { untilDone, SIGNAL_STATUS };
