// Writes a database with a released sendbox, and what that release answers for each email,
// for server/src/storage/release-db.test.ts (a newer sendbox must read it back the same).
//   git worktree add --detach /tmp/sendbox-release <commit> && (cd /tmp/sendbox-release && ln -s <repo>/node_modules && npm run build:server)
//   node scripts/release-fixture.mjs /tmp/sendbox-release/dist/sendbox.mjs server/src/storage/fixtures <commit>
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [entry, outDir, label] = process.argv.slice(2);
if (!entry || !outDir || !label) throw new Error('usage: release-fixture.mjs <dist/sendbox.mjs> <out dir> <release label>');
mkdirSync(outDir, { recursive: true });
const db = join(outDir, `release-${label}.db`);
for (const suffix of ['', '-wal', '-shm', '-large', '-large-wal', '-large-shm', '-large-2', '-large-2-wal', '-large-2-shm']) rmSync(db + suffix, { force: true });

const child = spawn(process.execPath, [entry, '--port', '0', '--smtp-port', '0', '--db', db, '--delay-ms', '5'], { stdio: ['ignore', 'pipe', 'inherit'] });
const ready = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /http:\/\/127\.0\.0\.1:(\d+)\s+smtp:\/\/127\.0\.0\.1:(\d+)/.exec(out);
    if (match) resolve({ http: Number(match[1]), smtp: Number(match[2]) });
  });
  child.on('exit', (code) => reject(new Error(`sendbox exited ${code}: ${out}`)));
});
const url = `http://127.0.0.1:${ready.http}`;
const KEYS = ['release-key-a', 'release-key-b'];
const b64 = (text) => Buffer.from(text).toString('base64');

async function send(key, body) {
  const res = await fetch(`${url}/v1/send`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`send answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data[0].email_id;
}

/** One SMTP session speaking raw commands (AUTH PLAIN with the key when given). */
function smtp(raw, key) {
  return new Promise((resolve, reject) => {
    const socket = connect(ready.smtp, '127.0.0.1');
    const steps = [
      'EHLO release.test',
      ...(key ? [`AUTH PLAIN ${Buffer.from(`\0user\0${key}`).toString('base64')}`] : []),
      'MAIL FROM:<smtp-sender@acme.test>', 'RCPT TO:<smtp-to@example.com>', 'RCPT TO:<smtp-bcc@example.com>', 'DATA',
      raw.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..') + '\r\n.', 'QUIT',
    ];
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\r\n');
      buffer = lines.pop();
      for (const line of lines) {
        if (line[3] === '-') continue;
        if (!/^[23]/.test(line)) return reject(new Error(`SMTP: ${line}`));
        const next = steps.shift();
        if (next === undefined) return;
        socket.write(next + '\r\n');
      }
    });
    socket.on('close', resolve);
    socket.on('error', reject);
  });
}

const sent = [];
const api = (key, body) => send(key, body).then((id) => sent.push({ key, id }));
// Every shape the API composes: text only (LF, CRLF, CR), HTML (generated text part),
// non-ASCII (quoted-printable), a line over 998 characters, attachments and inline images.
await api(KEYS[0], { from: 'Release <release@acme.test>', to: 'text@example.com', subject: 'Text only', body: 'Hello,\nthis is plain text.\n\nBye\n' });
await api(KEYS[0], { from: 'release@acme.test', to: ['html@example.com', 'Second <second@example.com>'], cc: 'cc@example.com', bcc: 'bcc@example.com', reply_to: 'reply@acme.test', subject: 'HTML newsletter', body: '<!doctype html><html><head><style>p{color:red}</style></head><body><h1>Hi &amp; welcome</h1>\n<p>First <a href="https://acme.test/x?a=1&amp;b=2">link</a></p>\n<ul><li>one</li><li>two</li></ul></body></html>', headers: { 'X-Campaign': 'spring', 'X-Tags': 'news, weekly' } });
await api(KEYS[0], { from: 'release@acme.test', to: 'crlf@example.com', subject: 'CRLF text', body: 'line one\r\nline two\r\n' });
await api(KEYS[0], { from: 'release@acme.test', to: 'cr@example.com', subject: 'CR and mixed', body: 'old mac\rline\nunix\r\nwindows' });
await api(KEYS[1], { from: 'Élodie Ünïcode <unicode@acme.test>', to: 'Zoë <zoe@example.com>', subject: 'Grüße 😀 — ünïcödé', body: '<p>Grüße aus Köln 😀 — 日本語のテキスト</p>\n<p>naïve café</p>' });
await api(KEYS[1], { from: 'release@acme.test', to: 'long@example.com', subject: 'Long line', body: 'x'.repeat(1500) + '\nshort line' });
await api(KEYS[1], {
  from: 'release@acme.test', to: 'files@example.com', subject: 'With attachments', body: '<p>See the <img src="cid:logo@acme"> report</p>',
  attachments: [
    { filename: 'report.txt', content: b64('a report\n'.repeat(50)), contentType: 'text/plain' },
    { filename: 'logo.png', content: b64('\x89PNG fake image bytes'), contentType: 'image/png', contentId: '<logo@acme>' },
    { filename: 'naïve résumé.pdf', content: b64('%PDF-1.4 fake').replace(/=+$/, ''), contentType: 'application/pdf' },
  ],
});
await api(KEYS[1], { from: 'release@acme.test', to: 'textfile@example.com', subject: 'Text with a file', body: 'plain with a file', attachments: [{ filename: 'data.csv', content: b64('a,b\n1,2\n'), contentType: 'text/csv' }] });

// SMTP-received raw messages: multipart with an attachment (authenticated), 8bit UTF-8 text (anonymous).
await smtp([
  'From: SMTP Sender <smtp-sender@acme.test>', 'To: smtp-to@example.com', 'Subject: SMTP multipart', 'Message-ID: <smtp-1@release.test>', 'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: multipart/alternative; boundary="b2"', '', '--b2',
  'Content-Type: text/plain; charset=utf-8', '', 'plain part', '.starts with a dot', '--b2', 'Content-Type: text/html; charset=utf-8', '', '<p>html part</p>', '--b2--',
  '--b1', 'Content-Type: application/octet-stream; name="blob.bin"', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment; filename="blob.bin"', '', b64('binary\x00\x01\x02 data'), '--b1--', '',
].join('\n'), KEYS[0]);
await smtp([
  'From: smtp-sender@acme.test', 'To: smtp-to@example.com', 'Subject: =?utf-8?Q?Gr=C3=BC=C3=9Fe?=', 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '',
  'Grüße, 8bit text', 'second line', '',
].join('\n'));

// Every email delivered (the simulation finished), so reading them later changes nothing.
for (;;) {
  const list = (await (await fetch(`${url}/sandbox/emails?limit=100`)).json()).data;
  if (list.data.length === sent.length + 2 && list.data.every((e) => !['processing', 'queued'].includes(e.status))) {
    for (const e of list.data.reverse()) if (!sent.some((s) => s.id === e.id)) sent.push({ key: e.source === 'smtp' && e.subject === 'SMTP multipart' ? KEYS[0] : null, id: e.id });
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const expected = [];
for (const { key, id } of sent) {
  const get = async (path, init) => {
    const res = await fetch(url + path, init);
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };
  const sandbox = JSON.parse((await get(`/sandbox/emails/${id}`)).body);
  const v1 = key ? JSON.parse((await get(`/v1/emails/${id}`, { headers: { authorization: `Bearer ${key}` } })).body) : null;
  const raw = (await get(`/sandbox/emails/${id}/raw`)).body.toString('base64');
  const attachments = [];
  for (let index = 0; ; index++) {
    const file = await get(`/sandbox/emails/${id}/attachments/${index}`);
    if (file.status !== 200) break;
    attachments.push({ type: file.type, base64: file.body.toString('base64') });
  }
  expected.push({ id, key, v1, sandbox, raw, attachments });
}
child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
if (existsSync(`${db}-wal`)) throw new Error('the WAL was left behind: not a clean close');
writeFileSync(join(outDir, `release-${label}.json`), JSON.stringify({ release: label, emails: expected }, null, 1) + '\n');
console.log(`wrote ${db} and its answers for ${expected.length} emails`);
