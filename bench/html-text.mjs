// Cost of htmlToText (the generated text part of an HTML send) on the bench's 100 KB email,
// the repository's HTML fixtures, an entity-heavy newsletter and hostile markup.
//   npm run build:server && node bench/html-text.mjs [--module path/to/html-text.js] [--rounds 15]
// --module compares another build (e.g. the release's, compiled elsewhere); the output hashes
// it prints must then match this build's.
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { html } from './lib/payloads.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { module: { type: 'string' }, rounds: { type: 'string', default: '15' } } });
const modulePath = values.module ? resolve(values.module) : join(root, 'dist', 'shared', 'html-text.js');
const { htmlToText } = await import(pathToFileURL(modulePath).href);
const ROUNDS = Number(values.rounds);

/** A marketing newsletter: nested layout tables, inline styles, entities everywhere, conditional comments. */
function newsletter(bytes) {
  const td = 'style="font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:24px;color:#333333;padding:0 24px 16px"';
  let body = `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
<title>Acme Weekly &ndash; Issue 42</title><style type="text/css">body{margin:0;padding:0} .btn a{color:#ffffff !important}</style>
<!--[if mso]><style>table{border-collapse:collapse}</style><![endif]--></head>
<BODY style="margin:0;padding:0;background-color:#f4f4f4">
<CENTER><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f4f4f4"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff">\n`;
  for (let i = 0; body.length < bytes - 200; i++) {
    body += `  <tr>
    <td ${td}>
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>
        <td width="180" valign="top"><a href="https://news.acme.test/s/${i}?utm_source=newsletter&amp;utm_medium=email&amp;utm_campaign=w42"><img src="https://cdn.acme.test/s/${i}.jpg" width="180" alt="Story ${i}" style="display:block;border:0"></a></td>
        <td width="20">&nbsp;</td>
        <td valign="top" ${td}>
          <h2 style="margin:0 0 8px;font-size:20px">Story ${i}: what&#8217;s new &amp; improved</h2>
          <p style="margin:0 0 12px">We&#8217;ve shipped&nbsp;faster exports, &ldquo;smart&rdquo; filters &mdash; and a few fixes you&#8217;ll like.
          Prices from &euro;${i}&nbsp;/&nbsp;month&nbsp;&middot; no&nbsp;strings&nbsp;attached&hellip;</p>
          <span class="btn"><a href="https://news.acme.test/s/${i}?utm_source=newsletter&amp;utm_medium=email&amp;utm_content=cta" style="background:#2563eb;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none">Read&nbsp;more&nbsp;&rarr;</a></span>
        </td>
      </tr></table>
    </td>
  </tr>
  <tr><td height="16" style="font-size:0;line-height:0">&nbsp;</td></tr>\n`;
    if (i % 4 === 3) {
      body += `  <tr><td ${td}><ul style="margin:0;padding-left:20px"><li>Tip&nbsp;#${i}: press <b>&lt;Ctrl&gt;&nbsp;+&nbsp;K</b></li><li>&copy; &amp; &reg; notes</li></ul>
  <!--[if mso]><table><tr><td><![endif]--><div style="font-size:12px;color:#999999">Sent to jane&#64;example.com &bull; <a href="https://news.acme.test/u?e=jane%40example.com&amp;l=${i}">Unsubscribe</a></div><!--[if mso]></td></tr></table><![endif]--></td></tr>\n`;
    }
  }
  return body + '</table></td></tr></table></CENTER>\n</BODY></html>\n';
}

/** Every HTML fixture under server/src (real-world transactional mail and layout corpus). */
function fixtures() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.includes('fixtures') && name.endsWith('.html')) found.push(path);
    }
  };
  walk(join(root, 'server', 'src'));
  return found.sort().map((path) => ({ name: relative(root, path), html: readFileSync(path, 'utf8') }));
}

const HOSTILE = {
  'nested anchors ×20 000, unclosed comments': '<a href="https://x.test">'.repeat(20_000) + 'deep' + '</a>'.repeat(20_000) + '<!--'.repeat(10_000) + '<b'.repeat(10_000),
  '100 000 nested divs': '<div>'.repeat(100_000) + 'deep' + '</div>'.repeat(100_000),
  'unclosed comment, 1 MB': 'before <!--' + 'x'.repeat(1 << 20),
  'unclosed <style>, 1 MB of near closers': '<style>' + '</styl '.repeat(1 << 17),
  '1 MB href': `<a href="https://x.test/${'x'.repeat(1 << 20)}">label</a>`,
  '1 MB unquoted attribute soup': '<a ' + 'href= '.repeat(1 << 17) + '>x</a>',
  '100 000 stray <': 'a < b '.repeat(100_000),
  'entities split by tags': '&a<b>'.repeat(50_000) + 'mp;',
  '100 000 anchors, 1 MB': '<a href="https://x.test/a">https://x.test/a</a> '.repeat(25_000),
  // Known weak spot (since before issue 15): each of up to 64 nested links folds the whole label.
  '100 nested links around 10 KB of text': '<a href="https://x.test/">'.repeat(100) + 'x '.repeat(5_000) + '</a>'.repeat(100),
};

const sha = (text) => createHash('sha1').update(text).digest('hex').slice(0, 10);

let sink = 0;
/**
 * Median ms per call over `ROUNDS` timed batches of about 50 ms each, after a warm-up. The
 * text is read once (`indexOf`), as the caller does: a result returned as a concatenation
 * would be flattened there, and that copy belongs to its cost.
 */
function measure(inputs, options) {
  const run = () => { for (const input of inputs) sink += htmlToText(input, options).indexOf('\u0000'); };
  const warmUntil = performance.now() + 300;
  let calls = 0;
  while (performance.now() < warmUntil) { run(); calls++; }
  const batch = Math.max(1, Math.round(calls / 6));
  const samples = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let k = 0; k < batch; k++) run();
    samples.push((performance.now() - start) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

const cases = [
  { name: 'bench 100 KB HTML (payloads.mjs)', inputs: [html(100 * 1024)] },
  { name: 'newsletter 100 KB, entity-heavy', inputs: [newsletter(100 * 1024)] },
  { name: `all ${fixtures().length} fixtures, one pass`, inputs: fixtures().map((f) => f.html) },
  ...Object.entries(HOSTILE).map(([name, input]) => ({ name: `hostile: ${name}`, inputs: [input] })),
];

console.log(`htmlToText from ${relative(root, modulePath) || modulePath}, node ${process.version}`);
for (const options of [{}, { links: false, cellsAsLines: true }]) {
  console.log(`\noptions ${JSON.stringify(options)}`);
  for (const { name, inputs } of cases) {
    const hash = sha(inputs.map((input) => htmlToText(input, options)).join('\u0000'));
    const ms = measure(inputs, options);
    const size = inputs.reduce((sum, input) => sum + input.length, 0);
    console.log(`${name.padEnd(52)} ${(size / 1024).toFixed(0).padStart(6)} KB  ${ms.toFixed(4).padStart(9)} ms  out ${hash}`);
  }
}
if (sink === 42) console.log('');
