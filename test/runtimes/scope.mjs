// Loads the modules a browser page or worker is told to and runs the conformance
// bundle; the report also says whether this scope may compile code from strings
// (a Content-Security-Policy without 'unsafe-eval' refuses it).

function codeFromStrings() {
    try {
        return new Function('return 1')() === 1 ? 'allowed' : 'refused';
    } catch (err) {
        return `refused (${err.name})`;
    }
}

export async function runInScope({ bundle, qbson, bson, runs }) {
    const [{ run }, q, b] = await Promise.all([import(bundle), import(qbson), import(bson)]);
    const started = performance.now();
    const report = run(q, b, { runs: Number(runs) || undefined });
    report.seconds = (performance.now() - started) / 1000;
    report.codeFromStrings = codeFromStrings();
    report.userAgent = navigator.userAgent;
    return report;
}
