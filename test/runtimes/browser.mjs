// Chromium for the runtime tests and benchmark: a static server over the
// repository on 127.0.0.1 (with an optional Content-Security-Policy per page) and a
// headless Chromium driven by playwright-core. No network: the flags keep
// Chromium from reaching out, which would hang it where the network is closed.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html' };

// the first Chromium found, QBSON_CHROMIUM first, or null
export function findChromium() {
    const candidates = process.env.QBSON_CHROMIUM ? [process.env.QBSON_CHROMIUM] : CHROMIUM_PATHS;
    return candidates.find((file) => fs.existsSync(file)) || null;
}

// GET /page.html?csp=1&... answers an empty page loading `pageModule`, under a
// policy allowing scripts from this origin only (no 'unsafe-eval') when csp=1;
// any other path is a file of `root`.
export function serve(root, pageModule) {
    const server = http.createServer((req, res) => {
        const url = new URL(req.url, 'http://127.0.0.1');
        if (url.pathname === '/page.html') {
            const headers = { 'Content-Type': 'text/html' };
            if (url.searchParams.get('csp') === '1') headers['Content-Security-Policy'] = "script-src 'self'; worker-src 'self'";
            res.writeHead(200, headers);
            res.end(`<!doctype html><meta charset="utf-8"><title>qbson</title><script type="module" src="${pageModule}"></script>`);
            return;
        }
        const file = path.join(root, decodeURIComponent(url.pathname));
        if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
            res.writeHead(404);
            res.end();
            return;
        }
        res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
        fs.createReadStream(file).pipe(res);
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}

// a headless Chromium with a fresh profile; close() also removes the profile
export async function launchChromium(executablePath) {
    const { chromium } = await import('playwright-core');
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'qbson-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync'],
    });
    return {
        context,
        async close() {
            await context.close();
            fs.rmSync(profile, { recursive: true, force: true });
        },
    };
}

// opens url, waits for window[globalName], returns it with the page's errors
export async function pageResult(context, url, globalName, timeoutMs) {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(String(err)));
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    try {
        await page.goto(url);
        await page.waitForFunction((name) => window[name] !== undefined, globalName, { timeout: timeoutMs, polling: 100 });
        return { value: await page.evaluate((name) => window[name], globalName), errors };
    } catch (err) {
        return { value: { error: `${err.message}; page errors: ${errors.join(' | ')}` }, errors };
    } finally {
        await page.close();
    }
}
