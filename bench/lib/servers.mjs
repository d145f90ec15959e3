// One starter per server under test. Each resolves with {pid, readyMs, url/smtpPort, stop}.
import { mkdtempSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode, freePort } from './proc.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SENDBOX_MAIN = join(ROOT, 'dist', 'sendbox.mjs');
const READY = /^sendbox ready\s+http:\/\/127\.0\.0\.1:(\d+)\s+smtp:\/\/127\.0\.0\.1:(\d+)\s+db\s+(.+)$/;

/** sendbox from the built code, on port 0, with the given database file. */
export async function startSendbox(dbPath, { extraArgs = [], nodeFlags = [], cwd } = {}) {
  const handle = await startNode('sendbox', [SENDBOX_MAIN, '--port', '0', '--smtp-port', '0', '--db', dbPath, '--log-level', 'warn', ...extraArgs], {
    ready: (line) => {
      const m = READY.exec(line.trim());
      return m && { httpPort: Number(m[1]), smtpPort: Number(m[2]) };
    },
    nodeFlags,
    cwd,
  });
  return { ...handle, url: `http://127.0.0.1:${handle.info.httpPort}`, smtpPort: handle.info.smtpPort };
}

/** Ceiling: Express 5 that only parses JSON. */
export async function startExpressCeiling() {
  const handle = await startNode('express-json', [join(ROOT, 'bench', 'ceilings', 'express-json.mjs')], {
    ready: (line) => /^express-json listening (\d+)/.exec(line)?.[1],
    cwd: ROOT,
  });
  return { ...handle, url: `http://127.0.0.1:${handle.info}` };
}

/** Ceiling: a bare smtp-server that only drains DATA. */
export async function startSmtpDrain() {
  const handle = await startNode('smtp-drain', [join(ROOT, 'bench', 'ceilings', 'smtp-drain.mjs')], {
    ready: (line) => /^smtp-drain listening (\d+)/.exec(line)?.[1],
    cwd: ROOT,
  });
  return { ...handle, smtpPort: Number(handle.info) };
}

/** aws-ses-v2-local (SES v2 JSON API), keeping mail in memory. */
export async function startSes(pkgDir) {
  const handle = await startNode('aws-ses-v2-local', [join(pkgDir, 'dist', 'cli.js'), '--host', '127.0.0.1', '--port', '0'], {
    ready: (line) => /server running at http:\/\/[^:]+:(\d+)/.exec(line)?.[1],
    cwd: pkgDir,
  });
  const url = `http://127.0.0.1:${handle.info}`;
  await waitForHttp(`${url}/health-check`);
  return { ...handle, url, readyMs: handle.readyMs };
}

/** MailDev (SMTP + web API). It cannot take port 0, so free ports are picked first. */
export async function startMaildev(pkgDir, tmp) {
  const [smtpPort, webPort] = [await freePort(), await freePort()];
  const mailDir = mkdtempSync(join(tmp, 'maildev-'));
  const t0 = performance.now();
  let smtpReady = false;
  let webReady = false;
  const handle = await startNode('maildev', [join(pkgDir, 'bin', 'maildev'), '--ip', '127.0.0.1', '--smtp', String(smtpPort), '--web', String(webPort), '--mail-directory', mailDir], {
    ready: (line) => {
      if (/SMTP Server running/.test(line)) smtpReady = true;
      if (/webapp running/.test(line)) webReady = true;
      return smtpReady && webReady;
    },
    cwd: pkgDir,
  });
  const url = `http://127.0.0.1:${webPort}`;
  await waitForHttp(`${url}/healthz`);
  return { ...handle, url, smtpPort, readyMs: performance.now() - t0 };
}

async function waitForHttp(url, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms: ${error.message}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
