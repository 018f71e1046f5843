'use strict';
/*
 * CPU-time samples of a process from Linux perf, attributed to who caused them. perf's cpu-clock event
 * ticks only while the process runs, so a function is charged for CPU it used, never for time the
 * process sat descheduled (node --cpu-prof charges wall time: whatever runs right after a write that
 * woke another process looks dear). JavaScript frames are named from node's --perf-prof jitdump, which
 * times each code object's life: V8 reuses the addresses of code it drops, and the plain
 * --perf-basic-prof map then names a sample after whichever function last lived there.
 */
const { spawn, spawnSync } = require('node:child_process');
const { once } = require('node:events');
const { readdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const FREQUENCY = 4999;
const COUNTED = ['context-switches', 'ipi:ipi_send_cpu'];

/** Whether `perf record` can sample here (linux-perf installed, perf_event_paranoid allowing it). */
function perfAvailable() {
  const probe = spawnSync('perf', ['record', '--no-buildid-cache', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** Node options for a process to be sampled: a jitdump of its code in its working directory. */
const NODE_OPTIONS = ['--perf-prof'];

/** perf's arguments, caching what it keeps (the node binary, the code images) beside the recording, not in ~/.debug. */
const perfArgs = (file, ...args) => ['--buildid-dir', `${file}.buildid`, ...args];

/**
 * Starts sampling `pid` (started with NODE_OPTIONS) with call stacks into `file`, and counting its
 * context switches (how often it found nothing to do) and the interprocessor interrupts it sent (a
 * wake-up of a process on the other CPU). `stop()` ends both once the file is written and resolves to
 * the counts (NaN where the kernel cannot count). The monotonic clock lets perf match samples to the jitdump.
 */
function record(pid, file) {
  const args = ['record', '--no-buildid-cache', '-k', 'mono', '-e', 'cpu-clock', '-F', String(FREQUENCY), '-g', '-p', String(pid), '-o', file];
  const sampling = spawn('perf', perfArgs(file, ...args), { stdio: 'ignore' });
  const counting = spawn('perf', ['stat', '-x', ',', '-e', COUNTED.join(','), '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let counts = '';
  counting.stderr.on('data', (chunk) => (counts += chunk));
  const exited = [once(sampling, 'exit'), once(counting, 'exit')];
  return {
    async stop() {
      sampling.kill('SIGINT');
      counting.kill('SIGINT');
      await Promise.all(exited);
      const lines = counts
        .trim()
        .split('\n')
        .map((line) => line.split(','));
      return Object.fromEntries(COUNTED.map((event) => [event, Number(lines.find((fields) => fields[2] === event)?.[0] ?? NaN)]));
    },
  };
}

/** The call stacks of a recording, leaf first, one symbol name per frame, JavaScript named from the jitdump. */
function* stacks(file) {
  const jitted = `${file}.jit`;
  spawnSync('perf', perfArgs(file, 'inject', '--jit', '-i', file, '-o', jitted), { stdio: 'ignore' });
  const { stdout } = spawnSync('perf', perfArgs(file, 'script', '-F', 'ip,sym', '-i', jitted), { maxBuffer: 1 << 30, encoding: 'utf8' });
  let stack = [];
  for (const line of stdout.split('\n')) {
    const frame = line.trim();
    if (frame === '') {
      if (stack.length > 0) yield stack;
      stack = [];
    } else stack.push(frame.slice(frame.indexOf(' ') + 1));
  }
  if (stack.length > 0) yield stack;
}

const GC = /Scaveng|MarkCompact|Heap::|Marking|Sweep|Evacuat|MinorMC|GCTracer/;
const SOURCE =
  /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/:]+)|\/(apps\/api)\/dist\/([^/:]+)|\/(libs\/[^/:]+)\/|\/(bench)\/|(node:[a-z_]+(?:\/[a-z_]+)?)/;

/**
 * Who a sample is charged to: the kernel (waking the process a write is for, and the rest), the garbage
 * collector, or the package (our app: its feature folder) of the innermost JavaScript frame outside
 * Node's own modules, so V8's builtins, Node's C++ and Node's modules (Buffer, streams, http) count for
 * the package that called them; what no package called (the event loop, the http parser's callbacks)
 * stays with Node's module.
 */
function ownerOf(stack) {
  if (stack.some((frame) => frame.startsWith('entry_SYSCALL') || frame.startsWith('asm_') || frame.startsWith('do_syscall'))) {
    // A socket write that wakes its reader (the client, PostgreSQL): dear when the reader must run on the
    // other CPU, woken by an interprocessor interrupt (a VM exit here), as when this process never idles.
    return stack.some((frame) => frame === 'sock_def_readable' || frame === 'try_to_wake_up') ? 'kernel: waking a reader' : 'kernel: the rest';
  }
  if (stack.slice(0, 12).some((frame) => GC.test(frame))) return 'garbage collector';
  let nodeArea;
  for (const frame of stack) {
    if (!frame.startsWith('JS:')) continue;
    const match = SOURCE.exec(frame);
    if (!match) continue;
    if (match[6]) {
      nodeArea ??= match[6].startsWith('node:_http') ? 'node:http' : match[6];
      continue;
    }
    return match[2] ? `${match[2]}/${match[3]}` : (match[1] ?? match[4] ?? match[5]);
  }
  return nodeArea ?? 'native, no JavaScript caller';
}

/** µs of CPU per request charged to each owner, from a recording over `requests` requests. */
function attribute(file, requests) {
  const byOwner = new Map();
  for (const stack of stacks(file)) {
    const owner = ownerOf(stack);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1e6 / FREQUENCY / requests);
  }
  return byOwner;
}

/** Removes what a sampled process left in its working directory `dir`: the jitdump, perf's code images of it, V8's log. */
function removeLeftovers(dir, pid) {
  const left = (name) =>
    name === `jit-${pid}.dump` || name.startsWith(`jitted-${pid}-`) || new RegExp(`^isolate-0x[0-9a-f]+-${pid}-v8\\.log$`).test(name);
  for (const name of readdirSync(dir).filter(left)) rmSync(join(dir, name), { force: true });
}

module.exports = { NODE_OPTIONS, perfAvailable, record, attribute, removeLeftovers };
