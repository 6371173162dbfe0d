// The conformance run in a module Worker: the page posts the query, gets the report.

import { runInScope } from './scope.mjs';

self.onmessage = (event) => {
    runInScope(event.data).then(
        (report) => self.postMessage(report),
        (err) => self.postMessage({ error: `${err && err.stack}` })
    );
};
