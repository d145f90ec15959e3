import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractLinks } from './links.js';
import { extractCodes } from './codes.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const RESET_URL = 'https://app.acme.test/account/reset-password?token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&email=jane.doe%40example.com';

describe('links', () => {
  it('finds the reset link in a realistic HTML password-reset email, entities decoded, with its button text', () => {
    const links = extractLinks(fixture('reset.html'), '');
    expect(links).toEqual([
      { href: 'https://acme.test/?utm_source=email&utm_medium=transactional', text: 'Acme' },
      { href: RESET_URL, text: 'Reset password' },
      { href: 'https://help.acme.test/articles/4412-resetting-your-password', text: 'our help center' },
      { href: 'https://acme.test/privacy', text: 'Privacy' },
      { href: 'https://acme.test/email-preferences?u=a8F3kQ', text: 'Email preferences' },
    ]);
  });

  it('finds the same link in the text version, without trailing punctuation or brackets', () => {
    const links = extractLinks('', fixture('reset.txt'));
    expect(links.map((l) => l.href)).toEqual([RESET_URL, 'https://help.acme.test/articles/4412-resetting-your-password', 'https://acme.test/privacy']);
    expect(links[0].text).toBe(RESET_URL);
  });

  it('merges both parts: HTML links first, text-only links after, no duplicates', () => {
    const links = extractLinks('<a href="https://x.test/a">A</a>', 'See https://x.test/a and https://x.test/b.');
    expect(links).toEqual([{ href: 'https://x.test/a', text: 'A' }, { href: 'https://x.test/b', text: 'https://x.test/b' }]);
  });

  it('ignores mailto, anchors and javascript links', () => {
    expect(extractLinks('<a href="mailto:a@b.test">mail</a><a href="#top">top</a><a href="javascript:void(0)">x</a>', '')).toEqual([]);
  });
});

describe('codes', () => {
  it('finds no code in a password-reset email full of numbers (dates, prices, phones, years, zip, ids)', () => {
    expect(extractCodes(fixture('reset.txt'), fixture('reset.html'))).toEqual([]);
  });

  it('finds the OTP of a realistic HTML email shown as digit groups in its own cell', () => {
    expect(extractCodes('', fixture('otp.html'))).toEqual([{ value: '482913' }]);
  });

  it('finds the OTP of the text version', () => {
    expect(extractCodes(fixture('otp.txt'), '')).toEqual([{ value: '482913' }]);
  });

  it('finds the OTP once when both parts carry it', () => {
    expect(extractCodes(fixture('otp.txt'), fixture('otp.html'))).toEqual([{ value: '482913' }]);
  });

  it.each([
    ['Your verification code is 4821.', '4821'],
    ['Your code: K7Q2ZP', 'K7Q2ZP'],
    ['Enter this code to continue:\n\nAB12-CD34\n', 'AB12-CD34'],
    ['G-482913 is your Google verification code.', '482913'],
    ['Your one-time passcode is 2024', '2024'],
    ['Your Acme login code is 90210011', '90210011'],
    ['Use 739204 to verify your email address.', '739204'],
  ])('finds the code in %j', (text, value) => {
    expect(extractCodes(text, '')).toEqual([{ value }]);
  });

  it.each([
    'Your order #48213 has shipped.',
    'Verification completed on 2025-03-14 at 10:30.',
    'Call our security team at 415-555-0199.',
    'Your sign-in from Windows 11 in 2025 was recorded.',
    'Confirm your subscription of $1299 per year.',
    'Your verification expires in 1440 minutes.',
    'Invoice number 20250314 confirmed.',
    'Token rotation id 9f86d081884c7d65.',
  ])('finds no code in %j', (text) => {
    expect(extractCodes(text, '')).toEqual([]);
  });
});

describe('codes in other languages', () => {
  it.each([
    ['Ihr Bestätigungscode lautet 482913', '482913'],
    ['Votre code : 482913', '482913'],
    ['Tu código es 482913', '482913'],
    ['Tu código de verificación es 482913.', '482913'],
    ['Код подтверждения: 482913', '482913'],
    ['验证码：482913', '482913'],
    ['認証コード 482913', '482913'],
    ['인증번호 [482913]', '482913'],
    ['Uw verificatiecode is 482913', '482913'],
    ['Il tuo codice di verifica è 482913', '482913'],
    ['Twój kod weryfikacyjny to 482913', '482913'],
    ['Ihr Bestätigungscode:\n\n482913\n', '482913'],
    ['您的验证码为 482913，5分钟内有效。', '482913'],
  ])('finds the code in %j', (text, value) => {
    expect(extractCodes(text, '')).toEqual([{ value }]);
  });

  it.each([
    'Ihre Bestellnummer lautet 482913.',
    'Votre commande n° 482913 a été expédiée.',
    'Su pedido 482913 ha sido enviado. Total: 59,90 €',
    'Номер заказа: 482913',
    '订单号：482913',
    'ご注文番号 482913',
    'Rufen Sie uns an: +49 30 1234567',
    '© 2025 Beispiel GmbH, Musterstraße 12, 10115 Berlin',
    'Preis: 1.299,00 €',
    'The code will expire in 2025.',
  ])('finds no code in %j', (text) => {
    expect(extractCodes(text, '')).toEqual([]);
  });

  it('decodes every HTML5 named entity in links and text', () => {
    const html = '<p>Gr&uuml;&szlig;e &rarr; caf&eacute;&hellip; &Bfr;</p><a href="https://x.test/?a=1&amp;b=2&copy=3">Caf&eacute; &rarr;</a>';
    expect(extractLinks(html, '')).toEqual([{ href: 'https://x.test/?a=1&b=2&copy=3', text: 'Café →' }]);
  });
});
