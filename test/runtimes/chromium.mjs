// The conformance run in headless Chromium: a plain page, a page under a
// Content-Security-Policy without 'unsafe-eval', and a module Worker. Prints
// { "chromium": report, "chromium-csp": report, "chromium-worker": report } as JSON.
//   node test/runtimes/chromium.mjs BUNDLE QBSON_MODULE BSON_MODULE RUNS
// with the modules as paths inside the repository.

import path from 'node:path';
import { ROOT } from './build.mjs';
import { findChromium, serve, launchChromium, pageResult } from './browser.mjs';

const [bundle, qbson, bson, runs] = process.argv.slice(2);
const urlPath = (file) => '/' + path.relative(ROOT, path.resolve(file)).split(path.sep).join('/');
const VARIANTS = { 'chromium': '', 'chromium-csp': '&csp=1', 'chromium-worker': '&worker=1' };

const executable = findChromium();
if (!executable) {
    console.log(JSON.stringify({ missing: 'no Chromium found (QBSON_CHROMIUM, /usr/bin/chromium)' }));
    process.exit(0);
}
const { server, origin } = await serve(ROOT, '/test/runtimes/page.mjs');
const browser = await launchChromium(executable);
const out = {};
try {
    const query = `bundle=${urlPath(bundle)}&qbson=${urlPath(qbson)}&bson=${urlPath(bson)}&runs=${runs}`;
    for (const [name, extra] of Object.entries(VARIANTS)) {
        out[name] = (await pageResult(browser.context, `${origin}/page.html?${query}${extra}`, 'qbsonReport', 100000)).value;
        out[name].version = browser.context.browser() ? browser.context.browser().version() : undefined;
    }
} finally {
    await browser.close();
    server.close();
}
console.log(JSON.stringify(out));
