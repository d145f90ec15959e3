import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, type TestServer } from '../../test/harness.js';
import { MIGRATIONS } from './migrations.js';

// A database written by release 97e1be7 (storage layout of migration 7: text, html and raw
// stored side by side), and what that release answered for each of its emails. Both were
// made by scripts/release-fixture.mjs running that commit's build.
const FIXTURES = join(import.meta.dirname, 'fixtures');
const RELEASE = '97e1be7';

interface Expected {
  id: string;
  key: string | null;
  v1: unknown;
  sandbox: unknown;
  raw: string;
  attachments: { type: string; base64: string }[];
}
const expected = (JSON.parse(readFileSync(join(FIXTURES, `release-${RELEASE}.json`), 'utf8')) as { emails: Expected[] }).emails;

describe(`a database written by release ${RELEASE}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-release-db-'));
    copyFileSync(join(FIXTURES, `release-${RELEASE}.db`), join(dir, 'sendbox.db'));
    server = await startServer([], {}, dir);
  });
  afterAll(() => server.close());

  it('holds every shape the release wrote: API text, HTML, CR/CRLF, unicode, long lines, files, SMTP', () => {
    expect(expected).toHaveLength(10);
    expect(expected.filter((e) => e.attachments.length > 0)).toHaveLength(3);
  });

  it('is migrated to the latest version at start', () => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
    } finally {
      db.close();
    }
  });

  it.each(expected.map((e) => [e.id, e] as const))('answers %s exactly as the release did: /v1, sandbox view, raw source, attachments', async (id, email) => {
    if (email.key) expect((await server.api(`/v1/emails/${id}`, { key: email.key })).body).toEqual(email.v1);
    expect((await server.api(`/sandbox/emails/${id}`)).body).toEqual(email.sandbox);
    const raw = await fetch(`${server.url}/sandbox/emails/${id}/raw`);
    expect(Buffer.from(await raw.arrayBuffer()).toString('base64')).toBe(email.raw);
    for (const [index, file] of email.attachments.entries()) {
      const res = await fetch(`${server.url}/sandbox/emails/${id}/attachments/${index}`);
      expect(res.headers.get('content-type')).toBe(file.type);
      expect(Buffer.from(await res.arrayBuffer()).toString('base64')).toBe(file.base64);
    }
    expect((await fetch(`${server.url}/sandbox/emails/${id}/attachments/${email.attachments.length}`)).status).toBe(404);
  });
});
