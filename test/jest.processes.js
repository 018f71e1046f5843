const { readFileSync, readdirSync } = require('node:fs');

/** The live processes (Linux /proc): pid, state, parent, process group, start time and command. */
function processes() {
  const all = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command's closing parenthesis: state, ppid, pgrp, … starttime (the 20th).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      all.push({ pid: Number(name), ppid: Number(fields[1]), pgrp: Number(fields[2]), started: fields[19], command });
    } catch {
      // ended while being read
    }
  }
  return all;
}

/**
 * Watches what this jest run starts: every process in its process group, and every descendant of jest
 * seen by a poll (a process spawned `detached` leaves the group, and its parent, a worker, ends before
 * the teardown). `left()` gives those still running, jest's workers aside.
 */
function watchProcesses(intervalMs = 300) {
  const key = (p) => `${p.pid}:${p.started}`;
  const existing = new Set(processes().map(key));
  const seen = new Map();
  const poll = () => {
    const all = processes();
    const ours = new Set([process.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const p of all) {
        if (!ours.has(p.pid) && ours.has(p.ppid)) grew = ours.add(p.pid);
      }
    }
    const group = all.find((p) => p.pid === process.pid)?.pgrp;
    for (const p of all) {
      if (p.pid !== process.pid && (ours.has(p.pid) || p.pgrp === group) && !existing.has(key(p))) seen.set(key(p), p);
    }
    return all;
  };
  const timer = setInterval(poll, intervalMs).unref();
  return {
    left() {
      clearInterval(timer);
      const alive = new Set(poll().map(key));
      return [...seen.values()].filter((p) => alive.has(key(p)) && !/jest-worker|processChild/.test(p.command));
    },
  };
}

module.exports = { watchProcesses };
