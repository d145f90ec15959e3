import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

/** SMTP-stage rules (CONTRACT §6, §8) through a real SMTP client. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.api('/sandbox/rules', { method: 'DELETE', json: {} });
});

const transport = () => nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, secure: false, ignoreTLS: true });
/** Speaks SMTP line by line: sends each command after the previous reply; reports the last replies and whether the server hung up. */
function converse(commands: string[]): Promise<{ replies: string[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.smtpPort, '127.0.0.1');
    const replies: string[] = [];
    let buffer = '';
    let next = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        // A final reply line has a space after the code (RFC 5321 §4.2.1); others continue.
        if (!/^\d{3} /.test(line)) continue;
        replies.push(line);
        if (next < commands.length) socket.write(commands[next++] + '\r\n');
        else socket.end('QUIT\r\n');
      }
    });
    socket.on('close', () => resolve({ replies, closed: next === commands.length && !replies.at(-1)?.startsWith('221') }));
    socket.on('error', reject);
  });
}
const rule = (json: unknown) => server.api('/sandbox/rules', { method: 'POST', json });
const mail = (to: string | string[], subject = 'SMTP rule test') => transport().sendMail({ from: 'app@acme.test', to, subject, text: 'Hello' });

describe('SMTP-stage rules', () => {
  it('refuses RCPT TO with the rule\'s code and message, once (times: 1)', async () => {
    await rule({ match: { recipient: '*@blocked.example' }, action: { smtp_stage: 'rcpt', code: 550, message: '5.1.1 No such user here' }, times: 1 });
    const error = await mail('x@blocked.example').catch((e: { responseCode?: number; response?: string }) => e);
    expect(error).toMatchObject({ responseCode: 550 });
    expect((error as { response: string }).response).toMatch(/^550 5\.1\.1 No such user here/);
    const info = await mail('x@blocked.example');
    expect(info.accepted).toEqual(['x@blocked.example']);
  });

  it('refuses only the matching recipient among several', async () => {
    await rule({ match: { recipient: 'no@blocked.example' }, action: { smtp_stage: 'rcpt', code: 550 } });
    const info = await mail(['yes@example.com', 'no@blocked.example']);
    expect(info.accepted).toEqual(['yes@example.com']);
    expect(info.rejected).toEqual(['no@blocked.example']);
  });

  it('refuses MAIL FROM with a temporary code for a matching sender', async () => {
    await rule({ match: { from: '*@acme.test' }, action: { smtp_stage: 'mail', code: 451 } });
    const error = await mail('a@example.com').catch((e: { responseCode?: number; response?: string }) => e);
    expect(error).toMatchObject({ responseCode: 451 });
    expect((error as { response: string }).response).toMatch(/^451 4\.7\.1 Temporary local problem/);
  });

  it('refuses DATA by subject', async () => {
    await rule({ match: { subject: 'spammy' }, action: { smtp_stage: 'data', code: 554, message: '5.7.1 Message rejected as spam' } });
    const error = await mail('a@example.com', 'A spammy offer').catch((e: { responseCode?: number }) => e);
    expect(error).toMatchObject({ responseCode: 554 });
    await expect(mail('a@example.com', 'A fine message')).resolves.toMatchObject({ accepted: ['a@example.com'] });
  });

  it('replies 421 4.4.2 and then closes the connection when the rule says disconnect', async () => {
    await rule({ match: { recipient: 'drop@example.com' }, action: { smtp_stage: 'rcpt', disconnect: true } });
    const transcript = await converse(['EHLO test.example', 'MAIL FROM:<app@acme.test>', 'RCPT TO:<drop@example.com>']);
    // RCPT TO got the rule's reply, as a real server closing the channel gives one (RFC 5321 §3.8).
    expect(transcript.replies.at(-1)).toMatch(/^421 4\.4\.2 /);
    expect(transcript.closed).toBe(true);
    await expect(mail('drop@example.com')).rejects.toThrow(/421/);
    // The listener keeps serving new connections afterwards.
    await expect(mail('fine@example.com')).resolves.toMatchObject({ accepted: ['fine@example.com'] });
  });

  it('decides the outcome of SMTP mail with outcome rules too', async () => {
    await rule({ match: { recipient: '*@smtp-outcome.example' }, action: { outcome: 'bounced', code: '550', response: '5.1.1 gone' } });
    const info = await mail('who@smtp-outcome.example');
    const id = /queued as ([0-9a-f]{16})/.exec(info.response)?.[1];
    expect(id).toBeDefined();
    const email = await server.api(`/sandbox/emails/wait?to=who@smtp-outcome.example`);
    expect(email.body.data[0]).toMatchObject({ id, source: 'smtp' });
    expect(email.body.data[0].outcomes[0].decided_by).toMatch(/^rule:/);
  });
});
