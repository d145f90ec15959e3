import fc from 'fast-check';

/** Hostile SMTP: garbage sessions (bytes and commands) and broken MIME messages. */

export type SessionEnd = 'quit' | 'half-close' | 'reset';

const b = (s: string) => Buffer.from(s, 'latin1');

const COMMANDS = [
  'EHLO fuzz.test', 'HELO', 'EHLO', `EHLO ${'h'.repeat(600)}`, 'EHLO ünïcödé.test', 'HELO a b c', 'LHLO x',
  'MAIL FROM:<a@b.test>', 'MAIL FROM:<>', 'MAIL FROM:a@b.test', 'MAIL FROM:<"quoted spaces"@x.test>', 'MAIL FROM:<@route,@r2:a@b.test>',
  'MAIL FROM:<a@b.test> SIZE=99999999999999', 'MAIL FROM:<a@b.test> SIZE=-1', 'MAIL FROM:<a@b.test> SIZE=abc', 'MAIL FROM:<a@b.test> BODY=8BITMIME SMTPUTF8',
  'MAIL FROM:<a@b.test> BODY=BINARYMIME', 'MAIL FROM:<a@b.test> AUTH=<>', 'MAIL FROM:<a@b.test> UNKNOWN=1', `MAIL FROM:<${'l'.repeat(1000)}@b.test>`, 'MAIL FROM:<ü@ü.test>',
  'MAIL', 'MAIL FROM:', 'MAIL TO:<a@b.test>', 'RCPT TO:<r@x.test>', 'RCPT TO:<postmaster>', 'RCPT TO:<r+bounced@x.test>', 'RCPT TO:<>', 'RCPT TO:r@x.test',
  'RCPT TO:<r@x.test> NOTIFY=NEVER ORCPT=rfc822;r@x.test', 'RCPT', 'RCPT TO:<ü@ü.test>', 'DATA', 'DATA extra', 'BDAT 10 LAST', 'BDAT x', 'RSET', 'NOOP', 'NOOP arg',
  'HELP', 'VRFY root', 'EXPN list', 'ETRN x', 'TURN', 'QUIT extra', 'STARTTLS', 'STARTTLS now', 'AUTH', 'AUTH PLAIN', 'AUTH PLAIN =', 'AUTH PLAIN !!!notbase64',
  `AUTH PLAIN ${Buffer.from('\0user\0wrong-key').toString('base64')}`, 'AUTH LOGIN', 'AUTH CRAM-MD5', 'AUTH XOAUTH2 abc', 'AUTH LOGIN dXNlcg==', '*', 'GET / HTTP/1.1', 'Host: x',
  'mail from:<lower@case.test>', 'MaIl FrOm:<mixed@case.test>', '  MAIL FROM:<lead@space.test>', 'MAIL FROM :<space@before.test>', 'XCLIENT ADDR=1.2.3.4', 'XFORWARD NAME=x',
];

const step: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...COMMANDS).map((c) => b(`${c}\r\n`)) },
  { weight: 2, arbitrary: fc.constantFrom(...COMMANDS).map((c) => b(`${c}\n`)) },
  { weight: 2, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 2000 }).map((x) => Buffer.from(x)) },
  { weight: 1, arbitrary: fc.integer({ min: 513, max: 70_000 }).map((n) => b(`${'A'.repeat(n)}\r\n`)) },
  { weight: 1, arbitrary: fc.constantFrom('MAIL FROM:<a\0b@c.test>\r\n', 'EHLO \0\0\0\r\n', '\r\n\r\n\r\n', '\r\r\r\n', '\n\n\n', '.\r\n', '\x04\x1a\r\n', '\xff\xfe\xfd\r\n').map(b) },
  { weight: 1, arbitrary: fc.integer({ min: 51, max: 120 }).map((n) => b(Array.from({ length: n }, (_, i) => `RCPT TO:<r${i}@x.test>\r\n`).join(''))) },
  // A whole transaction pipelined in one write, possibly cut anywhere.
  { weight: 2, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.boolean()).map(([body, terminate]) => Buffer.concat([b('EHLO x\r\nMAIL FROM:<p@x.test>\r\nRCPT TO:<q@x.test>\r\nDATA\r\n'), Buffer.from(body), b(terminate ? '\r\n.\r\n' : '')])) },
);

/** A session of 1–12 steps and how the client leaves it. */
export const garbageSession = fc
  .tuple(fc.array(step, { minLength: 1, maxLength: 12 }), fc.constantFrom<SessionEnd>('quit', 'half-close', 'reset'), fc.nat(19))
  // One session in twenty talks before the greeting.
  .map(([steps, end, n]) => ({ steps, end, early: n === 0, label: `garbage(${steps.length} steps, ${end}${n === 0 ? ', before the greeting' : ''}): ${JSON.stringify(Buffer.concat(steps).toString('latin1').slice(0, 160))}` }));

// --- broken MIME -----------------------------------------------------------------------

const headerPool: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'From: a@fuzz.test', 'From: ', 'From: <<<>>>', 'From: "unterminated <a@b.test>', 'From: =?utf-8?B?@@@?= <a@b.test>', 'From: 名前 <ü@ü.test>',
    'To: ,,,;;; <<<>>>', 'To: undisclosed-recipients:;', 'To: a@b.test, , b@c.test', 'Cc: "x" <>', 'Bcc: hidden@fuzz.test', 'Reply-To: nobody',
    'Subject: =?utf-8?B?@@@?=', 'Subject: =?x?Q?=?', 'Subject: =?utf-8?Q?caf=C3=A9?= =?iso-8859-1?Q?caf=E9?=', 'Subject: \xff\xfe latin', 'Subject:', 'Subject: tab\there',
    'Subject: folded\r\n continuation\r\n\tand more', 'Date: not a date', 'Date: Thu, 31 Feb 2026 25:61:61 +9999', 'Message-ID: <>', 'Message-ID: no-brackets', 'Message-ID: <a@b><c@d>',
    'MIME-Version: 9.9', 'Content-Type: text/plain; charset=x-unknown', 'Content-Type: text/plain; charset=utf-7', 'Content-Type: text/html; charset="iso-2022-jp"',
    'Content-Type: multipart/mixed', 'Content-Type: multipart/mixed; boundary=', 'Content-Type: multipart/alternative; boundary="b"', 'Content-Type: ;;;', 'Content-Type: text',
    'Content-Type: application/octet-stream; name*0="a"; name*2="c"', 'Content-Transfer-Encoding: base64', 'Content-Transfer-Encoding: quoted-printable', 'Content-Transfer-Encoding: x-uuencode',
    'Content-Disposition: attachment; filename*=UTF-8\'\'%E0%A4%A', 'Content-Disposition: attachment; filename="../../etc/passwd"', 'X-Sendbox-Outcome: bounced', 'X-Sendbox-Outcome: exploded',
    'no colon here', ': empty name', 'X-Empty:', `X-Long: ${'v'.repeat(100_000)}`, ' leading space continuation', 'X-\x00Nul: x', 'Received: from x by y; garbage',
  ),
  fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.uint8Array({ maxLength: 200 })).map(([n, v]) => `${n}: ${Buffer.from(v).toString('latin1').replace(/[\r\n]/g, ' ')}`),
);

const bodyPool: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'plain body', '', '\r\n', 'no trailing newline', 'bare\nLF\nlines\n', 'bare\rCR', '\x00\x01\x02 nul bytes', '=ZZ bad qp =\r\n=', '!!!not base64@@@', 'aGVsbG8=\r\nd29y\r\n===',
    '--b\r\nContent-Type: text/plain\r\n\r\nunterminated part', '--b\r\n\r\n--b--\r\n--b\r\n', '--wrong\r\nContent-Type: text/plain\r\n\r\nx\r\n--wrong--', '<html><script>alert(1)</script><a href="javascript:x">c</a>',
    `${'line\r\n'.repeat(5000)}`, `${'x'.repeat(200_000)}`, '\u00e9\u00e8 latin-1 bytes', '😀 utf-8 emoji', 'begin 644 file\r\nM86)C\r\nend\r\n',
  ),
  fc.uint8Array({ maxLength: 5000 }).map((x) => Buffer.from(x).toString('latin1')),
  fc.integer({ min: 2, max: 300 }).map((depth) => {
    let body = 'Content-Type: text/plain\r\n\r\ndeep\r\n';
    for (let i = depth; i > 0; i--) body = `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n${body}${i % 7 === 0 ? '' : `--n${i}--\r\n`}`;
    return body;
  }),
);

/** Headers, a separator (or none) and a body; no line starts with a dot except where stuffing is meant to be tested. */
export const brokenMessage = fc
  .tuple(fc.array(headerPool, { maxLength: 12 }), fc.constantFrom('\r\n', '\n', ''), bodyPool, fc.boolean(), fc.constantFrom('\r\n', '\n'))
  .map(([headers, separator, body, dotLines, eol]) => {
    let text = `${headers.join(eol)}${eol}${separator}${body}`;
    // Lines starting with a dot travel stuffed (dataBlock) and must be stored unstuffed.
    if (dotLines) text += `\r\n.leading dot\r\n..two dots\r\n.\r\n`;
    const bytes = Buffer.from(text, 'latin1');
    return { bytes, label: `mime(${headers.length} headers, ${bytes.length} bytes): ${JSON.stringify(text.slice(0, 160))}` };
  });
