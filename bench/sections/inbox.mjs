// The inbox in Chromium at a large store (issue 15): time from opening `/` to the first
// page of rows painted, and from the last keystroke of a search to the list showing its
// result. Measured inside the page (performance.now(), from navigation start): a
// MutationObserver sees the expected first row appear, and the time is taken after the
// frame that shows it (requestAnimationFrame, then a task: the paint has happened).
// Chromium runs on the load core, the server on its own.
import { chromium } from 'playwright-core';
import { json } from '../lib/http-load.mjs';

const CHROMIUM = process.env.SENDBOX_BENCH_CHROMIUM ?? '/usr/bin/chromium';

// Runs in the page before its scripts: records when the row with `expectFirst` is the
// first of the list, and the time of the last input event in the search field.
function probe(newestId) {
  const state = { expectFirst: newestId, painted: null, lastInput: null };
  window.__probe = state;
  const check = () => {
    if (state.painted !== null || state.expectFirst === null) return;
    const first = document.querySelector('a.email-row[data-email-id]');
    if (first?.getAttribute('data-email-id') !== state.expectFirst) return;
    state.painted = -1;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { state.painted = performance.now(); };
      channel.port2.postMessage(null);
    });
  };
  state.check = check;
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-email-id'] });
  document.addEventListener('input', (event) => {
    if (event.target?.id === 'inbox-search') state.lastInput = performance.now();
  }, true);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), max: sorted.at(-1) };
};

/**
 * `samples` fresh page loads of `url`/; after each, one of `terms` entered into the search
 * field. Resolves with the open and search timings.
 */
export async function measureInbox({ url, samples, terms, log }) {
  const newestId = (await json(`${url}/sandbox/emails?limit=1`)).data.data[0]?.id;
  if (!newestId) throw new Error('the inbox bench needs stored emails');
  const expected = {};
  for (const term of terms) {
    const hit = (await json(`${url}/sandbox/emails?limit=1&q=${encodeURIComponent(term)}`)).data;
    if (!hit.data[0] || hit.data[0].id === newestId) throw new Error(`search "${term}" must match, and not the newest email`);
    expected[term] = { id: hit.data[0].id, total: hit.pagination.total_records };
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const open = [];
  const search = Object.fromEntries(terms.map((t) => [t, []]));
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(probe, newestId);
    const page = await context.newPage();
    // One unmeasured load: the browser's cache holds the inbox's files from then on, as for anyone who opened it before.
    await page.goto(`${url}/`);
    await page.locator('a.email-row[data-email-id]').first().waitFor();
    for (let i = 0; i < samples; i++) {
      await page.goto('about:blank');
      await page.goto(`${url}/`, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.__probe.painted > 0, null, { timeout: 30_000 });
      open.push(await page.evaluate(() => window.__probe.painted));

      const term = terms[i % terms.length];
      await page.evaluate((id) => { Object.assign(window.__probe, { expectFirst: id, painted: null, lastInput: null }); window.__probe.check(); }, expected[term].id);
      // The whole term as one input event (a paste, or the last key of a word): typed key by
      // key, a prefix often shows the same first rows already, and the last key changes nothing
      // to see. With the inbox's short debounce each key is a query of its own, so this is
      // also the time from a key to the list it asks for.
      await page.locator('#inbox-search').click();
      await page.keyboard.insertText(term);
      await page.waitForFunction(() => window.__probe.painted > 0, null, { timeout: 30_000 });
      const { painted, lastInput } = await page.evaluate(() => ({ painted: window.__probe.painted, lastInput: window.__probe.lastInput }));
      search[term].push(painted - lastInput);
    }
  } finally {
    await browser.close();
  }
  const all = Object.values(search).flat();
  const result = { open: stats(open), search: stats(all), perTerm: Object.fromEntries(terms.map((t) => [t, { ...stats(search[t]), matches: expected[t].total }])) };
  log(`  inbox: open / → first page painted p50 ${result.open.p50.toFixed(0)} ms (p90 ${result.open.p90.toFixed(0)}); entering a search → list updated p50 ${result.search.p50.toFixed(0)} ms (p90 ${result.search.p90.toFixed(0)})`);
  return result;
}
