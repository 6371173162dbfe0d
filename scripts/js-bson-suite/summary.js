'use strict';
// Prints passing/failing/pending for a mocha json report, split into the public-API files and the
// files listed in private-files.txt, and the failures grouped by file and first line of the error.
const fs = require('fs');
const path = require('path');
const report = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const root = path.join(__dirname, 'js-bson') + '/';
const privateFiles = new Set(fs.readFileSync(path.join(__dirname, 'private-files.txt'), 'utf8').split('\n').filter(Boolean));
const rel = t => (t.file || '').replace(root, '');
// tests of js-bson members its release types exclude (ObjectId#isCached, #serializeInto)
const privateTitles = new Set(fs.readFileSync(path.join(__dirname, 'private-tests.txt'), 'utf8').split('\n').filter(Boolean));
// js-bson tests named in qbson's test/differences.test.js (its jsBsonTests lists)
const differencesFile = process.env.QBSON_DIFFERENCES || path.join(__dirname, '..', '..', 'test', 'differences.test.js');
const documented = new Set();
if (fs.existsSync(differencesFile)) {
  const text = fs.readFileSync(differencesFile, 'utf8');
  for (const list of text.matchAll(/jsBsonTests: \[([\s\S]*?)\]/g))
    for (const m of list[1].matchAll(/'((?:[^'\\]|\\.)*)'/g)) documented.add(m[1].replace(/\\'/g, "'"));
}
const cause = t => privateFiles.has(rel(t)) || privateTitles.has(t.fullTitle) ? 'private' : documented.has(t.fullTitle) ? 'documented' : 'undone';
const byCause = { private: 0, documented: 0, undone: 0 };
for (const t of report.failures) byCause[cause(t)]++;
const counts = { public: { passes: 0, failures: 0, pending: 0 }, private: { passes: 0, failures: 0, pending: 0 } };
for (const kind of ['passes', 'failures', 'pending'])
  for (const t of report[kind]) counts[privateFiles.has(rel(t)) ? 'private' : 'public'][kind]++;
console.log('all    ', JSON.stringify(report.stats && { tests: report.stats.tests, passes: report.stats.passes, failures: report.stats.failures, pending: report.stats.pending }));
console.log('public ', JSON.stringify(counts.public));
console.log('private', JSON.stringify(counts.private));
console.log('failures by cause', JSON.stringify(byCause), '(private: js-bson private modules/members; documented: named in', differencesFile + ')');
if (report.didNotLoad && report.didNotLoad.length) console.log('did not load:', report.didNotLoad.join(' '));
const byFile = new Map();
for (const t of report.failures) {
  const f = rel(t) || '(hook)';
  if (!byFile.has(f)) byFile.set(f, []);
  byFile.get(f).push(t);
}
const verbose = process.env.VERBOSE;
for (const [f, ts] of [...byFile].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n${ts.length}\t${f}${privateFiles.has(f) ? ' (private)' : ''}`);
  const causes = {};
  for (const t of ts) causes[cause(t)] = (causes[cause(t)] || 0) + 1;
  console.log('   causes:', JSON.stringify(causes));
  const msgs = new Map();
  for (const t of ts) {
    const m = String(t.err && t.err.message || '').split('\n')[0].slice(0, 140);
    msgs.set(m, (msgs.get(m) || []).concat(t.fullTitle));
  }
  for (const [m, titles] of msgs) {
    console.log(`   ${titles.length}x ${m}`);
    if (verbose) for (const title of titles) console.log(`        - ${title}`);
  }
}
