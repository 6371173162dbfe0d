// The runtime benchmark in a Chromium page: benchmark/runtimes/run.mjs serves it
// (?datasets=/...&qbson=/...&bson=/...&mode=full&filter=a,b) and reads window.qbsonBenchmark.

import { runBenchmark } from './core.mjs';

const params = new URLSearchParams(location.search);

async function main() {
    const [datasets, qbson, bson] = await Promise.all([import(params.get('datasets')), import(params.get('qbson')), import(params.get('bson'))]);
    const filter = params.get('filter') ? params.get('filter').split(',') : [];
    return runBenchmark(qbson, bson, datasets.default, { mode: params.get('mode'), filter });
}

main().then(
    (result) => (window.qbsonBenchmark = result),
    (err) => (window.qbsonBenchmark = { error: `${err && err.stack}` })
);
