import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { startServer, type TestServer } from '../../test/harness.js';
import { ConfigError } from '../config.js';
import { parseKeys } from './keys.js';

const send = (server: TestServer, key: string) => server.api('/v1/send', { method: 'POST', key, json: { to: 'a@example.com', subject: 's', body: 'b' } });

describe('open mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('registers each new key as its own team with api_key_id 1, 2, 3 …', async () => {
    const keys = ['open-first', 'open-second', 'open-third'];
    const emails = [];
    for (const key of keys) {
      const res = await send(server, key);
      emails.push((await server.api(`/v1/emails/${res.body.data[0].email_id}`, { key })).body.data);
    }
    expect(emails.map((e) => e.api_key_id)).toEqual([1, 2, 3]);
    expect(emails.map((e) => e.team_id)).toEqual(keys.map((k) => `team_${createHash('sha256').update(k).digest('hex').slice(0, 12)}`));
  });
});

describe('configured mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer([], { SENDBOX_KEYS: 'team_a:alpha-key-1,team_a:alpha-key-2,team_b:beta-key-1' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts only the listed keys', async () => {
    const res = await send(server, 'not-a-listed-key');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, success: false });
    expect(JSON.stringify(res.body)).not.toContain('not-a-listed-key');
  });

  it('lets keys of one team share emails and domains, with api_key_id in listed order', async () => {
    const sent = await send(server, 'alpha-key-1');
    const id = sent.body.data[0].email_id;
    const viaSecond = await server.api(`/v1/emails/${id}`, { key: 'alpha-key-2' });
    expect(viaSecond.status).toBe(200);
    expect(viaSecond.body.data).toMatchObject({ team_id: 'team_a', api_key_id: 1 });
    const second = await send(server, 'alpha-key-2');
    const list = await server.api('/v1/emails?api_key_id=2', { key: 'alpha-key-1' });
    expect(list.body.data.data.map((e: { id: string }) => e.id)).toEqual([second.body.data[0].email_id]);

    const added = await server.api('/v1/domains', { method: 'POST', key: 'alpha-key-1', json: { value: 'shared.example' } });
    expect(added.status).toBe(201);
    expect((await server.api('/v1/domains?domain=shared.example', { key: 'alpha-key-2' })).status).toBe(200);
  });

  it('isolates teams: list, get, logs and domains answer as if nothing existed', async () => {
    const sent = await send(server, 'alpha-key-1');
    const id = sent.body.data[0].email_id;
    expect((await server.api(`/v1/emails/${id}`, { key: 'beta-key-1' })).status).toBe(404);
    expect((await server.api(`/v1/emails/${id}/logs`, { key: 'beta-key-1' })).status).toBe(404);
    expect((await server.api('/v1/emails', { key: 'beta-key-1' })).body.data.pagination.total_records).toBe(0);
    expect((await server.api('/v1/domains?domain=shared.example', { key: 'beta-key-1' })).status).toBe(404);
    expect((await server.api('/v1/domains', { key: 'beta-key-1' })).body.data).toEqual([]);
    expect((await server.api('/v1/domains/verify?domain=shared.example', { method: 'POST', key: 'beta-key-1' })).status).toBe(404);
    expect((await server.api('/v1/domains?domain=shared.example', { method: 'DELETE', key: 'beta-key-1' })).status).toBe(404);
  });
});

describe('--keys', () => {
  it('reads a JSON file with explicit api_key_ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-keys-'));
    const file = join(dir, 'keys.json');
    writeFileSync(file, JSON.stringify([{ key: 'file-key-1', team_id: 'team_x', api_key_id: 7 }]));
    const server = await startServer(['--keys', file]);
    try {
      const sent = await send(server, 'file-key-1');
      const email = (await server.api(`/v1/emails/${sent.body.data[0].email_id}`, { key: 'file-key-1' })).body.data;
      expect(email).toMatchObject({ team_id: 'team_x', api_key_id: 7 });
    } finally {
      await server.close();
    }
  });

  it('refuses malformed key settings with a clear message', () => {
    expect(() => parseKeys('no-colon-here')).toThrow(ConfigError);
    expect(() => parseKeys('team a:key')).toThrow(/team_id/);
    expect(() => parseKeys('t:k1,t:k 2')).toThrow(ConfigError);
  });
});
