import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { DOCS_CSP } from './docs.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('/docs', () => {
  it('serves a page that loads only files of this server, under its own strict CSP', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("script-src 'self';");
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.every((u) => u.startsWith('/'))).toBe(true);
    for (const url of urls) expect((await fetch(server.url + url)).status, url).toBe(200);
  });

  it('serves Swagger UI from the installed package, pointed at /openapi.json with the remote validator off', async () => {
    const bundle = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await bundle.text()).length).toBeGreaterThan(500_000);
    const init = await (await fetch(`${server.url}/docs/init.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null');
    expect((await fetch(`${server.url}/docs/assets/package.json`)).status).toBe(404);
  });

  it('follows the Host rule of /sandbox', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/docs`, { headers: { Host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('needs the --ui-auth password when one is set', async () => {
    const guarded = await startServer(['--ui-auth', 'ops:docs-pass']);
    try {
      expect((await fetch(`${guarded.url}/docs`)).status).toBe(401);
      expect((await fetch(`${guarded.url}/docs`, { headers: { Authorization: `Basic ${Buffer.from('ops:docs-pass').toString('base64')}` } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('Swagger UI\'s install-time analytics', () => {
  // swagger-ui-dist depends on @scarf/scarf, whose postinstall reports installs to scarf.sh
  // unless a package on the way to it sets scarfSettings.enabled false, as sendbox's does.
  it('are turned off for any app that installs sendbox, by Scarf\'s own rule', async () => {
    const own = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string; scarfSettings?: unknown };
    expect(own.scarfSettings).toEqual({ enabled: false });
    const scarf = createRequire(import.meta.url)('@scarf/scarf/report.js') as { processDependencyTreeOutput(resolve: (v: unknown) => void, reject: (e: Error) => void): (error: null, stdout: string) => void };
    // What `npm ls @scarf/scarf --json --long` prints in an app that depends on sendbox.
    const tree = { name: 'some-app', version: '1.0.0', path: '/app', dependencies: { sendbox: { name: own.name, version: own.version, path: '/app/node_modules/sendbox', scarfSettings: own.scarfSettings, dependencies: { 'swagger-ui-dist': { name: 'swagger-ui-dist', version: '5', path: '/app/node_modules/swagger-ui-dist', dependencies: { '@scarf/scarf': { name: '@scarf/scarf', version: '1.4.0', path: '/app/node_modules/@scarf/scarf' } } } } } } };
    const decision = await new Promise<unknown>((resolve, reject) => scarf.processDependencyTreeOutput(resolve, reject)(null, JSON.stringify(tree))).catch((error: Error) => error.message);
    expect(decision).toBe('Scarf has been disabled via a package.json in the dependency chain.');
  });
});
