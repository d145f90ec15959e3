// Request bodies and raw messages, built once per run. The same logical email is
// expressed in each target's own API so every server parses a body of the same size.
import { randomBytes } from 'node:crypto';

const FROM = 'Bench Sender <bench@acme.test>';
const TO = 'recipient@example.com';

/** Deterministic-looking prose of exactly `bytes` ASCII bytes. */
function prose(bytes) {
  const words = 'the quick brown fox jumps over a lazy dog while sendbox stores every email it sees'.split(' ');
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += (i % 12 === 11 ? '\n' : '') + words[i % words.length] + ' ';
  return out.slice(0, bytes);
}

/** An HTML document of about `bytes` bytes with paragraphs, links and a table. */
export function html(bytes) {
  let body = '<!doctype html><html><head><title>Bench</title></head><body><h1>Your weekly report</h1>';
  for (let i = 0; body.length < bytes - 40; i++) {
    body += i % 5 === 4
      ? `<table><tr><td>Item ${i}</td><td>${i * 3} units</td></tr></table>`
      : `<p>Paragraph ${i}: ${prose(180)} <a href="https://acme.test/r/${i}">read more</a></p>`;
  }
  return body + '</body></html>';
}

const ATTACHMENT = randomBytes(1024 * 1024).toString('base64');

/** The three /v1/send shapes of section 1, in sendbox's API. */
export const SEND_CASES = [
  { id: '1kb-text', label: '1 KB text', sendbox: { from: FROM, to: TO, subject: 'Bench 1 KB text', body: prose(1024) } },
  { id: '100kb-html', label: '100 KB HTML', sendbox: { from: FROM, to: TO, subject: 'Bench 100 KB HTML', body: html(100 * 1024) } },
  {
    id: '1mb-attachment',
    label: '1 MB attachment',
    sendbox: { from: FROM, to: TO, subject: 'Bench 1 MB attachment', body: prose(1024), attachments: [{ filename: 'report.bin', content: ATTACHMENT, contentType: 'application/octet-stream' }] },
  },
];

/** The same email as an SES v2 SendEmail body (aws-ses-v2-local). */
export function sesBody(sendbox) {
  const isHtml = sendbox.body.startsWith('<');
  return {
    FromEmailAddress: FROM,
    Destination: { ToAddresses: [TO] },
    Content: {
      Simple: {
        Subject: { Data: sendbox.subject },
        Body: isHtml ? { Html: { Data: sendbox.body } } : { Text: { Data: sendbox.body } },
        ...(sendbox.attachments ? { Attachments: sendbox.attachments.map((a) => ({ FileName: a.filename, RawContent: a.content, ContentType: a.contentType })) } : {}),
      },
    },
  };
}

/** Raw RFC 5322 messages for section 2 (sent verbatim by nodemailer, so the client does no composing). */
export function rawMessage(kind) {
  const head = [
    `From: ${FROM}`,
    `To: ${TO}`,
    `Subject: Bench SMTP ${kind}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomBytes(8).toString('hex')}@bench.acme.test>`,
    'MIME-Version: 1.0',
  ];
  if (kind === '2kb') {
    return Buffer.from([...head, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 7bit', '', prose(2048 - 300).replace(/\n/g, '\r\n')].join('\r\n') + '\r\n');
  }
  const boundary = 'bench-boundary-42';
  const wrapped = ATTACHMENT.match(/.{1,76}/g).join('\r\n');
  return Buffer.from([
    ...head,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    prose(1024).replace(/\n/g, '\r\n'),
    `--${boundary}`,
    'Content-Type: application/octet-stream; name="report.bin"',
    'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="report.bin"',
    '',
    wrapped,
    `--${boundary}--`,
    '',
  ].join('\r\n'));
}

export const ENVELOPE = { from: 'bench@acme.test', to: [TO] };
