/**
 * Playwright fixtures (`sendbox/playwright`): a sendbox per worker and a mailbox per test.
 *
 *   import { test, expect } from 'sendbox/playwright';
 *   test('password reset', async ({ page, mailbox }) => {
 *     await mailbox.send({ to: 'jane@example.com', subject: 'Reset', body: '<a href="https://app/reset?t=1">Reset</a>' });
 *     const email = await mailbox.waitForEmail({ to: 'jane@example.com' });
 *     await page.goto(mailbox.latestLink(email));
 *   });
 *
 * The worker's sendbox is the one at `SENDBOX_URL` when that is set (a global setup, a
 * container, `npx sendbox`), or one started in the worker with `sendboxOptions`. Each test's
 * mailbox has an API key of its own — unique to the worker and the test — so tests running in
 * parallel never see each other's mail, and its waits ignore mail from before the test.
 */
import { randomUUID } from 'node:crypto';
import { test as base } from '@playwright/test';
import { startSendbox, type SendboxOptions } from '../server/src/index.js';
import { createSendboxClient, teamIdForKey, type SendboxClient } from './index.js';

export { expect } from '@playwright/test';

/** The worker's sendbox: where it listens and a client for any key. */
export interface SendboxWorker {
  url: string;
  smtp: { host: string; port: number };
  /** With `apiKey`: sends with it, lists and waits see only its team. Without: every team. */
  client(apiKey?: string): SendboxClient;
}

/** A test's own mailbox: the client for its key, with `apiKey` and `teamId` to hand to the app under test. */
export type Mailbox = SendboxClient & {
  /** The key that sends into this mailbox (`Authorization: Bearer …`, or the SMTP password). */
  apiKey: string;
  teamId: string;
};

export interface SendboxFixtures {
  mailbox: Mailbox;
}

export interface SendboxWorkerFixtures {
  /** Options of the sendbox a worker starts when `SENDBOX_URL` is not set (`test.use({ sendboxOptions })`). */
  sendboxOptions: SendboxOptions;
  sendbox: SendboxWorker;
}

/** Where an already running sendbox is, from SENDBOX_URL and SENDBOX_SMTP_HOST / SENDBOX_SMTP_PORT. */
function running(url: string): SendboxWorker {
  const smtpPort = Number(process.env.SENDBOX_SMTP_PORT ?? 1025);
  return {
    url,
    smtp: { host: process.env.SENDBOX_SMTP_HOST ?? new URL(url).hostname, port: smtpPort },
    // Open mode: the key's team follows from the key (configured keys: pass the key of a configured team).
    client: (apiKey) => (apiKey === undefined ? createSendboxClient({ baseUrl: url }) : createSendboxClient({ baseUrl: url, apiKey })),
  };
}

export const test = base.extend<SendboxFixtures, SendboxWorkerFixtures>({
  sendboxOptions: [{}, { scope: 'worker', option: true }],

  sendbox: [
    async ({ sendboxOptions }, use) => {
      const url = process.env.SENDBOX_URL;
      if (url) {
        await use(running(url));
        return;
      }
      const sendbox = await startSendbox({ port: 0, smtpPort: 0, db: ':memory:', delayMs: 0, ...sendboxOptions });
      try {
        await use(sendbox);
      } finally {
        await sendbox.stop();
      }
    },
    { scope: 'worker' },
  ],

  mailbox: async ({ sendbox }, use, testInfo) => {
    const apiKey = `pw-w${testInfo.workerIndex}-${testInfo.testId}-${randomUUID().slice(0, 8)}`;
    const teamId = await teamIdForKey(apiKey);
    const client = createSendboxClient({ baseUrl: sendbox.url, apiKey, teamId, since: 'now' });
    await use(Object.assign(client, { apiKey, teamId }));
  },
});
