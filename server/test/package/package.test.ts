/**
 * The package as a user gets it: `npm pack` → the tarball installed into an empty project with
 * the very command the Dockerfile runs → `npx sendbox`, `import { startSendbox } from 'sendbox'`,
 * the Playwright fixtures with two workers, a TypeScript consumer, and the container's
 * entrypoint and health check. Nothing here reads the repository's sources: only what the
 * tarball installed (plus nodemailer and the TypeScript compiler as a user's project would have).
 *
 * Needs the built package (`npm run build`, which `npm test` runs first).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnSendbox, type Running } from '../process.js';

const run = promisify(execFile);
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
const versionOf = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

interface Dockerfile {
  /** Every stage's instructions, keyed by the stage name (the last, unnamed one is `final`). */
  stages: Map<string, string[]>;
}

/** Instructions per stage, with `\` continuations joined. */
function parseDockerfile(text: string): Dockerfile {
  const lines = text.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) {
      current = [];
      stages.set(from[1] ?? 'final', current);
    }
    current.push(line);
  }
  return { stages };
}

/** `ENV A=1 B=2` instructions of a stage, as an object. */
function envOf(instructions: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of instructions.filter((l) => /^ENV\s/i.test(l))) {
    for (const [, key, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  }
  return env;
}

const json = (instruction: string | undefined, keyword: string): string[] => JSON.parse(instruction!.slice(keyword.length).trim().replace(/^CMD\s+/, '')) as string[];

describe('the packed package, installed into an empty project', () => {
  let work: string;
  let project: string;
  let pack: PackResult;
  let docker: Dockerfile;
  let installCommand: string;
  let global: string;
  const running: Running[] = [];

  beforeAll(async () => {
    for (const built of ['dist/sendbox.mjs', 'dist/index.mjs', 'web/dist/index.html']) {
      if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does)`);
    }
    work = mkdtempSync(join(tmpdir(), 'sendbox-package-'));
    // The build ran already; --ignore-scripts skips prepack's second build.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, maxBuffer: 16 << 20 });
    pack = (JSON.parse(packed.stdout) as PackResult[])[0];

    docker = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
    const install = docker.stages.get('install')!;
    // The install stage copies the tarball the pack stage made, then installs it: run that command here.
    const run_ = install.find((l) => /^RUN .*npm install/.test(l));
    if (!run_ || !install.some((l) => /^COPY --from=pack \S+ \/tmp\/sendbox\.tgz$/.test(l))) throw new Error('the Dockerfile has no install stage that installs /tmp/sendbox.tgz');
    installCommand = run_.slice(4);

    project = join(work, 'app');
    mkdirSync(project);
    const tarball = join(work, pack.filename);
    // `npm i -g sendbox` into a prefix of its own, beside the project's install.
    global = join(work, 'global');
    await Promise.all([
      run('sh', ['-c', installCommand.replaceAll('/tmp/sendbox.tgz', tarball)], { cwd: project, maxBuffer: 16 << 20 }),
      run('npm', ['install', '--global', '--prefix', global, '--no-audit', '--no-fund', tarball], { cwd: work, maxBuffer: 16 << 20 }),
    ]);
    // What a user's test project adds beside it (same versions as this repository: npm's cache has them).
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', `@playwright/test@${versionOf('@playwright/test')}`, `@types/node@${versionOf('@types/node')}`], { cwd: project, maxBuffer: 16 << 20 });
  }, 600_000);

  afterAll(async () => {
    for (const r of running) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const bin = () => join(project, 'node_modules', '.bin', 'sendbox');
  const start = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await spawnSendbox(args, env, bin(), 30_000, { cwd: project, executable: true });
    running.push(r);
    return r;
  };
  const stop = async (r: Running) => {
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  };

  it('holds what runs and nothing else, and its README states its size', () => {
    const paths = pack.files.map((f) => f.path).sort();
    for (const needed of ['package.json', 'README.md', 'LICENSE', 'dist/sendbox.mjs', 'dist/index.mjs', 'dist/client.mjs', 'dist/playwright.mjs', 'dist/vitest.mjs', 'dist/server/src/index.d.ts', 'dist/client/index.d.ts', 'dist/client/playwright.d.ts', 'web/dist/index.html']) {
      expect(paths).toContain(needed);
    }
    const unexpected = paths.filter((p) => !/^(package\.json|README\.md|LICENSE|dist\/[^/]+\.mjs|dist\/.+\.d\.ts|web\/dist\/.+)$/.test(p));
    expect(unexpected).toEqual([]);
    expect(paths.filter((p) => /\.test\.|(^|\/)(bench|e2e|scripts|test|fixtures)\//.test(p))).toEqual([]);
    // Only what the server needs at run time; the inbox's libraries are inlined in web/dist.
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'sendbox', 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts?: Record<string, string> };
    expect(Object.keys(installed.dependencies).filter((d) => /^(react|react-dom|@tanstack\/|vite|@vitejs\/|typescript|rolldown|vitest)/.test(d))).toEqual([]);
    // The README's figure is kept true (within a quarter: builds differ a little).
    const stated = /Packed: ~([\d.]+) (kB|MB)/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(stated, 'README states the packed size as "Packed: ~N MB"').not.toBeNull();
    const statedBytes = Number(stated![1]) * (stated![2] === 'MB' ? 1e6 : 1e3);
    expect(Math.abs(statedBytes - pack.size) / pack.size).toBeLessThan(0.25);
  });

  it('`npx sendbox --version` and `--help` answer from the installed bin', async () => {
    const version = await run('npx', ['--no-install', 'sendbox', '--version'], { cwd: project });
    expect(version.stdout.trim()).toBe(rootPackage.version);
    const help = await run('npx', ['--no-install', 'sendbox', '--help'], { cwd: project });
    expect(help.stdout).toContain('--smtp-port');
    expect(help.stdout).toContain('SENDBOX_SMTP_PORT');
  });

  it('`npx sendbox --port 0 --smtp-port 0 --db :memory:` serves, and stops on SIGTERM', async () => {
    const sb = await spawnSendbox(['--no-install', 'sendbox', '--port', '0', '--smtp-port', '0', '--db', ':memory:'], {}, 'npx', 30_000, { cwd: project, executable: true, detached: true });
    running.push(sb);
    expect(sb.stdout()).toContain('db :memory:');
    expect(await (await fetch(`${sb.httpUrl}/sandbox/health`)).json()).toMatchObject({ data: { ok: true, emails: 0 } });
    // As Ctrl-C in a terminal (or a test runner's web-server teardown) does: the whole group.
    // npm alone would end by the signal and leave sendbox running (npm does not pass it on).
    process.kill(-sb.child.pid!, 'SIGTERM');
    await sb.outputClosed;
    await expect(fetch(`${sb.httpUrl}/sandbox/health`)).rejects.toThrow();
  });

  it('`npm i -g sendbox` puts a working `sendbox` on the PATH', async () => {
    const env = { ...process.env, PATH: `${join(global, 'bin')}:${process.env.PATH}` };
    const version = await run('sendbox', ['--version'], { cwd: work, env });
    expect(version.stdout.trim()).toBe(rootPackage.version);
    const sb = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', ':memory:'], {}, join(global, 'bin', 'sendbox'), 30_000, { cwd: work, executable: true });
    running.push(sb);
    expect((await fetch(`${sb.httpUrl}/sandbox/health`)).status).toBe(200);
    await stop(sb);
  });

  it('starts with its defaults (SQLite in ./.sendbox), serves the prebuilt inbox, and captures mail from /v1 and SMTP', async () => {
    const sb = await start(['--port', '0', '--smtp-port', '0']);
    expect(sb.stdout()).toContain('db ./.sendbox/sendbox.db');
    expect(existsSync(join(project, '.sendbox', 'sendbox.db'))).toBe(true);

    const page = await fetch(`${sb.httpUrl}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect((await fetch(`${sb.httpUrl}${asset}`)).status, asset).toBe(200);

    const sent = await fetch(`${sb.httpUrl}/v1/send`, {
      method: 'POST',
      headers: { authorization: 'Bearer pkg-key', 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'jane@example.com', subject: 'From the API', body: 'Hello' }),
    });
    expect(sent.status).toBe(200);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sb.smtpPort, secure: false, ignoreTLS: true, auth: { user: 'app', pass: 'pkg-key' } });
    await transport.sendMail({ from: 'app@example.com', to: 'jane@example.com', subject: 'From SMTP', text: 'Hello' });
    transport.close();

    const list = await (await fetch(`${sb.httpUrl}/v1/emails`, { headers: { authorization: 'Bearer pkg-key' } })).json() as { data: { data: { subject: string }[] } };
    expect(list.data.data.map((e) => e.subject).sort()).toEqual(['From SMTP', 'From the API']);
    await stop(sb);
  });

  it('imports every entry as ESM and `require`s the main one', async () => {
    const esm = await run(process.execPath, ['--input-type=module', '-e', `
      const main = await import('sendbox');
      const client = await import('sendbox/client');
      const pw = await import('sendbox/playwright');
      const setup = await import('sendbox/vitest');
      console.log(JSON.stringify([typeof main.startSendbox, typeof main.SendboxStartError, typeof client.createSendboxClient, typeof pw.test, typeof pw.expect, typeof setup.default, typeof setup.sendboxGlobalSetup]));
    `], { cwd: project });
    expect(JSON.parse(esm.stdout)).toEqual(['function', 'function', 'function', 'function', 'function', 'function', 'function']);
    const cjs = await run(process.execPath, ['-e', `const { startSendbox } = require('sendbox'); const { createSendboxClient } = require('sendbox/client'); console.log(typeof startSendbox, typeof createSendboxClient);`], { cwd: project });
    expect(cjs.stdout.trim()).toBe('function function');
  });

  it('startSendbox() from the package: sends, waits, stops, and the process then exits on its own', async () => {
    writeFileSync(join(project, 'start.mjs'), `
      import { startSendbox, SendboxStartError } from 'sendbox';
      const sb = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
      const mail = sb.client('worker-1');
      await mail.send({ to: 'jane@example.com', subject: 'Reset your password', body: 'Your code is 481516' });
      const email = await mail.waitForEmail({ to: 'jane@example.com' });
      const error = await startSendbox({ port: -1 }).catch((e) => e);
      await sb.stop();
      console.log(JSON.stringify({ subject: email.subject, code: mail.code(email), typed: error instanceof SendboxStartError, errorCode: error.code, option: error.option }));
      // No process.exit: the process ends only if stop() released every handle.
    `);
    const child = spawn(process.execPath, ['start.mjs'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ subject: 'Reset your password', code: '481516', typed: true, errorCode: 'INVALID_OPTION', option: 'port' });
  });

  it('type-checks a TypeScript consumer under nodenext and bundler resolution, and its types are not any', async () => {
    writeFileSync(join(project, 'consumer.ts'), `
      import { startSendbox, SendboxStartError, type RunningSendbox } from 'sendbox';
      import { createSendboxClient, type SandboxEmail } from 'sendbox/client';
      import { test, expect } from 'sendbox/playwright';
      import setup, { sendboxGlobalSetup } from 'sendbox/vitest';

      export async function main(): Promise<string> {
        const sb: RunningSendbox = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0 });
        const port: number = sb.smtp.port;
        const email: SandboxEmail = await sb.client('k').waitForEmail({ to: 'jane@example.com' });
        const other = createSendboxClient({ baseUrl: sb.url, apiKey: 'k' });
        await other.domains.add('example.com');
        await sb.stop();
        return email.subject + port + String(SendboxStartError.name) + typeof setup + typeof sendboxGlobalSetup({ delayMs: 5 });
      }
      test('reset', async ({ mailbox }) => {
        const email = await mailbox.waitForEmail({ to: 'jane@example.com' });
        expect(mailbox.latestLink(email)).toContain('https://');
        const key: string = mailbox.apiKey;
        void key;
      });
    `);
    writeFileSync(join(project, 'wrong.ts'), `
      import { startSendbox } from 'sendbox';
      export const sb = startSendbox({ prot: 0 });
    `);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const common = { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] };
    for (const [name, options] of [['nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext' }], ['bundler', { module: 'ESNext', moduleResolution: 'Bundler' }]] as const) {
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...common, ...options }, files: ['consumer.ts', 'wrong.ts'] }));
      const result = spawnSync(process.execPath, [tsc, '-p', `tsconfig.${name}.json`, '--pretty', 'false'], { cwd: project, encoding: 'utf8' });
      // Exactly one error, the misspelt option: the declarations resolve, check, and are not `any`.
      const errors = result.stdout.split('\n').filter((line) => line.includes('error TS'));
      expect(errors, name).toHaveLength(1);
      expect(errors[0]).toMatch(/^wrong\.ts\(3,.*'prot' does not exist/);
    }
  }, 180_000);

  describe('the Playwright fixtures in a project with two workers', () => {
    const spec = `
      import { test, expect } from 'sendbox/playwright';
      for (const n of [1, 2, 3, 4]) {
        test('reset ' + n, async ({ mailbox, sendbox }, testInfo) => {
          await mailbox.send({ to: 'jane@example.com', subject: 'Reset ' + n, body: 'https://app.example/reset?t=' + n });
          const email = await mailbox.waitForEmail({ to: 'jane@example.com' });
          expect(email.subject).toBe('Reset ' + n);
          expect(mailbox.latestLink(email)).toBe('https://app.example/reset?t=' + n);
          // Every test sends to the same address: a shared mailbox would list more than one.
          const listed = await mailbox.emails.list();
          expect(listed.data.map((e) => e.subject)).toEqual(['Reset ' + n]);
          testInfo.annotations.push({ type: 'sendbox', description: JSON.stringify({ worker: testInfo.parallelIndex, url: sendbox.url }) });
        });
      }
    `;

    async function playwright(config: string): Promise<{ worker: number; url: string }[]> {
      writeFileSync(join(project, 'reset.spec.ts'), spec);
      writeFileSync(join(project, 'playwright.config.ts'), config);
      const result = spawnSync(join(project, 'node_modules', '.bin', 'playwright'), ['test', '--reporter=json'], { cwd: project, encoding: 'utf8', env: { ...process.env, SENDBOX_URL: '', CI: '' }, maxBuffer: 16 << 20 });
      const report = JSON.parse(result.stdout) as { stats: { expected: number; unexpected: number }; suites: { specs: { tests: { annotations: { type: string; description: string }[] }[] }[] }[] };
      expect(report.stats, result.stderr).toEqual(expect.objectContaining({ expected: 4, unexpected: 0 }));
      return report.suites.flatMap((s) => s.specs).flatMap((s) => s.tests).flatMap((t) => t.annotations).filter((a) => a.type === 'sendbox').map((a) => JSON.parse(a.description) as { worker: number; url: string });
    }

    it('starts one sendbox per worker and gives each test a mailbox of its own', async () => {
      const seen = await playwright(`export default { testDir: '.', testMatch: 'reset.spec.ts', workers: 2, fullyParallel: true };`);
      expect(new Set(seen.map((s) => s.worker)).size).toBe(2);
      // One sendbox per worker: as many URLs as workers.
      expect(new Set(seen.map((s) => s.url)).size).toBe(2);
    });

    it('shares the one sendbox a global setup starts (sendbox/vitest) and still isolates every test', async () => {
      const seen = await playwright(`export default { testDir: '.', testMatch: 'reset.spec.ts', workers: 2, fullyParallel: true, globalSetup: 'sendbox/vitest' };`);
      expect(new Set(seen.map((s) => s.worker)).size).toBe(2);
      expect(new Set(seen.map((s) => s.url)).size).toBe(1);
    });
  });

  describe('the container image (Dockerfile)', () => {
    it('packs the repository, installs only the tarball, and runs as a non-root user with /data as a volume', () => {
      const pack = docker.stages.get('pack')!;
      expect(pack.some((l) => /^RUN npm pack\b/.test(l))).toBe(true);
      // The install stage ran above, verbatim: it installs the tarball and nothing of the repository.
      expect(docker.stages.get('install')!.filter((l) => /^COPY /.test(l))).toEqual(['COPY --from=pack /pkg/sendbox.tgz /tmp/sendbox.tgz']);
      expect(installCommand).toMatch(/npm install --omit=dev .*\/tmp\/sendbox\.tgz$/);
      const final = docker.stages.get('final')!;
      expect(final[0]).toMatch(/^FROM \$\{NODE_IMAGE\}$|slim/);
      expect(final.filter((l) => /^COPY /.test(l))).toEqual(['COPY --from=install /opt/sendbox /opt/sendbox']);
      const user = final.filter((l) => /^USER /.test(l)).at(-1);
      expect(user).toBeDefined();
      expect(user).not.toMatch(/^USER (root|0)\b/);
      expect(final).toContain('VOLUME /data');
      const env = envOf(final);
      expect(env.SENDBOX_HOST).toBe('0.0.0.0');
      expect(env.SENDBOX_DB).toMatch(/^\/data\//);
      expect(final.find((l) => l.startsWith('HEALTHCHECK'))).toContain('/sandbox/health');
    });

    it('its entrypoint starts from SENDBOX_* variables alone, on every interface, and its HEALTHCHECK passes on a shared host and fails once stopped', async () => {
      const final = docker.stages.get('final')!;
      const entrypoint = json(final.find((l) => l.startsWith('ENTRYPOINT')), 'ENTRYPOINT');
      expect(entrypoint).toEqual(['/opt/sendbox/node_modules/.bin/sendbox']);
      const healthcheck = json(final.find((l) => l.startsWith('HEALTHCHECK'))!.replace(/^HEALTHCHECK(\s+--\S+)*\s+CMD/, 'CMD'), 'CMD');
      const data = join(work, 'data');
      mkdirSync(data);
      // The image's variables, with ports picked by the OS and /data moved here; a shared host's
      // settings as compose.yaml and the README suggest them.
      const env = { ...envOf(final), SENDBOX_PORT: '0', SENDBOX_SMTP_PORT: '0', SENDBOX_DB: join(data, 'sendbox.db'), SENDBOX_ALLOWED_HOSTS: 'localhost,sendbox', SENDBOX_UI_AUTH: 'team:s3cret' };
      const sb = await spawnSendbox([], env, entrypoint[0].replace('/opt/sendbox', project), 30_000, { cwd: project, executable: true });
      running.push(sb);
      expect(existsSync(join(data, 'sendbox.db'))).toBe(true);
      const port = new URL(sb.httpUrl).port;
      // Listening on every interface (SENDBOX_HOST=0.0.0.0): 127.0.0.2 is another address of
      // the loopback device, which a server bound to 127.0.0.1 would refuse.
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.2', () => {
          socket.destroy();
          resolve();
        });
        socket.once('error', reject);
      });

      // The mail itself is behind --ui-auth; the probe is not.
      expect((await fetch(`http://127.0.0.1:${port}/sandbox/emails`)).status).toBe(401);
      const check = () => spawnSync(healthcheck[0], healthcheck.slice(1), { env: { ...process.env, ...env, SENDBOX_PORT: port }, encoding: 'utf8' }).status;
      expect(check()).toBe(0);
      await stop(sb);
      expect(check()).toBe(1);
    });
  });
});
