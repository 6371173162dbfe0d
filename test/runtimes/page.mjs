// The conformance run in a Chromium page, or in a module Worker it starts
// (?worker=1). test/runtimes/chromium.mjs serves it and reads window.qbsonReport.
// The query names the modules: ?bundle=/...&qbson=/...&bson=/...&runs=N

import { runInScope } from './scope.mjs';

const params = new URLSearchParams(location.search);

function inWorker() {
    return new Promise((resolve) => {
        const worker = new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' });
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => resolve({ error: `worker: ${event.message}` });
        worker.postMessage(Object.fromEntries(params));
    });
}

(params.get('worker') === '1' ? inWorker() : runInScope(Object.fromEntries(params))).then(
    (report) => (window.qbsonReport = report),
    (err) => (window.qbsonReport = { error: `${err && err.stack}` })
);
