import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import { createSendbox, type Sendbox } from '../src/sendbox.js';
import { silentLogger } from '../src/logger.js';

/**
 * A real sendbox for a test file: a real SQLite file in a temp folder, HTTP and SMTP
 * listening on 127.0.0.1 at ports the OS picks. Flags are the CLI's own.
 */
export interface TestServer {
  sendbox: Sendbox;
  config: Config;
  url: string;
  smtpPort: number;
  /** The implicit-TLS port, when started with --smtps-port. */
  smtpsPort: number | null;
  dbPath: string;
  /** fetch against the server with an optional API key. */
  api(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startServer(flags: string[] = [], env: NodeJS.ProcessEnv = {}, dir?: string): Promise<TestServer> {
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'sendbox-test-'));
  const dbPath = join(folder, 'sendbox.db');
  const config = loadConfig(['--port', '0', '--smtp-port', '0', '--db', dbPath, '--delay-ms', '0', ...flags], env);
  const sendbox = createSendbox(config, { logger: silentLogger });
  const { httpPort, smtpPort, smtpsPort } = await sendbox.listen();
  const url = `http://127.0.0.1:${httpPort}`;
  return {
    sendbox,
    config,
    url,
    smtpPort,
    smtpsPort,
    dbPath,
    async api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key) headers.set('Authorization', `Bearer ${init.key}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(init.json);
      }
      const res = await fetch(url + path, { ...init, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text so the assertion shows it
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await sendbox.close();
      if (!dir) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Waits for a condition by polling with a deadline (for state not exposed as an event). */
export async function eventually<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) return value as T;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
