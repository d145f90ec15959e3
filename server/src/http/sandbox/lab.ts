import { Router } from 'express';
import type { HtmlCheckResult, SpamResult } from '../../../../shared/lab.js';
import { linkCheckRequestSchema } from '../../../../shared/lab.js';
import type { Services } from '../../context.js';
import type { EmailRow } from '../../storage/emails.js';
import { ApiError, methodNotAllowed, validationError } from '../errors.js';
import { emailParam, jsonBody } from './query.js';
import { iso } from '../../clock.js';
import { htmlCheck } from '../../lab/html-check.js';
import { FilterError, MAX_SCAN_BYTES, NOT_CONFIGURED, parseHostPort, rspamd, spamassassin, type SpamBackend } from '../../lab/spam.js';
import { checkLinks, LINK_CHECK_DEFAULTS, linkTargets } from '../../lab/link-check.js';
import { authenticateEmail, receivedMessage } from '../../lab/auth.js';
import { htmlText } from '../../emails/html.js';

/**
 * The mail-quality lab under /sandbox/emails/{id} (CONTRACT §9): html-check, spam,
 * link-check, auth. Same envelope, guards and 404s as the rest of /sandbox.
 */

// A first spamd scan compiles its rules and can take seconds on a busy machine.
const SPAM_TIMEOUT_MS = 30_000;
const CACHE_SIZE = 256;

/** A small LRU keyed by email: results of a stored (immutable) message stay valid. */
class ResultCache<T> {
  private readonly map = new Map<string, Promise<T>>();
  get(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const promise = compute();
    this.map.set(key, promise);
    // A failure (filter down) is not remembered: the next call asks again.
    promise.catch(() => this.map.delete(key));
    if (this.map.size > CACHE_SIZE) this.map.delete(this.map.keys().next().value!);
    return promise;
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
}

function spamBackend(config: Services['config']): SpamBackend | null {
  if (config.spamassassin) {
    const target = parseHostPort(config.spamassassin, 783);
    if (target) return spamassassin(target.host, target.port);
  }
  return config.rspamd ? rspamd(config.rspamd) : null;
}

export function labRouter(services: Services): Router {
  const router = Router();
  const { emails, ids, config, domains } = services;
  const backend = spamBackend(config);
  const htmlChecks = new ResultCache<HtmlCheckResult>();
  const spamChecks = new ResultCache<SpamResult & { configured: true }>();
  // Ids can be reused after a reset; with the creation time a key names one stored message.
  const cacheKey = (row: EmailRow) => `${row.id}:${row.created_at}:${row.message_id}:${row.size}`;
  const stored = (row: EmailRow) => emails.body(row.id) ?? { text: '', html: '', raw: Buffer.alloc(0) };
  // One link check at a time per sendbox: concurrent calls wait their turn, so however many
  // arrive, sendbox never has more than LINK_CHECK_DEFAULTS.concurrency fetches out.
  let linkChecks: Promise<unknown> = Promise.resolve();

  router.get('/:id/html-check', async (req, res) => {
    const row = emailParam(services, req);
    // The first MiB, like the view's scans: Gmail clips at 102 KB anyway, and it bounds the work.
    const data = await htmlChecks.get(cacheKey(row), async () => htmlCheck(stored(row).html.slice(0, 1024 * 1024)));
    res.json({ status: 200, message: data.features.length ? `${data.features.length} HTML and CSS features checked` : 'No HTML features to check', data });
  });
  router.all('/:id/html-check', methodNotAllowed(['GET']));

  router.get('/:id/spam', async (req, res) => {
    const row = emailParam(services, req);
    if (!backend) {
      res.json({ status: 200, message: 'No spam filter is configured', data: NOT_CONFIGURED });
      return;
    }
    const key = `${cacheKey(row)}:${backend.server}`;
    const cached = spamChecks.has(key);
    const { raw } = await receivedMessage(services, row, stored(row).raw);
    if (raw.length > MAX_SCAN_BYTES) throw new ApiError(422, `The message is ${Math.round(raw.length / 1024)} KB: spam filters are asked about messages up to ${MAX_SCAN_BYTES / 1024} KB (spamc's own limit)`);
    let data: Extract<SpamResult, { configured: true }>;
    try {
      data = await spamChecks.get(key, async () => ({ ...(await backend.check(raw, AbortSignal.timeout(SPAM_TIMEOUT_MS))), checked_at: iso(services.clock.now()), cached: false }));
    } catch (error) {
      if (error instanceof FilterError) throw new ApiError(502, error.message);
      throw error;
    }
    res.json({ status: 200, message: `${data.verdict === 'spam' ? 'Spam' : 'Not spam'}: ${data.score} of ${data.threshold}`, data: { ...data, cached } });
  });
  router.all('/:id/spam', methodNotAllowed(['GET']));

  router.post('/:id/link-check', async (req, res) => {
    const row = emailParam(services, req);
    const parsed = linkCheckRequestSchema.safeParse(jsonBody(req, true));
    if (!parsed.success) throw validationError(parsed.error);
    // Opt-in, like every way sendbox reaches out (release, webhooks, real DNS): an email's links may point anywhere.
    if (!config.linkCheck) throw new ApiError(403, 'Link checking is off: start sendbox with --link-check (SENDBOX_LINK_CHECK=true) to let it fetch the links of an email');
    const body = stored(row);
    const targets = linkTargets(body.html.slice(0, 1024 * 1024), body.text.slice(0, 1024 * 1024));
    const run = linkChecks.then(() => checkLinks(targets, { ...LINK_CHECK_DEFAULTS, maxLinks: parsed.data.max_links ?? LINK_CHECK_DEFAULTS.maxLinks, timeoutMs: config.linkCheckTimeoutMs }));
    linkChecks = run.catch(() => {});
    const data = await run;
    res.json({ status: 200, message: `${data.ok} of ${data.checked} links answered OK`, data });
  });
  router.all('/:id/link-check', methodNotAllowed(['POST']));

  router.get('/:id/auth', async (req, res) => {
    const row = emailParam(services, req);
    const body = stored(row);
    // The reader's view of the body (for the visible-unsubscribe check): the text part, else the HTML's text.
    const visible = (body.text || htmlText(body.html)).slice(0, 1024 * 1024);
    const data = await authenticateEmail({ domains, config }, row, body.raw, ids.encode(row.id), visible);
    res.json({ status: 200, message: data.summary, data });
  });
  router.all('/:id/auth', methodNotAllowed(['GET']));
  return router;
}
