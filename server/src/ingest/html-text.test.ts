import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-text.js';

describe('htmlToText', () => {
  it('renders a transactional email as readable text', () => {
    const html = `<!doctype html><html><head><title>Reset</title><style>p { color: red }</style></head>
      <body><h1>Reset your password</h1>
      <p>Hi Jane,<br>someone asked to reset your password.</p>
      <p><a href="https://acme.test/reset?t=abc&amp;u=1">Reset password</a></p>
      <ul><li>Expires in 1 hour</li><li>Ignore it if it was not you</li></ul>
      <table><tr><td>Code</td><td><b>482913</b></td></tr></table>
      <!-- tracking --><img src="https://t.acme.test/p.gif" alt="">
      <p>Questions? <a href="mailto:help@acme.test">help@acme.test</a> &mdash; &copy; Acme&nbsp;Inc.</p>
      <script>alert(1)</script></body></html>`;
    expect(htmlToText(html)).toBe([
      'Reset your password',
      '',
      'Hi Jane,',
      'someone asked to reset your password.',
      '',
      'Reset password [https://acme.test/reset?t=abc&u=1]',
      '',
      '- Expires in 1 hour',
      '- Ignore it if it was not you',
      '',
      'Code 482913',
      '',
      'Questions? help@acme.test — © Acme Inc.',
    ].join('\n'));
  });

  it('keeps a link whose text is its address once, and shows bare links', () => {
    expect(htmlToText('<a href="https://x.test/a">https://x.test/a</a>')).toBe('https://x.test/a');
    expect(htmlToText('<a href="https://x.test/b"><img src="logo.png"></a>')).toBe('https://x.test/b');
    expect(htmlToText('<a href="javascript:alert(1)">click</a>')).toBe('click');
  });

  it('treats stray angle brackets and unclosed markup as text or skips it, without failing', () => {
    expect(htmlToText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
    expect(htmlToText('before <!-- never closed')).toBe('before');
    expect(htmlToText('<style>never closed')).toBe('');
    expect(htmlToText('<p>a &unknown; &#x41;&#66;</p>')).toBe('a &unknown; AB');
  });

  // Quadratic behaviour here would run for minutes and hit the test timeout.
  it('gets through hostile nesting and unclosed markup', () => {
    const hostile = '<a href="https://x.test">'.repeat(20_000) + 'deep' + '</a>'.repeat(20_000) + '<!--'.repeat(10_000) + '<b'.repeat(10_000);
    expect(htmlToText(hostile)).toContain('deep');
  });
});

describe('htmlToText with characters whose case folding changes length', () => {
  it('keeps tags and text aligned', () => {
    expect(htmlToText('<p>İstanbul İİİ</p><STYLE>x</STYLE><A HREF="https://x.test">Ünïcode</A>')).toBe('İstanbul İİİ\n\nÜnïcode [https://x.test]');
  });
});

describe('entities', () => {
  it('decodes every HTML5 named entity, not only a common few', () => {
    expect(htmlToText('<p>Gr&uuml;&szlig;e aus K&ouml;ln &rarr; caf&eacute;&hellip; &Bfr; &frac12; &ne; &lambda;</p>')).toBe('Grüße aus Köln → café… 𝔅 ½ ≠ λ');
  });

  it('keeps a legacy entity name inside a link literal, as a browser does in attributes', () => {
    expect(htmlToText('<a href="https://x.test/?a=1&copy=2&amp;b=3">Caf&eacute;</a>')).toBe('Café [https://x.test/?a=1&copy=2&b=3]');
  });
});
