'use strict';

// Number formatting, and the result tables as plain text or Markdown.
// The tables are built from the results object alone (the one --json writes).

const { BUILTIN } = require('./libraries');

const DIRECTIONS = ['encode', 'decode'];

function sig3(x) {
    if (!isFinite(x)) return '-';
    if (x >= 100) return String(Math.round(x));
    if (x >= 10) return x.toFixed(1);
    return x.toFixed(2);
}

function count(x) {
    if (!(x >= 0)) return '-';
    if (x >= 999.5e6) return sig3(x / 1e9) + 'G';
    if (x >= 999.5e3) return sig3(x / 1e6) + 'M';
    if (x >= 999.5) return sig3(x / 1e3) + 'k';
    return sig3(x);
}

function bytes(x) {
    if (!(x >= 0)) return '-';
    if (x >= 999.5e3) return sig3(x / 1e6) + ' MB';
    if (x >= 999.5) return sig3(x / 1e3) + ' kB';
    return Math.round(x) + ' B';
}

function micros(seconds) {
    if (!(seconds >= 0)) return '-';
    const us = seconds * 1e6;
    return us >= 999.5 ? sig3(us / 1e3) + ' ms' : sig3(us) + ' µs';
}

// rows: arrays of cells (strings); align: one 'l' or 'r' per column, default 'l' then all 'r'
function table(title, header, rows, markdown, align) {
    const left = (i) => (align ? align[i] === 'l' : i === 0);
    if (markdown) {
        const line = (cells) => '| ' + cells.join(' | ') + ' |';
        return ['#### ' + title, '', line(header), line(header.map((h, i) => (left(i) ? ':---' : '---:'))),
            ...rows.map(line), ''].join('\n');
    }
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    const line = (cells) => cells.map((c, i) => (left(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
        .join('  ').trimEnd();
    return [title, line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), ''].join('\n');
}

function heading(text, markdown) {
    return markdown ? '### ' + text + '\n\n' : text + '\n' + '='.repeat(text.length) + '\n';
}

function find(rows, dataset, direction, lib) {
    return rows.find((r) => r.dataset === dataset && r.direction === direction && r.lib === lib);
}

// what a table cell shows: the number, ≠ (disagrees with bson), n/a, or - (not measured)
function cell(r, fmt) {
    if (!r) return 'n/a';
    if (r.verdict === 'differs') return '≠';
    if (r.verdict !== 'ok') return 'n/a';
    return r.skipped ? '-' : fmt(r);
}

function timingTables(results, libNames, markdown) {
    const metrics = [
        ['rate (bson = 100, higher is better)', (r) => (isFinite(r.rate) ? String(Math.round(r.rate)) : '-')],
        ['ops/s', (r) => count(r.opsPerSec)],
        ['MB/s (own encoded size × ops/s)', (r) => sig3(r.mbPerSec)],
    ];
    const out = [];
    for (const dir of DIRECTIONS) {
        for (const [title, fmt] of metrics) {
            const rows = results.datasets.map((ds) => [ds.name, bytes(ds.bsonBytes)]
                .concat(libNames.map((lib) => cell(find(results.timing, ds.name, dir, lib), fmt))));
            out.push(table(dir + ': ' + title, ['data set', 'bson size'].concat(libNames), rows, markdown));
        }
    }
    return out.join('\n');
}

function memoryTables(results, libNames, markdown) {
    const fmt = (r) => bytes(r.bytesPerOp) + ' ' + Math.round(r.gcPercent) + '%';
    return DIRECTIONS.map((dir) => {
        const rows = results.datasets.map((ds) => [ds.name]
            .concat(libNames.map((lib) => cell(find(results.memory, ds.name, dir, lib), fmt))));
        return table(dir + ': heap bytes allocated per op, and % of the time in GC', ['data set'].concat(libNames), rows, markdown);
    }).join('\n');
}

// a library's require time: the shorter of its two fresh processes
function requireSeconds(results, lib) {
    return Math.min(...results.cold.filter((r) => r.lib === lib && r.verdict === 'ok').map((r) => r.requireSeconds));
}

function coldTable(results, markdown) {
    const header = ['library', 'require'];
    for (const dir of DIRECTIONS) header.push(dir + ' 1st', '2nd', 'warm', '1st/warm');
    const libNames = [...new Set(results.cold.map((r) => r.lib))];
    const rows = libNames.map((lib) => {
        const row = [lib, '-'];
        for (const dir of DIRECTIONS) {
            const r = results.cold.find((c) => c.lib === lib && c.direction === dir);
            if (r.verdict !== 'ok') { row.push(cell(r), '', '', ''); continue; }
            row[1] = BUILTIN.includes(lib) ? 'builtin' : micros(requireSeconds(results, lib));
            row.push(micros(r.first), micros(r.second), micros(r.warm), Math.round(r.first / r.warm) + '×');
        }
        return row;
    });
    const ds = results.cold.length ? results.cold[0].dataset : '';
    return table('first and warm calls on ' + ds + ', one fresh process per library and direction', header, rows, markdown);
}

// qbson against bson from a fresh process (start.js): the target of each figure, qbson ÷ bson
const START_TARGET = 1.1;
const START_MEASURES = [
    ['encode', 'first encode', true], ['decode', 'first decode', true],
    ['process', 'short process, spawn to exit', false], ['process code', 'short process, its own code', false],
];

// the median of a library's samples of one measure (on one data set, or on all)
function startMedian(start, lib, what, dataset) {
    return median(start.samples.filter((s) => s.lib === lib && s.what === what && (dataset === undefined || s.dataset === dataset))
        .map((s) => s.seconds));
}

// [label, data set, qbson seconds, bson seconds, has a target] for every row of the start table
function startRows(start) {
    const rows = [['require', '', startMedian(start, 'qbson', 'require'), startMedian(start, 'bson', 'require'), true],
        ['import', '', startMedian(start, 'qbson', 'import'), startMedian(start, 'bson', 'import'), true]];
    for (const [what, label, target] of START_MEASURES) {
        const per = start.datasets.map((ds) => [label, ds, startMedian(start, 'qbson', what, ds), startMedian(start, 'bson', what, ds), target]);
        rows.push(...per);
        if (per.length > 1) rows.push([label, 'geometric mean', geomean(per.map((r) => r[2])), geomean(per.map((r) => r[3])), target]);
    }
    return rows;
}

function startTable(start, markdown) {
    const rows = startRows(start).map(([label, ds, q, b, target]) => {
        const ratio = q / b;
        return [label, ds, micros(q), micros(b), times(ratio),
            target && isFinite(ratio) ? (ratio <= START_TARGET ? 'met' : 'missed') : ''];
    });
    return table('qbson against bson from a fresh process, the median of ' + start.rounds + ' processes each',
        ['measure', 'data set', 'qbson', 'bson', 'qbson ÷ bson', 'target ≤ ' + times(START_TARGET)], rows, markdown, 'llrrrl');
}

// the start table in one line, the targets missed, and what is behind the figures
function startLines(start) {
    const rows = startRows(start);
    const ratio = (label, ds) => {
        const r = rows.find((x) => x[0] === label && x[1] === ds);
        return r ? r[2] / r[3] : NaN;
    };
    const many = start.datasets.length > 1 ? 'geometric mean' : start.datasets[0];
    const parts = ['require ' + times(ratio('require', '')), 'import ' + times(ratio('import', ''))];
    for (const [, label] of START_MEASURES.slice(0, 3)) {
        parts.push(label + ' ' + times(ratio(label, many)) + (start.datasets.includes('flat_bson') && many !== 'flat_bson'
            ? ' (flat_bson ' + times(ratio(label, 'flat_bson')) + ')' : ''));
    }
    const missed = rows.filter((r) => r[4] && r[2] / r[3] > START_TARGET).map((r) => r[0] + (r[1] ? ' ' + r[1] : ''));
    const lines = ['qbson ÷ bson from a fresh process: ' + parts.join(', ') + '; above ' + times(START_TARGET) + ': ' +
        (missed.length ? missed.join(', ') : 'none'),
        'an empty node process takes ' + micros(median(start.empty)) + ' from spawn to exit (median of ' + start.empty.length + ')'];
    if (start.missing.length) lines.push('not measured, not a data set of this benchmark: ' + start.missing.join(', '));
    return lines.concat(start.errors);
}

function median(values) {
    const v = values.slice().sort((a, b) => a - b);
    return v.length ? (v.length % 2 ? v[v.length >> 1] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : NaN;
}

// the bundle sizes of scripts/sizes.js, qbson's beside bson's
function sizeTable(rows, markdown) {
    const { tableRows } = require('../scripts/sizes');
    const [header, ...cells] = tableRows(rows);
    return table('bundle size: esbuild --bundle --minify --platform=browser, gzip -9', header, cells, markdown, 'lrrrlrrrr');
}

// one line per library, data set and direction that is not verified equal, with the first difference
function verificationNotes(results) {
    const lines = [];
    for (const lib of results.libraries) {
        if (!lib.available) { lines.push(lib.name + ': n/a everywhere: ' + lib.reason); continue; }
        for (const ds of results.datasets) {
            const [enc, dec] = DIRECTIONS.map((dir) => find(results.timing, ds.name, dir, lib.name));
            const same = enc.verdict === dec.verdict && enc.reason === dec.reason;
            for (const r of same ? [enc] : [enc, dec]) {
                if (r.verdict === 'ok') continue;
                lines.push(lib.name + ' ' + ds.name + ' ' + (same ? 'encode+decode' : r.direction) + ': ' + cell(r) + ' ' + r.reason);
            }
        }
    }
    return lines;
}

// how far apart the timed runs of a cell were: (fastest - slowest) / median
function spread(results) {
    const rows = results.timing.filter((r) => r.spread >= 0).sort((a, b) => a.spread - b.spread);
    if (!rows.length) return 'no timed runs';
    const pct = (x) => Math.round(100 * x) + '%';
    const worst = rows[rows.length - 1];
    return 'run-to-run spread, (fastest - slowest) / median: ' + pct(rows[rows.length >> 1].spread) + ' typical, ' +
        pct(worst.spread) + ' at worst (' + worst.lib + ' ' + worst.dataset + ' ' + worst.direction + ')';
}

// measurements that failed in a child process
function childErrors(rows) {
    const seen = new Set();
    return rows.filter((r) => r.error).map((r) => r.lib + ' ' + r.dataset + ' ' + r.direction + ': ' + r.error)
        .filter((line) => !seen.has(line) && seen.add(line));
}

// qbson ÷ other in ops/s on one data set and direction, NaN unless both were verified and timed
function ratio(rows, dataset, direction, other, lib) {
    const a = find(rows, dataset, direction, lib || 'qbson'), b = find(rows, dataset, direction, other);
    const timed = (r) => r && r.verdict === 'ok' && !r.skipped && r.opsPerSec > 0;
    return timed(a) && timed(b) ? a.opsPerSec / b.opsPerSec : NaN;
}

function times(x) {
    return isFinite(x) ? sig3(x) + '×' : '-';
}

function geomean(values) {
    const v = values.filter((x) => x > 0 && isFinite(x));
    return v.length ? Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length) : NaN;
}

// the targets for qbson: ratios to bson in both directions, and decode against
// msgpackr and JSON.parse where those carry the same data (JSON-representable data sets)
const TARGETS = { perDataset: 1.5, geomeanEncode: 2.5, geomeanDecode: 2.2, msgpackrDecode: 1, jsonDecode: 0.8, mixed: 0.9 };

// per data set: qbson ÷ bson both ways, decode ÷ msgpackr, ÷ JSON.parse of a string and of
// UTF-8 bytes, and which targets it misses
function comparisonTable(results, markdown) {
    const t = results.timing;
    const rows = results.datasets.map((ds) => {
        const enc = ratio(t, ds.name, 'encode', 'bson'), dec = ratio(t, ds.name, 'decode', 'bson');
        const mp = ratio(t, ds.name, 'decode', 'msgpackr');
        const [js, jb] = ['JSON', 'JSON-bytes'].map((lib) => (ds.json ? ratio(t, ds.name, 'decode', lib) : NaN));
        const missed = [];
        if (enc < TARGETS.perDataset) missed.push('encode');
        if (dec < TARGETS.perDataset) missed.push('decode');
        if (ds.json && mp < TARGETS.msgpackrDecode) missed.push('< msgpackr');
        if (js < TARGETS.jsonDecode) missed.push('< 0.8 JSON.parse');
        return [ds.name, bytes(ds.bsonBytes), ds.json ? 'yes' : 'no', times(enc), times(dec),
            times(mp) + (ds.json || !isFinite(mp) ? '' : ' *'), times(js), times(jb), missed.join(', ')];
    });
    return table('qbson ÷ others, ops/s (* msgpackr carries the relaxed Extended JSON form there, not the same values)',
        ['data set', 'bson size', 'JSON-representable', 'encode ÷ bson', 'decode ÷ bson', 'decode ÷ msgpackr',
            'decode ÷ JSON.parse', 'decode ÷ JSON.parse(bytes)', 'below target'], rows, markdown, 'lrlrrrrrl');
}

// the peers qbson is held against beyond bson, as the tables name them
const PEERS = [['msgpackr', 'msgpackr'], ['JSON', 'JSON (string)'], ['JSON-bytes', 'JSON (bytes)']];

// every data set and direction on which qbson is behind msgpackr or either form of JSON:
// qbson ÷ each peer, the ones below 1× marked; data sets that are not JSON-representable are
// left out, since there the peers carry the relaxed Extended JSON form, not the same values
function behindTable(results, markdown) {
    const t = results.timing;
    const rows = [];
    for (const ds of results.datasets.filter((d) => d.json)) {
        for (const dir of DIRECTIONS) {
            const r = PEERS.map(([lib]) => ratio(t, ds.name, dir, lib));
            if (!r.some((x) => x < 1)) continue;
            rows.push([ds.name, dir].concat(r.map((x) => times(x) + (x < 1 ? ' <' : ''))));
        }
    }
    if (!rows.length) return 'qbson is ahead of msgpackr and JSON on every JSON-representable data set, both ways\n';
    return table('where qbson is behind msgpackr or JSON: qbson ÷ peer, ops/s (< marks a peer ahead)',
        ['data set', 'direction'].concat(PEERS.map((p) => '÷ ' + p[1])), rows, markdown, 'llrrr');
}

const listOf = (pairs) => (pairs.length ? pairs.map(([name, x]) => name + ' ' + times(x)).join(', ') : 'none');

// one line per target of the speed tables
function targetLines(results) {
    const t = results.timing, all = results.datasets, json = all.filter((d) => d.json);
    const lines = [];
    const per = (sets, dir, other) => sets.map((d) => [d.name, ratio(t, d.name, dir, other)]).filter(([, x]) => isFinite(x));
    const mean = DIRECTIONS.map((dir) => {
        const pairs = per(all, dir, 'bson');
        return dir + ' ' + times(geomean(pairs.map((p) => p[1]))) + ' (target ' + times(dir === 'encode' ? TARGETS.geomeanEncode
            : TARGETS.geomeanDecode) + ', over ' + pairs.length + ' data sets)';
    });
    lines.push('geometric mean of qbson ÷ bson: ' + mean.join('; '));
    for (const dir of DIRECTIONS) {
        lines.push(dir + ' below ' + times(TARGETS.perDataset) + ' bson: ' +
            listOf(per(all, dir, 'bson').filter(([, x]) => x < TARGETS.perDataset)));
    }
    const mp = per(json, 'decode', 'msgpackr');
    lines.push('decode slower than msgpackr (JSON-representable data sets, ' + mp.length + ' compared): ' +
        listOf(mp.filter(([, x]) => x < TARGETS.msgpackrDecode)));
    const js = per(json, 'decode', 'JSON');
    lines.push('decode below ' + times(TARGETS.jsonDecode) + ' JSON.parse (JSON-representable data sets, ' + js.length +
        ' compared): ' + listOf(js.filter(([, x]) => x < TARGETS.jsonDecode)));
    const jb = per(json, 'decode', 'JSON-bytes');
    lines.push('decode slower than JSON.parse(buf.toString(\'utf8\')) (JSON-representable data sets, ' + jb.length +
        ' compared): ' + listOf(jb.filter(([, x]) => x < 1)));
    return lines;
}

// data sets on which qbson allocates more heap per operation than bson
function memoryLine(results) {
    const worse = [];
    for (const ds of results.datasets) {
        for (const dir of DIRECTIONS) {
            const q = find(results.memory, ds.name, dir, 'qbson'), b = find(results.memory, ds.name, dir, 'bson');
            if (q && b && q.verdict === 'ok' && b.verdict === 'ok' && q.bytesPerOp > b.bytesPerOp) {
                worse.push(ds.name + ' ' + dir + ' ' + bytes(q.bytesPerOp) + ' vs ' + bytes(b.bytesPerOp));
            }
        }
    }
    return 'qbson allocates more per operation than bson on: ' + (worse.length ? worse.join(', ') : 'none');
}

// A Markdown document that publishes a run (docs/benchmarks.md) holds the report between these
// two lines, and only what is between them is replaced by --update: the prose around it stays.
const REPORT_START = '<!-- benchmark report: written by `npm run benchmark:docs`, not by hand -->';
const REPORT_END = '<!-- end of benchmark report -->';

// `doc` with the text between its markers replaced by `markdown`; throws if the markers are
// not there once each, in order
function replaceReport(doc, markdown) {
    const start = doc.indexOf(REPORT_START);
    const end = doc.indexOf(REPORT_END);
    if (start < 0 || end < start || doc.indexOf(REPORT_START, start + 1) >= 0 || doc.indexOf(REPORT_END, end + 1) >= 0) {
        throw new Error('the document must hold the line ' + REPORT_START + ' and, after it, ' + REPORT_END + ', once each');
    }
    return doc.slice(0, start + REPORT_START.length) + '\n\n' + markdown.trim() + '\n\n' + doc.slice(end);
}

module.exports = { count, bytes, micros, sig3, table, heading, timingTables, memoryTables, coldTable,
    verificationNotes, spread, childErrors, ratio, times, geomean, TARGETS, comparisonTable, behindTable, targetLines,
    memoryLine, startTable, startLines, startMedian, sizeTable, START_TARGET, REPORT_START, REPORT_END, replaceReport };
