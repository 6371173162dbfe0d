'use strict';

// qnit calls a test with a done callback and does not wait for a promise the test
// returns: an async test body goes through run() so that its failures are the test's.
function run(body) {
    return function (done) {
        body.call(this).then(() => done(), done);
    };
}

module.exports = { run };
