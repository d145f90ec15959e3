import { test as base, expect } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';

/** What a spec needs from the running sendbox: its URL, a fresh API key (its own mailbox), and calls. */
export interface Sendbox {
  url: string;
  smtpPort: number;
  key: string;
  teamId: string;
  /** POST /v1/send with this test's key; returns the email id. */
  send(body: Record<string, unknown>, key?: string): Promise<string>;
  /** A /sandbox call with JSON in and out (state changes carry Content-Type: application/json). */
  sandbox<T = unknown>(path: string, init?: { method?: string; json?: unknown }): Promise<{ status: number; body: { data: T } & Record<string, unknown> }>;
  /** Waits (long poll, no client polling) until an email matching the query exists. */
  wait(query: Record<string, string>): Promise<{ id: string; status: string }[]>;
}

/** CONTRACT §2: open mode gives each key the team `team_<first 12 hex of sha256(key)>`. */
export const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

export const newKey = () => `e2e_${randomUUID().replace(/-/g, '')}`;

export const test = base.extend<{ sendbox: Sendbox }>({
  baseURL: async ({}, use) => {
    await use(process.env.SENDBOX_URL);
  },
  sendbox: async ({}, use) => {
    const url = process.env.SENDBOX_URL!;
    const key = newKey();
    const sandbox: Sendbox['sandbox'] = async (path, init = {}) => {
      const response = await fetch(url + path, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: init.json === undefined && (init.method ?? 'GET') === 'GET' ? {} : { 'Content-Type': 'application/json' },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    await use({
      url,
      smtpPort: Number(process.env.SENDBOX_SMTP_PORT),
      key,
      teamId: teamOf(key),
      async send(body, withKey = key) {
        const response = await fetch(`${url}/v1/send`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${withKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ from: 'Acme <hello@acme.test>', ...body }),
        });
        const json = (await response.json()) as { data?: { email_id: string }[]; message?: string };
        expect(response.status, json.message).toBe(200);
        return json.data![0].email_id;
      },
      sandbox,
      async wait(query) {
        const params = new URLSearchParams({ timeout_ms: '10000', ...query });
        const { status, body } = await sandbox<{ id: string; status: string }[]>(`/sandbox/emails/wait?${params}`);
        expect(status, JSON.stringify(body)).toBe(200);
        return body.data;
      },
    });
  },
});

export { expect };
