'use strict';
// Merges the per-file mocha json reports of run.sh PER_FILE=1 into one report.
const fs = require('fs');
const path = require('path');
const [dir, out] = process.argv.slice(2);
const merged = { stats: { tests: 0, passes: 0, failures: 0, pending: 0 }, passes: [], failures: [], pending: [], didNotLoad: [] };
for (const f of fs.readdirSync(dir)) {
  if (f === 'did-not-load.txt') { merged.didNotLoad = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean); continue; }
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  for (const k of ['tests', 'passes', 'failures', 'pending']) merged.stats[k] += r.stats[k];
  for (const k of ['passes', 'failures', 'pending']) merged[k].push(...r[k]);
}
fs.writeFileSync(out, JSON.stringify(merged));
