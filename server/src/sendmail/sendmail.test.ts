import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { MAIN, ROOT } from '../../test/process.js';
import { openTeamId } from '../auth/keys.js';

/** Runs the built `sendbox sendmail` with a message on standard input, as PHP's mail() does. */
function sendmail(args: string[], input: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN, 'sendmail', ...args], { cwd: ROOT, env: { ...process.env, SENDBOX_SMTP_ADDR: '', SENDBOX_API_KEY: '', ...env }, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

const PHP_MESSAGE = [
  'To: Dana <dana@example.com>',
  'Cc: carl@example.com',
  'Bcc: audit@example.com',
  'From: Shop <shop@acme.test>',
  'Subject: Your order %s',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=UTF-8',
  '',
  'Thanks for your order.',
  '.',
  'A line with only a dot above.',
  '',
].join('\n');

let server: TestServer;
let addr: string;
beforeAll(async () => {
  server = await startServer();
  addr = `127.0.0.1:${server.smtpPort}`;
  await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'nobody@example.com' }, action: { smtp_stage: 'rcpt', code: 550, message: '5.1.1 no such user' } } });
  await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: 'later@example.com' }, action: { smtp_stage: 'data', code: 451, message: '4.3.0 busy' } } });
});
afterAll(async () => {
  await server?.close();
});

async function waitFor(to: string, subject: string) {
  const res = await server.api(`/sandbox/emails/wait?to=${encodeURIComponent(to)}&subject=${encodeURIComponent(subject)}&timeout_ms=10000`);
  expect(res.status).toBe(200);
  return (await server.api(`/sandbox/emails/${res.body.data[0].id}`)).body.data;
}

describe('sendbox sendmail', () => {
  it('takes a PHP mail() message with -t -i: recipients from the headers, Bcc removed, CRLF line ends', async () => {
    const result = await sendmail(['-t', '-i', '--smtp-addr', addr], PHP_MESSAGE.replace('%s', '#1'));
    expect(result).toEqual({ code: 0, stderr: '' });
    const email = await waitFor('dana@example.com', 'Your order #1');
    expect(email).toMatchObject({ from_address: 'shop@acme.test', to_addresses: ['dana@example.com'], team_id: 'team_smtp', source: 'smtp' });
    expect(email.metadata.cc).toEqual(['carl@example.com']);
    expect(email.metadata.bcc).toEqual(['audit@example.com']);
    expect(email.raw).not.toMatch(/^Bcc:/im);
    expect(email.raw).toContain('Thanks for your order.\r\n.\r\nA line with only a dot above.\r\n');
    expect(email.raw).not.toMatch(/[^\r]\n/);
  });

  it('sends to the command-line recipients only without -t, reading SENDBOX_SMTP_ADDR and SENDBOX_API_KEY', async () => {
    const key = 'sendmail-key-0042';
    const result = await sendmail(['-f', 'cron@acme.test', 'ops@example.com'], PHP_MESSAGE.replace('%s', '#2'), { SENDBOX_SMTP_ADDR: addr, SENDBOX_API_KEY: key });
    expect(result.code).toBe(0);
    const email = await waitFor('ops@example.com', 'Your order #2');
    expect(email.team_id).toBe(openTeamId(key));
    // Not sent to the header recipients: the envelope is the command line's.
    expect(email.outcomes.map((o: { recipient: string }) => o.recipient)).toEqual(['ops@example.com']);
  });

  it.each([
    ['no recipients', [], PHP_MESSAGE, 64, 'no recipients given'],
    ['-t and no recipient headers', ['-t'], 'Subject: x\n\nbody\n', 64, 'no recipients: none on the command line and no To, Cc or Bcc'],
    ['an empty message', ['a@example.com'], '', 65, 'no message on standard input'],
    ['a recipient that is no address', ['not-an-address'], PHP_MESSAGE, 64, 'not-an-address is not an email address'],
    ['an unknown option', ['--bogus', 'a@example.com'], PHP_MESSAGE, 64, "Unknown option '--bogus'"],
    ['a mode other than sending', ['-bp'], PHP_MESSAGE, 64, '-bp: only sending a message (-bm) is supported'],
    ['a bad --smtp-addr', ['--smtp-addr', 'host:99999', 'a@example.com'], PHP_MESSAGE, 64, '--smtp-addr must be host:port'],
  ])('exits EX_USAGE/EX_DATAERR for %s', async (_name, args, input, code, message) => {
    const result = await sendmail(['--smtp-addr', addr, ...args], input);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
  });

  it('exits 67 when sendbox refuses a recipient, 75 on a temporary refusal, 69 when nothing listens', async () => {
    const refused = await sendmail(['--smtp-addr', addr, 'nobody@example.com'], PHP_MESSAGE);
    expect(refused.code).toBe(67);
    expect(refused.stderr).toContain('550 5.1.1 no such user');
    const later = await sendmail(['--smtp-addr', addr, 'later@example.com'], PHP_MESSAGE);
    expect(later.code).toBe(75);
    expect(later.stderr).toContain('451 4.3.0 busy');
    const down = await sendmail(['--smtp-addr', '127.0.0.1:1', 'a@example.com'], PHP_MESSAGE);
    expect(down).toEqual({ code: 69, stderr: 'sendbox sendmail: nothing listens at 127.0.0.1:1: is sendbox running? (--smtp-addr / SENDBOX_SMTP_ADDR)\n' });
  });

  it('exits 68 when the --smtp-addr host does not resolve', async () => {
    const result = await sendmail(['--smtp-addr', 'no-such-host.invalid:25', 'a@example.com'], PHP_MESSAGE);
    expect(result.code).toBe(68);
    expect(result.stderr).toContain('cannot resolve no-such-host.invalid');
  });

  it('prints its usage with the PHP sendmail_path line', async () => {
    const child = spawn(process.execPath, [MAIN, 'sendmail', '--help'], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toContain('sendmail_path = "/path/to/sendbox sendmail -t -i"');
  });
});
