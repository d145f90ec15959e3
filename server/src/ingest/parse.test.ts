import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { describe, expect, it } from 'vitest';
import { decodeFlowed, decodeQuotedPrintable, decodeWords, parseParameterized, readMime, splitMultipart } from './mime.js';
import { parseAddressList, parseSmtpMessage } from './parse.js';

const crlf = (lines: string[]) => Buffer.from(lines.join('\r\n'), 'utf8');
const ENVELOPE = { mailFrom: 'env@acme.test', rcptTo: ['a@example.com'] };
const PRINCIPAL = { teamId: 'team_x', apiKeyId: 7 };

describe('decoders', () => {
  it('decodes RFC 2047 words, joining adjacent ones (even mid-character) and dropping the space between', () => {
    expect(decodeWords('=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus?= =?utf-8?B?S8O2bG4=?=')).toBe('Grüße ausKöln');
    // "é" (C3 A9) split across two base64 words.
    expect(decodeWords('=?UTF-8?B?w6==?= =?UTF-8?B?qQ==?=')).toBe('é');
    expect(decodeWords('Re: =?ISO-8859-1?Q?J=FCrgen?= says hi')).toBe('Re: Jürgen says hi');
    expect(decodeWords('=?x-unknown?Q?plain?=')).toBe('plain');
    expect(decodeWords('=?windows-1252?Q?=80_=93quoted=94?=')).toBe('€ “quoted”');
    expect(decodeWords('no words here =? at all')).toBe('no words here =? at all');
  });

  it('decodes quoted-printable: hex escapes, soft breaks, and stray "=" kept', () => {
    const decode = (s: string) => decodeQuotedPrintable(Buffer.from(s, 'latin1')).toString('latin1');
    expect(decode('caf=C3=A9 =\r\nsoft=\nbreak')).toBe('caf\xc3\xa9 softbreak');
    expect(decode('lower =c3=a9 hex')).toBe('lower \xc3\xa9 hex');
    expect(decode('a=ZZb = c=')).toBe('a=ZZb = c');
    expect(decode('trailing =  \r\nspace')).toBe('trailing space');
  });

  it('joins format=flowed lines (RFC 3676), with and without DelSp', () => {
    expect(decodeFlowed('Hello \nworld\n\n-- \nsig', false)).toBe('Hello world\n\n-- \nsig');
    expect(decodeFlowed('Hel \nlo\n From stuffed', true)).toBe('Hello\nFrom stuffed');
  });

  it('parses parameters: quoted, RFC 2231 extended and continued', () => {
    expect(parseParameterized('multipart/mixed; boundary="a;b \\"c\\""; charset=utf-8')).toEqual({ value: 'multipart/mixed', params: { boundary: 'a;b "c"', charset: 'utf-8' } });
    expect(parseParameterized("attachment; filename*=utf-8''na%C3%AFve.txt").params.filename).toBe('naïve.txt');
    expect(parseParameterized('attachment; filename*0="long"; filename*1="-name.txt"').params.filename).toBe('long-name.txt');
  });

  it('splits multiparts only at real delimiter lines', () => {
    const body = Buffer.from('preamble\r\n--b\r\none\r\n--bb not a delimiter\r\n--b  \r\ntwo\r\n--b--\r\nepilogue');
    expect(splitMultipart(body, 'b').map(String)).toEqual(['one\r\n--bb not a delimiter', 'two']);
    expect(splitMultipart(Buffer.from('--b\nunterminated\n'), 'b').map(String)).toEqual(['unterminated\n']);
  });
});

describe('readMime', () => {
  it('counts a Content-ID part as inline only when it is shown in place', () => {
    const mime = readMime(crlf([
      'Content-Type: multipart/mixed; boundary=m', '',
      '--m', 'Content-Type: text/html; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable', '', '<p>Gr=FC=DFe <img src=3D"cid:shown@x"></p>',
      '--m', 'Content-Type: image/png', 'Content-ID: <shown@x>', 'Content-Disposition: attachment', 'Content-Transfer-Encoding: base64', '', 'iVBORw0KGgo=',
      '--m', 'Content-Type: application/pdf', 'Content-ID: <outlook-adds-these@x>', 'Content-Disposition: attachment; filename=a.pdf', '', '%PDF',
      '--m', 'Content-Type: image/gif', 'Content-Disposition: inline', '', 'GIF89a',
      '--m', 'Content-Type: text/plain', 'Content-Disposition: attachment; filename=notes.txt', '', 'not the body',
      '--m', 'Content-Type: message/rfc822', '', 'Subject: forwarded', '', 'inner',
      '--m', 'Content-Type: text/calendar; method=REQUEST', '', 'BEGIN:VCALENDAR',
      '--m--', '',
    ]));
    expect(mime).toMatchObject({ html: '<p>Grüße <img src="cid:shown@x"></p>', text: '', inline: 1, attachments: 5 });
  });

  it('reads base64 and 8-bit text in their charsets, and treats an inline image in multipart/related as inline', () => {
    const mime = readMime(crlf([
      'Content-Type: multipart/alternative; boundary="alt"', '',
      '--alt', 'Content-Type: text/plain; charset=windows-1252', 'Content-Transfer-Encoding: base64', '', Buffer.from([0x80, 0x20, 0x35]).toString('base64'),
      '--alt', 'Content-Type: multipart/related; boundary="rel"', '', '--rel', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', '<b>€ 5</b>',
      '--rel', 'Content-Type: image/png', 'Content-ID: <logo>', '', 'x', '--rel--', '--alt--', '',
    ]));
    expect(mime).toMatchObject({ text: '€ 5', html: '<b>€ 5</b>', inline: 1, attachments: 0 });
  });
});

describe('parseSmtpMessage', () => {
  it('takes recipients from the envelope, display names from the headers, extras as bcc', () => {
    const raw = crlf(['From: "Doe, Jane" <jane@acme.test>', 'To: Ann <a@example.com>, listed-only@example.com', 'Cc: =?UTF-8?Q?Bj=C3=B6rn?= <b@example.com>', 'Reply-To: help@acme.test', 'Message-ID: <abc.123@acme.test>', 'X-Sendbox-Outcome: bounced', '', 'hi', '']);
    const input = parseSmtpMessage(raw, { mailFrom: 'bounce@acme.test', rcptTo: ['A@example.com', 'b@example.com', 'secret@example.com'] }, PRINCIPAL, 'sandbox@sendbox.local');
    expect(input).toMatchObject({
      teamId: 'team_x',
      apiKeyId: 7,
      source: 'smtp',
      messageId: 'abc.123@acme.test',
      from: { name: 'Doe, Jane', address: 'jane@acme.test' },
      to: [{ name: 'Ann', address: 'a@example.com' }],
      cc: [{ name: 'Björn', address: 'b@example.com' }],
      bcc: [{ name: '', address: 'secret@example.com' }],
      replyTo: { name: '', address: 'help@acme.test' },
      subject: '',
      text: 'hi',
      raw,
    });
    expect(input.headers.get('x-sendbox-outcome')).toBe('bounced');
  });

  it('falls back to the envelope sender, then the default sender, and leaves a missing Message-ID to ingest', () => {
    const raw = crlf(['Subject: x', '', 'body']);
    expect(parseSmtpMessage(raw, ENVELOPE, PRINCIPAL, 'sandbox@sendbox.local')).toMatchObject({ from: { address: 'env@acme.test' }, messageId: undefined });
    expect(parseSmtpMessage(raw, { ...ENVELOPE, mailFrom: '' }, PRINCIPAL, 'sandbox@sendbox.local').from.address).toBe('sandbox@sendbox.local');
  });

  it('generates the text of an HTML-only message as the API does', () => {
    const raw = crlf(['Content-Type: text/html', '', '<h1>Reset</h1><p>Your code is <b>123456</b>.</p>']);
    expect(parseSmtpMessage(raw, ENVELOPE, PRINCIPAL, 'd@x.test').text).toBe('Reset\n\nYour code is 123456.');
  });
});

describe('agreement with mailparser', () => {
  const compose = async (mail: Mail.Options): Promise<Buffer> => (await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }).sendMail(mail)).message as Buffer;
  const MAILS: Mail.Options[] = [
    { from: 'Ann <a@x.test>', to: 'b@y.test', subject: 'Plain ✓', text: 'Hello\nworld' },
    { from: 'a@x.test', to: 'b@y.test', subject: 'Alt', text: 'T '.repeat(500), html: '<p>' + 'H é '.repeat(500) + '</p>' },
    {
      from: 'a@x.test', to: 'b@y.test', subject: 'Files', text: 'see files', html: '<img src="cid:c1">',
      attachments: [{ filename: 'a.bin', content: randomBytes(3000) }, { filename: 'i.png', content: randomBytes(100), cid: 'c1' }, { filename: 'n.txt', content: 'text file' }],
    },
    { from: '"Ünï Code" <u@x.test>', to: '"山田" <y@y.test>', subject: '日本語の件名', text: 'Grüße 👋', encoding: 'base64' } as Mail.Options,
  ];

  it.each(MAILS.map((mail, i) => ({ i, mail })))('reads message $i as mailparser does', async ({ mail }) => {
    const raw = await compose(mail);
    const ours = parseSmtpMessage(raw, { mailFrom: 'a@x.test', rcptTo: ['b@y.test', 'y@y.test'] }, PRINCIPAL, 'd@x.test');
    const theirs = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });
    expect(ours.subject).toBe(theirs.subject);
    expect(ours.text.trimEnd()).toBe((theirs.text ?? '').trimEnd());
    expect(ours.html).toBe(theirs.html || '');
    expect(ours.attachments + ours.inline).toBe(theirs.attachments.length);
    expect(ours.inline).toBe(theirs.attachments.filter((a) => a.related).length);
    expect(ours.from).toEqual({ name: theirs.from!.value[0].name, address: theirs.from!.value[0].address });
  });
});

describe('parseAddressList', () => {
  const word = fc.stringMatching(/^[A-Za-z0-9._+=?-]{1,12}$/);
  const address = fc.tuple(word, word, fc.constantFrom('test', 'example.com', 'x.co.uk')).map(([local, host, tld]) => `${local}@${host}.${tld}`);
  const name = fc.array(fc.stringMatching(/^[A-Za-zÀ-ÿ0-9._'!=?-]{1,10}$/), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
  const mailbox = fc.oneof(address, fc.tuple(name, address).map(([n, a]) => `${n} <${a}>`), fc.tuple(name, address).map(([n, a]) => `"${n}, Jr." <${a}>`));

  it('reads every list exactly as nodemailer\'s addressparser does', () => {
    fc.assert(
      fc.property(fc.array(mailbox, { minLength: 1, maxLength: 5 }), fc.constantFrom(', ', ',', ' ,  '), (list, separator) => {
        const value = list.join(separator);
        expect(parseAddressList(value)).toEqual(addressparser(value, { flatten: true }).map(({ name, address }) => ({ name, address })));
      }),
      { numRuns: 500 },
    );
  });
});
