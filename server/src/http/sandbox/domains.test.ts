import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendboxEvent } from '../../../../shared/events.js';
import { startServer, type TestServer } from '../../../test/harness.js';

/** /sandbox/domains: every team's domains for the inbox and test suites (CONTRACT §6). */

let server: TestServer;
const events: SendboxEvent[] = [];
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const A = 'team_alpha';
const B = 'team_beta';

beforeAll(async () => {
  server = await startServer();
  server.sendbox.services.events.subscribe((event) => events.push(event));
});
afterAll(async () => {
  await server.close();
});

const mutate = (path: string, method: string, json?: unknown) =>
  server.api(path, json === undefined ? { method, headers: { 'Content-Type': 'application/json' } } : { method, json });
const add = (team_id: string, value: string) => mutate('/sandbox/domains', 'POST', { team_id, value });
const values = (data: { team_id: string; value: string }[]) => data.map((d) => `${d.team_id}/${d.value}`);

describe('POST /sandbox/domains', () => {
  it('adds a domain for a team: 201 with the /v1 identity, seen by that team\'s key', async () => {
    const key = 'sandbox-domains-key';
    const res = await add(teamOf(key), 'Added.Example.');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 201, message: expect.any(String), data: expect.objectContaining({ value: 'added.example', team_id: teamOf(key), status: 'not_started' }) });
    const seen = await server.api('/v1/domains?domain=added.example', { key });
    expect(seen.body.data).toEqual(res.body.data);
  });

  it('answers 409 for a duplicate, 422 for a bad name or a missing team_id', async () => {
    expect((await add(A, 'dup.example')).status).toBe(201);
    expect((await add(A, 'DUP.example')).status).toBe(409);
    const bad = await add(A, 'a..b');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: 'value', message: expect.stringContaining('empty label') }]);
    const noTeam = await mutate('/sandbox/domains', 'POST', { value: 'x.example' });
    expect(noTeam.status).toBe(422);
    expect(noTeam.body.errors).toEqual([{ field: 'team_id', message: 'team_id is required and must be a string' }]);
    expect((await mutate('/sandbox/domains', 'POST', { team_id: A, value: 'x.example', extra: 1 })).status).toBe(422);
  });
});

describe('GET /sandbox/domains', () => {
  it('lists every team\'s domains, or one team\'s with ?team_id=, or one name with ?domain=', async () => {
    await add(A, 'list-one.example');
    await add(B, 'list-one.example');
    await add(B, 'list-two.example');
    const all = await server.api('/sandbox/domains');
    expect(all.status).toBe(200);
    expect(values(all.body.data)).toEqual(expect.arrayContaining([`${A}/list-one.example`, `${B}/list-one.example`, `${B}/list-two.example`]));
    const onlyB = await server.api(`/sandbox/domains?team_id=${B}`);
    expect(values(onlyB.body.data)).toEqual([`${B}/list-one.example`, `${B}/list-two.example`]);
    const byName = await server.api('/sandbox/domains?domain=LIST-ONE.example');
    expect(values(byName.body.data)).toEqual([`${A}/list-one.example`, `${B}/list-one.example`]);
    expect((await server.api('/sandbox/domains?team_id=team_nobody')).body.data).toEqual([]);
    expect((await server.api('/sandbox/domains?domain=-bad-.com')).status).toBe(422);
  });
});

describe('POST /sandbox/domains/verify', () => {
  it('verifies one team\'s domain', async () => {
    await add(A, 'verify-a.example');
    const res = await mutate(`/sandbox/domains/verify?team_id=${A}&domain=verify-a.example`, 'POST');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ value: 'verify-a.example', team_id: A, status: 'success' });
  });

  it('needs no team_id when one team has the name; answers 400 naming the teams when several do', async () => {
    await add(A, 'only-a.example');
    expect((await mutate('/sandbox/domains/verify?domain=only-a.example', 'POST')).body.data.team_id).toBe(A);
    await add(A, 'both.example');
    await add(B, 'both.example');
    const ambiguous = await mutate('/sandbox/domains/verify?domain=both.example', 'POST');
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.message).toContain(A);
    expect(ambiguous.body.message).toContain(B);
    expect(ambiguous.body.errors).toEqual([{ field: 'team_id', message: expect.any(String) }]);
  });

  it('answers 404 for an unknown domain or a domain of another team, 400 without ?domain=', async () => {
    await add(A, 'a-only.example');
    expect((await mutate('/sandbox/domains/verify?domain=unknown.example', 'POST')).status).toBe(404);
    expect((await mutate(`/sandbox/domains/verify?team_id=${B}&domain=a-only.example`, 'POST')).status).toBe(404);
    expect((await mutate('/sandbox/domains/verify', 'POST')).status).toBe(400);
    expect((await mutate('/sandbox/domains/verify?domain=a&domain=b', 'POST')).status).toBe(400);
  });
});

describe('DELETE /sandbox/domains', () => {
  it('deletes one team\'s domain and leaves the other team\'s', async () => {
    await add(A, 'delete-one.example');
    await add(B, 'delete-one.example');
    const res = await mutate(`/sandbox/domains?team_id=${A}&domain=delete-one.example`, 'DELETE');
    expect(res.body).toEqual({ status: 200, message: expect.any(String), data: null });
    expect(values((await server.api('/sandbox/domains?domain=delete-one.example')).body.data)).toEqual([`${B}/delete-one.example`]);
    expect((await mutate('/sandbox/domains?domain=delete-one.example', 'DELETE')).status).toBe(200);
    expect((await mutate('/sandbox/domains?domain=delete-one.example', 'DELETE')).status).toBe(404);
    expect((await mutate('/sandbox/domains', 'DELETE')).status).toBe(400);
  });
});

describe('domain events on the bus', () => {
  it('publishes domain.created, domain.updated and domain.deleted with the identity', async () => {
    events.length = 0;
    const created = (await add(A, 'events.example')).body.data;
    const verified = (await mutate(`/sandbox/domains/verify?team_id=${A}&domain=events.example`, 'POST')).body.data;
    await mutate(`/sandbox/domains?team_id=${A}&domain=events.example`, 'DELETE');
    const mine = events.filter((e) => e.type.startsWith('domain.'));
    expect(mine).toEqual([
      { type: 'domain.created', data: created },
      { type: 'domain.updated', data: verified },
      { type: 'domain.deleted', data: { id: created.id, value: 'events.example', team_id: A } },
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents the domain and webhook paths of /sandbox', async () => {
    const doc = (await server.api('/openapi.json')).body;
    for (const path of ['/sandbox/domains', '/sandbox/domains/verify', '/sandbox/domains/{domain}/verification', '/sandbox/webhooks', '/sandbox/webhooks/{id}', '/sandbox/webhooks/{id}/attempts']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
