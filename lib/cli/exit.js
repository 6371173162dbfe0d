'use strict';

// What must be undone however the command ends: a progress bar to take off the
// terminal (its cursor shown again), a temporary output file to remove. On
// SIGINT, SIGTERM or SIGHUP the undoing runs and the process ends by that
// signal, which the shell reports as 128 + its number (130, 143, 129).

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
        process.on(signal, function onSignal() {
            undoAll();
            // Ending by the signal itself gives the shell its status (128 + n) and does
            // not wait, as process.exit would, for a read blocked on a named pipe.
            process.off(signal, onSignal);
            process.kill(process.pid, signal);
            setTimeout(() => process.exit(SIGNAL_STATUS[signal]), 1000).unref();
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
