'use strict';
/** Memory of processes read from /proc (Linux), shared by the benchmarks and scripts/embedded-memory.js. */
const { readFileSync } = require('node:fs');

/** A /proc/<pid>/status field (VmHWM, VmRSS) in KiB; 0 once the process is gone. */
function statusKb(pid, field) {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The direct children of a process. */
function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

module.exports = { statusKb, childPids };
