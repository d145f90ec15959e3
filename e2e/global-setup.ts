import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const READY = /sendbox ready\s+(http:\/\/\S+)\s+smtp:\/\/[^:\s]+:(\d+)/;

/**
 * Starts one real sendbox for the whole run (temp SQLite file, ports picked by the OS, quick
 * delivery) and hands its URLs to the tests through the environment. SENDBOX_URL already set
 * means "use that running server" (handy while writing a spec).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.SENDBOX_URL) return async () => {};
  const main = process.env.SENDBOX_MAIN ?? 'dist/sendbox.mjs';
  for (const built of [main, 'web/dist/index.html']) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first (npm test does it for you)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'sendbox-e2e-'));
  const child = spawn(process.execPath, [main, '--port', '0', '--smtp-port', '0', '--db', join(dir, 'sendbox.db'), '--delay-ms', '50'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SENDBOX_LOG_LEVEL: process.env.SENDBOX_LOG_LEVEL ?? 'warn' },
  });
  const { url, smtpPort } = await waitForReady(child);
  process.env.SENDBOX_URL = url;
  process.env.SENDBOX_SMTP_PORT = smtpPort;
  return async () => {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
}

function waitForReady(child: ChildProcess): Promise<{ url: string; smtpPort: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`sendbox did not print its ready line within 20 s:\n${output}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = READY.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      resolve({ url: found[1], smtpPort: found[2] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.SENDBOX_E2E_VERBOSE) process.stderr.write(chunk);
    });
    child.once('exit', (code) => fail(new Error(`sendbox exited with code ${code} before it was ready:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
