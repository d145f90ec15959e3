import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, eventually } from '../test/harness.js';

describe('restart on the same database file', () => {
  it('keeps every email, log and domain, and finishes lifecycles that were mid-way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-restart-'));
    const key = 'restart-key';
    try {
      // Slow delivery, so the second email is still processing when the server stops.
      const first = await startServer(['--delay-ms', '400'], {}, dir);
      const done = await first.api('/v1/send', { method: 'POST', key, json: { to: 'done@example.com', subject: 'finished before', body: 'x' } });
      const doneId = done.body.data[0].email_id;
      await eventually(async () => (await first.api(`/v1/emails/${doneId}`, { key })).body.data.status === 'delivered', 5000, 'first email delivered');
      const domain = await first.api('/v1/domains', { method: 'POST', key, json: { value: 'restart.example' } });
      expect(domain.status).toBe(201);
      const pending = await first.api('/v1/send', { method: 'POST', key, json: { to: 'later@example.com', subject: 'mid-way', body: 'y' } });
      const pendingId = pending.body.data[0].email_id;
      expect((await first.api(`/v1/emails/${pendingId}`, { key })).body.data.status).toBe('processing');
      const before = (await first.api(`/v1/emails/${doneId}`, { key })).body.data;
      await first.close();

      const second = await startServer(['--delay-ms', '400'], {}, dir);
      try {
        expect((await second.api(`/v1/emails/${doneId}`, { key })).body.data).toEqual(before);
        expect((await second.api('/v1/domains?domain=restart.example', { key })).body.data).toEqual(domain.body.data);
        const finished = await eventually(async () => {
          const email = (await second.api(`/v1/emails/${pendingId}`, { key })).body.data;
          return email.status === 'delivered' ? email : undefined;
        }, 5000, 'mid-way email delivered after restart');
        expect(finished.logs.map((l: { status: string }) => l.status)).toEqual(['processing', 'queued', 'delivered']);
        // New ids continue after the old ones, never reusing them.
        const next = await second.api('/v1/send', { method: 'POST', key, json: { to: 'n@example.com', subject: 'new', body: 'z' } });
        expect([doneId, pendingId]).not.toContain(next.body.data[0].email_id);
        expect((await second.api('/v1/emails', { key })).body.data.pagination.total_records).toBe(3);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
