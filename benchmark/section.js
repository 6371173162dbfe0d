'use strict';

// A section measured by a script of its own (json-to-bson.js, value-mapping.js,
// transcode.js): its rows, one per data set --filter names (all by default), then
// its tables and summary, with how the rates were taken.

const datasets = require('./datasets');
const timing = require('./timing');
const report = require('./report');

// section: { label, title, measure(name, mode), tables(rows, md), summary(rows), note }
function runSection(argv, section) {
    const { mode, md, names } = timing.sectionArgs(argv, datasets.NAMES);
    const rows = datasets.measureEach(names, section.label, (name) => section.measure(name, mode));
    process.stdout.write(report.heading(section.title, md) + section.tables(rows, md) + '\n' +
        section.summary(rows) + '. Rates: operations per second by process CPU time, median of ' + mode.samples +
        ' runs; ' + section.note + '\n\n');
    return rows;
}

module.exports = { runSection };
