'use strict';

// The progress line on standard error, drawn by cli-progress: bytes done of the
// input's size, documents, documents per second and ETA; for an input of unknown
// size (a pipe), bytes and documents done. The line always fits the terminal's
// width: the bar goes first, then the least useful figures. Only when the stream
// is a terminal; otherwise every method does nothing.

const { untilDone } = require('./exit');

const BAR_SIZE = 30;
const MIN_BAR_SIZE = 10;

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

// The figures, most useful first; fitLine drops them from the end.
function figuresOf(payload, params, options, formatTime) {
    const bytes = payload.size === null ? formatBytes(payload.bytes) : `${formatBytes(payload.bytes)} / ${formatBytes(payload.size)}`;
    const figures = [];
    if (payload.size !== null) figures.push(`${Math.floor(params.progress * 100)}%`);
    figures.push(bytes, `${payload.docs} docs`);
    // before the first estimate cli-progress gives a word, not a number
    if (payload.size !== null) figures.push(`ETA ${typeof params.eta === 'number' && isFinite(params.eta) ? formatTime(params.eta, options, 5) : '?'}`);
    figures.push(`${payload.rate} docs/s`);
    return figures;
}

// One line of at most width - 1 characters (the last column would wrap on some
// terminals). What gives way, in turn: the command's name, the bar, then the
// figures from the least useful.
function fitLine(label, figures, progress, width, formatBar) {
    const room = Math.max(width - 1, 1);
    const shown = figures.slice();
    for (;;) {
        const text = shown.join(' | ');
        if (label.length + 1 + text.length <= room && progress === null) return `${label} ${text}`;
        if (progress !== null) {
            const withLabel = Math.min(BAR_SIZE, room - label.length - text.length - 4);
            if (withLabel >= MIN_BAR_SIZE) return `${label} [${bar(progress, withLabel, formatBar)}] ${text}`;
            const alone = Math.min(BAR_SIZE, room - text.length - 3);
            if (alone >= MIN_BAR_SIZE) return `[${bar(progress, alone, formatBar)}] ${text}`;
        }
        if (text.length <= room) return text;
        if (shown.length === 1) return text.slice(0, room);
        shown.pop();
    }
}

function bar(progress, size, formatBar) {
    return formatBar(progress, { barsize: size, barCompleteString: '='.repeat(size), barIncompleteString: '-'.repeat(size), barGlue: '' });
}

class Progress {
    // size: the input's size in bytes, or null when unknown.
    constructor(command, size, enabled, stream) {
        this.bar = null;
        this.stream = stream || process.stderr;
        if (!enabled || !this.stream.isTTY) return;
        const cliProgress = require('cli-progress');
        this.started = Date.now();
        this.size = size;
        const label = `qbson ${command}`;
        const formatBar = cliProgress.Format.BarFormat;
        const formatTime = cliProgress.Format.TimeFormat;
        this.bar = new cliProgress.SingleBar({
            stream: this.stream,
            format: (options, params, payload) => fitLine(label, figuresOf(payload, params, options, formatTime), payload.size === null ? null : params.progress, params.maxWidth, formatBar),
            hideCursor: true,
            // signals are ours to handle (lib/cli/exit.js): the bar must not keep the process alive
            gracefulExit: false,
            fps: 8,
        });
        this.bar.start(size === null ? 1 : Math.max(size, 1), 0, this.payload(0, 0));
        this.forget = untilDone(() => this.stop());
    }

    payload(bytes, docs) {
        const seconds = (Date.now() - this.started) / 1000;
        const rate = seconds > 0 ? Math.round(docs / seconds) : 0;
        return { bytes, size: this.size, docs, rate };
    }

    update(bytes, docs) {
        if (this.bar === null) return;
        this.bar.update(this.size === null ? 0 : Math.min(bytes, this.size), this.payload(bytes, docs));
    }

    stop() {
        if (this.bar === null) return;
        const bar = this.bar;
        this.bar = null;
        this.forget();
        bar.stop();
    }
}

module.exports = { Progress, formatBytes, fitLine };
