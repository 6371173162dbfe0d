'use strict';

// `node -r test/support/driver-on-qbson-preload.js program.js`: the program's
// require('mongodb') gets the driver on qbson (driver-on-qbson.js).

require('./driver-on-qbson').useQbsonInDriver();
