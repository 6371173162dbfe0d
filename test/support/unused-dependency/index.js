'use strict';

// package.json's "overrides" put this package in place of the dependencies of
// @push.rocks/smartmongo that only its SmartMongo class uses (mongodb-memory-server,
// which downloads a mongod binary, @push.rocks/smartdata, @push.rocks/mongodump).
// The tests load only its in-process wire-protocol server, which needs none of them.

throw new Error('unused-dependency was loaded: a test reached a part of @push.rocks/smartmongo that needs a real dependency in its place (see "overrides" in package.json)');
