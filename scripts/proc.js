'use strict';
/** Memory and CPU time of processes read from /proc (Linux), shared by the benchmarks and scripts/embedded-memory.js. */
const { readFileSync } = require('node:fs');

/** A /proc/<pid>/status field (VmHWM, VmRSS) in KiB; 0 once the process is gone. */
function statusKb(pid, field) {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on every Linux build we run). */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid) {
  try {
    // Fields after the command (which may hold spaces, hence from the last ")"): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
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

module.exports = { statusKb, cpuSeconds, childPids };
