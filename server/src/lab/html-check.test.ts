import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featuresUsed, htmlCheck, overallScore } from './html-check.js';
import { startServer, type TestServer } from '../../test/harness.js';

const newsletter = readFileSync(new URL('./fixtures/newsletter.html', import.meta.url), 'utf8');
const verdicts = (slug: string, clients: string[]) => {
  const feature = htmlCheck(newsletter).features.find((f) => f.slug === slug);
  if (!feature) throw new Error(`${slug} was not found`);
  return Object.fromEntries(clients.map((c) => [c, feature.support[c].support]));
};

describe('html-check corpus (caniemail data)', () => {
  it('finds each feature the newsletter uses, with the line it is on', () => {
    const found = featuresUsed(newsletter);
    expect(found.get('html-style')?.[0].line).toBe(5);
    expect(found.get('css-at-font-face')?.[0]).toEqual({ line: 6, snippet: expect.stringContaining('@font-face') });
    expect(found.get('css-display-flex')?.[0]).toEqual({ line: 7, snippet: 'display: flex' });
    expect(found.get('css-border-radius')?.map((u) => u.line)).toEqual([8, 14]);
    expect(found.get('css-background-image')?.[0]).toEqual({ line: 13, snippet: expect.stringContaining('background-image: url(') });
    expect(found.get('html-background')?.[0].line).toBe(12);
    expect(found.get('image-jpg')).toBeUndefined(); // a CSS url(), not an <img>
    expect(found.has('html-doctype')).toBe(true);
  });

  it.each([
    ['css-display-flex', { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'yes', 'gmail.android': 'partial', 'outlook.windows': 'no' }],
    ['html-style', { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'partial', 'outlook.windows': 'partial', 'outlook.outlook-com': 'yes' }],
    ['css-at-font-face', { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'no', 'outlook.outlook-com': 'no', 'yahoo.desktop-webmail': 'no' }],
    ['css-border-radius', { 'apple-mail.ios': 'yes', 'outlook.windows': 'no', 'yahoo.desktop-webmail': 'partial' }],
    ['css-background-image', { 'gmail.desktop-webmail': 'yes', 'outlook.windows': 'no', 'yahoo.desktop-webmail': 'partial' }],
  ])('%s has the per-client verdicts caniemail gives', (slug, expected) => {
    expect(verdicts(slug, Object.keys(expected))).toEqual(expected);
  });

  it('carries caniemail\'s notes for a partial or missing support', () => {
    const feature = htmlCheck(newsletter).features.find((f) => f.slug === 'css-display-flex')!;
    expect(feature.support['gmail.android'].notes.length).toBeGreaterThan(0);
  });

  it('lists the worst features first and scores the email below a plain one', () => {
    const result = htmlCheck(newsletter);
    const scores = result.features.map((f) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(result.features[0].score).toBeLessThan(result.features[result.features.length - 1].score);
    const plain = htmlCheck('<p>Hello <b>there</b></p>');
    expect(plain.score).toBeGreaterThan(result.score);
    expect(htmlCheck('').score).toBe(100);
  });

  it('weights the score by share of opens: only Outlook for Windows lacking flexbox costs its 4 %', () => {
    const result = htmlCheck('<div style="display:flex">x</div>');
    const flex = result.features.filter((f) => f.slug === 'css-display-flex');
    const outlook = result.clients.filter((c) => c.id === 'outlook.windows');
    const apple = result.clients.filter((c) => c.id === 'apple-mail.ios');
    expect(overallScore(flex, outlook)).toBe(0);
    expect(overallScore(flex, apple)).toBe(100);
    expect(outlook[0].weight).toBe(4);
  });

  it('says which caniemail data it used', () => {
    expect(htmlCheck(newsletter).data).toEqual({ source: 'caniemail', package_version: '2.0.2', updated: expect.stringMatching(/^2026-/), features: 307 });
  });

  it('gets through hostile markup without failing', () => {
    const hostile = '<div style="'.repeat(2000) + '<style>'.repeat(100) + '{{{{' + '<!--'.repeat(1000);
    expect(() => htmlCheck(hostile)).not.toThrow();
  });
});

/**
 * A corpus of small emails, one per well-known compatibility trap, with the verdicts
 * caniemail gives the clients people ask about (caniemail.com, data bundled with sendbox).
 */
const corpus = (name: string) => readFileSync(new URL(`./fixtures/corpus/${name}`, import.meta.url), 'utf8');
const CLIENTS = ['apple-mail.ios', 'gmail.desktop-webmail', 'gmail.android', 'outlook.windows', 'outlook.outlook-com', 'yahoo.desktop-webmail'];

describe('html-check corpus: one email per known trap', () => {
  it.each([
    ['flexbox-layout.html', 'css-display-flex', 4, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'yes', 'gmail.android': 'partial', 'outlook.windows': 'no', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'yes' }],
    ['flexbox-layout.html', 'css-justify-content', 4, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'no', 'gmail.android': 'no', 'outlook.windows': 'no', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'no' }],
    ['head-style.html', 'html-style', 4, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'partial', 'gmail.android': 'partial', 'outlook.windows': 'partial', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'yes' }],
    ['head-style.html', 'css-at-media', 6, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'partial', 'gmail.android': 'partial', 'outlook.windows': 'no', 'outlook.outlook-com': 'partial', 'yahoo.desktop-webmail': 'partial' }],
    ['background-image.html', 'css-background-image', 5, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'yes', 'gmail.android': 'yes', 'outlook.windows': 'no', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'partial' }],
    ['background-image.html', 'css-background-size', 5, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'yes', 'gmail.android': 'partial', 'outlook.windows': 'no', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'yes' }],
    ['web-font.html', 'css-at-font-face', 5, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'no', 'gmail.android': 'no', 'outlook.windows': 'partial', 'outlook.outlook-com': 'no', 'yahoo.desktop-webmail': 'no' }],
    ['rounded-button.html', 'css-border-radius', 5, { 'apple-mail.ios': 'yes', 'gmail.desktop-webmail': 'yes', 'gmail.android': 'yes', 'outlook.windows': 'no', 'outlook.outlook-com': 'yes', 'yahoo.desktop-webmail': 'partial' }],
  ])('%s uses %s on line %i, with these verdicts', (file, slug, line, expected) => {
    const feature = htmlCheck(corpus(file)).features.find((f) => f.slug === slug);
    expect(feature, `${slug} in ${file}`).toBeDefined();
    expect(feature!.uses.map((u) => u.line)).toContain(line);
    expect(Object.fromEntries(CLIENTS.map((c) => [c, feature!.support[c].support]))).toEqual(expected);
  });

  it('scores each trap below a plain email, and the ones Gmail cannot render lowest', () => {
    const plain = htmlCheck('<p>Your order has shipped.</p>').score;
    const scores = Object.fromEntries(['flexbox-layout.html', 'head-style.html', 'background-image.html', 'web-font.html', 'rounded-button.html'].map((f) => [f, htmlCheck(corpus(f)).score]));
    for (const score of Object.values(scores)) expect(score).toBeLessThan(plain);
    // Web fonts and justify-content are unsupported in Gmail (a fifth of opens): the two lowest.
    const lowest = Object.entries(scores).sort((a, b) => a[1] - b[1]).slice(0, 2).map(([f]) => f).sort();
    expect(lowest).toEqual(['flexbox-layout.html', 'web-font.html']);
  });
});

describe('GET /sandbox/emails/{id}/html-check', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('checks the HTML part of a sent email', async () => {
    const sent = await server.api('/v1/send', { method: 'POST', key: 'html-check-key', json: { to: 'jane@example.com', subject: 'News', body: newsletter } });
    const id = sent.body.data[0].email_id;
    const res = await server.api(`/sandbox/emails/${id}/html-check`);
    expect(res.status).toBe(200);
    expect(res.body.data.features.map((f: { slug: string }) => f.slug)).toEqual(expect.arrayContaining(['css-display-flex', 'css-at-font-face', 'css-border-radius', 'css-background-image', 'html-style']));
    expect(res.body.data.clients).toContainEqual({ id: 'gmail.android', family: 'gmail', name: 'Gmail (Android)', platform: 'mobile', weight: 5 });
  });

  it('is described in the OpenAPI document, with the other lab routes', async () => {
    const doc = (await server.api('/openapi.json')).body;
    expect(Object.keys(doc.paths['/sandbox/emails/{id}/html-check'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/sandbox/emails/{id}/spam'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/sandbox/emails/{id}/link-check'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/sandbox/emails/{id}/auth'])).toEqual(['get']);
  });

  it('answers 404 for an unknown email and 405 for another method', async () => {
    expect((await server.api('/sandbox/emails/nope/html-check')).status).toBe(404);
    expect((await server.api('/sandbox/emails/nope/html-check', { method: 'POST', json: {} })).status).toBe(405);
  });
});
