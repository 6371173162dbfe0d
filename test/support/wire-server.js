'use strict';

// A MongoDB wire-protocol server in this process: CongoServer, the in-memory server of the
// devDependency @push.rocks/smartmongo (plain JavaScript over its own bson 6 and mingo; no
// mongod binary), bound to 127.0.0.1 at a port the system picks. Only its congodb module is
// loaded: the package's main entry needs mongodb-memory-server, which package.json's
// "overrides" replace by a stub (test/support/unused-dependency).

const SERVER_MODULE = '@push.rocks/smartmongo/dist_ts/congodb/index.js';

// whether the server's package is installed: null, or why not
function missingServer() {
    try {
        require.resolve('@push.rocks/smartmongo/package.json');
        return null;
    } catch (err) {
        return '@push.rocks/smartmongo is not installed (npm ci installs it)';
    }
}

// { uri, stop() }: the server started; stop() closes its connections and its listener
async function startWireServer() {
    const { CongoServer } = await import(SERVER_MODULE);
    const server = new CongoServer({ host: '127.0.0.1', port: 0 });
    await server.start();
    // as mongod does: without it, the last part of each reply waits for the client's delayed ACK
    server.server.on('connection', (socket) => socket.setNoDelay(true));
    // CongoServer's `port` is the one asked for (0 here); the one bound is its listener's
    const address = server.server && server.server.address();
    if (!address || !address.port) throw new Error('CongoServer started with no listening address');
    // serverMonitoringMode=poll: the server's hello carries a topologyVersion, so the driver would
    // stream its monitoring (an awaitable hello that the server answers once, without moreToCome),
    // take that as a failure and clear its connection pool under whatever is running
    return { uri: `mongodb://127.0.0.1:${address.port}/?directConnection=true&serverMonitoringMode=poll`, stop: () => server.stop() };
}

module.exports = { startWireServer, missingServer };
