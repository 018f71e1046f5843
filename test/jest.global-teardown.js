const { readFileSync, rmSync } = require('node:fs');

/**
 * Every process a suite starts is ended when it ends: whatever the run started and left running
 * (services, embedded databases, proxies) is listed, killed, and fails the run.
 */
module.exports = async function globalTeardown() {
  // The template data folder and the suites' copies (jest.global-setup.js).
  if (globalThis.petstoreRunDir) rmSync(globalThis.petstoreRunDir, { recursive: true, force: true });
  const watch = globalThis.petstoreProcesses;
  if (!watch) return;
  let left = watch.left();
  // A process stopped in a suite's last afterAll may take a moment to go.
  for (let attempt = 0; attempt < 20 && left.length > 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = left.filter((p) => isAlive(p.pid));
  }
  if (left.length === 0) return;
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`suites left ${left.length} process(es) running (now killed):\n${left.map((p) => `  ${p.pid} ${p.command}`).join('\n')}`);
};

/** Not ended: an ended orphan waits as a zombie until PID 1 reaps it (here every 2 s or so). */
function isAlive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}
