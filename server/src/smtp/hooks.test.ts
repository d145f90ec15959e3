import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { deliveredEmail, queuedId, RawSmtp } from '../../test/smtp/client.js';
import type { Scenarios, SmtpContext, SmtpRefusal, SmtpStage } from '../simulation/scenarios.js';

const KEY = 'hooks-key-0001';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

let server: TestServer;
let scenarios: Scenarios;
let original: Scenarios['smtpRefusal'];
beforeAll(async () => {
  server = await startServer();
  scenarios = server.sendbox.services.scenarios;
  original = scenarios.smtpRefusal;
});
afterEach(() => {
  scenarios.smtpRefusal = original;
});
afterAll(async () => {
  await server?.close();
});

/** Replaces the scenario engine's SMTP seam: records what the listener asks, answers `decide`. */
function stubRefusals(decide: (stage: SmtpStage, context: SmtpContext) => SmtpRefusal | null) {
  const calls: { stage: SmtpStage; context: SmtpContext }[] = [];
  scenarios.smtpRefusal = (stage, context) => {
    calls.push({ stage, context });
    return decide(stage, context);
  };
  return calls;
}

async function session(): Promise<RawSmtp> {
  const { client } = await RawSmtp.open(server.smtpPort);
  await client.command('EHLO client.test');
  await client.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`);
  return client;
}

const MESSAGE = 'From: App <app@acme.test>\r\nTo: a@example.com\r\nSubject: Hooked\r\nX-Env: ci\r\n\r\nbody\r\n';

describe('SMTP-stage scenario hooks', () => {
  it('asks at MAIL FROM, each RCPT TO and the end of DATA with what is known there', async () => {
    const calls = stubRefusals(() => null);
    const client = await session();
    const reply = await client.sendRaw('bounce@acme.test', ['a@example.com', 'hidden@example.com'], MESSAGE);
    await client.quit();
    expect(reply.code).toBe(250);
    const { team_id } = await deliveredEmail(server, KEY, queuedId(reply));
    expect(calls.map((c) => c.stage)).toEqual(['mail', 'rcpt', 'rcpt', 'data']);
    expect(calls[0].context).toEqual({ teamId: team_id, from: 'bounce@acme.test', recipients: [] });
    expect(calls[1].context).toEqual({ teamId: team_id, from: 'bounce@acme.test', recipients: ['a@example.com'] });
    expect(calls[2].context.recipients).toEqual(['hidden@example.com']);
    const data = calls[3].context;
    expect(data).toMatchObject({ teamId: team_id, from: 'app@acme.test', recipients: ['a@example.com', 'hidden@example.com'], subject: 'Hooked' });
    expect(data.headers?.get('x-env')).toBe('ci');
  });

  it('answers a refusal with its code and message, after its delay', async () => {
    stubRefusals((stage) => (stage === 'mail' ? { code: 451, message: '4.7.1 Greylisted, try again', delayMs: 150, disconnect: false } : null));
    const client = await session();
    const reply = await client.command('MAIL FROM:<app@acme.test>');
    expect(reply).toMatchObject({ code: 451, text: '4.7.1 Greylisted, try again' });
    expect((await client.command('NOOP')).code).toBe(250);
    await client.quit();
  });

  it('stores nothing when DATA is refused, and nothing when the rule closes the connection there', async () => {
    const before = server.sendbox.services.emails.count();
    stubRefusals((stage) => (stage === 'data' ? { code: 554, message: '5.7.1 Rejected by rule', delayMs: 0, disconnect: false } : null));
    const client = await session();
    const refused = await client.sendRaw('app@acme.test', ['a@example.com'], MESSAGE);
    expect(refused).toMatchObject({ code: 554, text: '5.7.1 Rejected by rule' });
    await client.quit();

    stubRefusals((stage) => (stage === 'data' ? { code: 421, message: '4.4.2 Bye', delayMs: 0, disconnect: true } : null));
    const dropped = await session();
    expect(await dropped.sendRaw('app@acme.test', ['a@example.com'], MESSAGE)).toMatchObject({ code: 421, text: '4.4.2 Bye' });
    await dropped.closed;
    expect(server.sendbox.services.emails.count()).toBe(before);
  });

  it('waits the rule\'s delay, then writes its reply at MAIL FROM and closes the connection', async () => {
    stubRefusals((stage) => (stage === 'mail' ? { code: 450, message: '4.7.0 Come back later', delayMs: 50, disconnect: true } : null));
    const client = await session();
    expect(await client.command('MAIL FROM:<app@acme.test>')).toMatchObject({ code: 450, text: '4.7.0 Come back later' });
    await client.closed;
  });

  it('writes the rule\'s reply at RCPT TO, then closes the connection', async () => {
    stubRefusals((stage) => (stage === 'rcpt' ? { code: 554, message: '5.7.1 Go away', delayMs: 0, disconnect: true } : null));
    const client = await session();
    expect((await client.command('MAIL FROM:<app@acme.test>')).code).toBe(250);
    expect(await client.command('RCPT TO:<a@example.com>')).toMatchObject({ code: 554, text: '5.7.1 Go away' });
    await client.closed;
  });
});

describe('--strict-sender over SMTP', () => {
  it('refuses a From outside the team\'s verified domains with 550 5.7.1, accepts the default sender', async () => {
    const strict = await startServer(['--strict-sender']);
    try {
      const { client } = await RawSmtp.open(strict.smtpPort);
      await client.command('EHLO client.test');
      await client.command(`AUTH PLAIN ${b64(`\0apikey\0${KEY}`)}`);
      const refused = await client.sendRaw('app@acme.test', ['a@example.com'], MESSAGE);
      expect(refused.code).toBe(550);
      expect(refused.text).toMatch(/^5\.7\.1 .*app@acme\.test/);
      const accepted = await client.sendRaw('sandbox@sendbox.local', ['a@example.com'], 'From: sandbox@sendbox.local\r\nSubject: Default sender\r\n\r\nok\r\n');
      expect(accepted.code).toBe(250);
      await client.quit();
    } finally {
      await strict.close();
    }
  });
});
