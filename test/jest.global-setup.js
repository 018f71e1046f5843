const { watchProcesses } = require('./jest.processes');

/** Starts watching the processes the suites start (checked by jest.global-teardown.js). */
module.exports = function globalSetup() {
  globalThis.petstoreProcesses = watchProcesses();
};
