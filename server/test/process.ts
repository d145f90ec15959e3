import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const MAIN = join(ROOT, 'dist', 'sendbox.mjs');

export interface Running {
  child: ChildProcess;
  httpUrl: string;
  smtpPort: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves when every process holding sendbox's stdout has exited (npx, its shell and sendbox). */
  outputClosed: Promise<void>;
}

export interface SpawnOptions {
  cwd?: string;
  /** Run `entry` itself (an installed bin, through its shebang, or `npx`) rather than with node. */
  executable?: boolean;
  /** In a process group of its own, so the test can signal the group as a terminal's Ctrl-C does. */
  detached?: boolean;
}

/** Spawns sendbox (the built CLI by default) and resolves once it prints its ready line. */
export function spawnSendbox(args: string[], env: NodeJS.ProcessEnv = {}, entry = MAIN, timeoutMs = 20_000, options: SpawnOptions = {}): Promise<Running> {
  const [command, argv] = options.executable ? [entry, args] : [process.execPath, [entry, ...args]];
  const child = spawn(command, argv, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached });
  const outputClosed = new Promise<void>((resolve) => child.stdout!.once('close', () => resolve()));
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /sendbox ready {2}(http:\/\/\S+) {2}smtp:\/\/\S+:(\d+) {2}db /.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, httpUrl: match[1], smtpPort: Number(match[2]), stdout: () => out, stderr: () => err, exited, outputClosed });
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`sendbox exited with ${code} before ready: ${err}`), { code, stderr: err, stdout: out }));
    });
  });
}

/** Runs the CLI to completion (for --help and start-up errors). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
