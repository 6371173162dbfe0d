'use strict';

// The wire-protocol server of benchmark/driver-json.js, in a process of its own so that
// the client's CPU time is the client's alone. Started with an IPC channel
// (child_process.fork): it sends { uri } once listening, answers { cpu: true } with its
// own CPU seconds ({ cpu }), and on { stop: true } or a closed channel stops and ends.

const { startWireServer } = require('../test/support/wire-server');

const cpuSeconds = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
};

async function main() {
    const server = await startWireServer();
    let stopping = false;
    const stop = async () => {
        if (stopping) return;
        stopping = true;
        await server.stop();
        process.disconnect();
    };
    process.on('message', (msg) => {
        if (msg.cpu) process.send({ cpu: cpuSeconds() });
        else if (msg.stop) stop();
    });
    process.on('disconnect', stop);
    process.send({ uri: server.uri });
}

main().catch((err) => {
    process.stderr.write(err.stack + '\n');
    process.exit(1);
});
