// Starting, pinning, sampling and stopping the servers under test.
// Servers run on core 0 (`taskset -c 0`); the bench itself (the load generators)
// pins itself to core 1, so a server never competes with its own load.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const SERVER_CORE = '0';
const LOAD_CORE = '1';

let tasksetAvailable = null;
function hasTaskset() {
  if (tasksetAvailable === null) {
    try {
      execFileSync('taskset', ['-V'], { stdio: 'ignore' });
      tasksetAvailable = true;
    } catch {
      tasksetAvailable = false;
    }
  }
  return tasksetAvailable;
}

/** Pins this process (every thread) to the load core; returns a note for the report. */
export function pinSelfToLoadCore() {
  if (!hasTaskset()) return 'taskset not found: servers and load generators are NOT pinned';
  execFileSync('taskset', ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' });
  return `servers pinned to core ${SERVER_CORE}, load generators to core ${LOAD_CORE}`;
}

const started = new Set();

/**
 * Spawns `node <args>` pinned to the server core and resolves once `ready(line)` returns
 * a value for a line of its stdout/stderr. Resolves with the handle and the time from
 * spawn to ready in ms. Rejects (and kills the child) on exit or after `timeoutMs`.
 */
export function startNode(name, args, { ready, env = {}, cwd, timeoutMs = 30_000, nodeFlags = [] }) {
  const command = hasTaskset() ? 'taskset' : process.execPath;
  const argv = hasTaskset() ? ['-c', SERVER_CORE, process.execPath, ...nodeFlags, ...args] : [...nodeFlags, ...args];
  const t0 = performance.now();
  const child = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  const output = [];
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => fail(new Error(`${name} was not ready after ${timeoutMs} ms`)), timeoutMs);
    const fail = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      error.message += `\n--- ${name} output ---\n${output.join('').slice(-2000)}`;
      reject(error);
    };
    let buffered = '';
    const onData = (chunk) => {
      const text = chunk.toString();
      if (output.length < 200) output.push(text);
      if (done) return;
      buffered += text;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const info = ready(line);
        if (info) {
          done = true;
          clearTimeout(timer);
          resolve({ name, child, pid: child.pid, info, readyMs: performance.now() - t0, output, stop: () => stop(child) });
          return;
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      started.delete(child);
      fail(new Error(`${name} exited (${signal ?? code}) before it was ready`));
    });
    child.on('error', fail);
  });
}

/** SIGTERM, then SIGKILL after a grace period; resolves when the child is gone. */
export function stop(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      started.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Kills whatever this bench started and is still running (on errors and Ctrl-C). */
export function killAll() {
  for (const child of started) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  started.clear();
}

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples RSS every `everyMs` until stopped; returns the peak seen. */
export function sampleRss(pid, everyMs = 100) {
  let peak = rssMb(pid) ?? 0;
  const timer = setInterval(() => {
    const value = rssMb(pid);
    if (value !== null && value > peak) peak = value;
  }, everyMs);
  return { stop: () => (clearInterval(timer), peak) };
}

/** A port the OS considers free right now (for peers that cannot take port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let ticksPerSecond = null;
function clockTicks() {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * Measures the CPU a server process uses over a run: `stop()` gives its CPU ms and its
 * utilisation of one core. Below ~90% the server was not the bottleneck (the load
 * generator or the machine was), and CPU ms per request is the fairer comparison.
 */
export function cpuMeter(pid) {
  const t0 = performance.now();
  const c0 = cpuTicks(pid);
  return {
    stop() {
      const c1 = cpuTicks(pid);
      const wallMs = performance.now() - t0;
      if (c0 === null || c1 === null) return { cpuMs: null, utilization: null };
      const cpuMs = ((c1 - c0) * 1000) / clockTicks();
      return { cpuMs, utilization: cpuMs / wallMs };
    },
  };
}

/** CPU time (user + system) a process has used, in clock ticks (1/100 s on Linux). */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/**
 * Waits until a server has gone quiet (under ~10% of a core over 200 ms), so work left
 * over from one run (requests still queued, simulated delivery) never lands in the next
 * target's measurement. Resolves with the ms waited.
 */
export async function waitIdle(pid, timeoutMs = 30_000) {
  const t0 = performance.now();
  let last = cpuTicks(pid);
  while (last !== null && performance.now() - t0 < timeoutMs) {
    await new Promise((r) => setTimeout(r, 200));
    const now = cpuTicks(pid);
    if (now === null || now - last <= 2) break;
    last = now;
  }
  return performance.now() - t0;
}
