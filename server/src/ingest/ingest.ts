import type { ParsedAddress } from '../../../shared/address.js';
import { formatAddress } from '../../../shared/address.js';
import type { RecipientType } from '../../../shared/email.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { BodySpans, EmailStore, NewEmail, NewRecipient } from '../storage/emails.js';
import type { IdCodec } from '../storage/ids.js';
import type { Lifecycle } from '../simulation/lifecycle.js';
import { decideOutcome, type OutcomeContext, type OutcomeSource } from '../simulation/outcomes.js';
import { WriteBatcher } from './write-batcher.js';
import { presentEmail } from '../emails/present.js';
import { MAX_TAGS_PER_EMAIL, parseTagsHeader, uniqueTags } from '../../../shared/tags.js';
import { decodeEntities } from '../../../shared/html-text.js';

/**
 * The one ingest pipeline: the HTTP send and the SMTP listener both end here.
 * It assigns the id, decides each recipient's outcome, stores everything in one
 * batched transaction, then announces the email and starts its lifecycle.
 */
export interface IngestInput {
  teamId: string;
  apiKeyId: number;
  source: 'api' | 'smtp';
  /** Keep an existing Message-ID (SMTP); otherwise `<id>@<message host>`. */
  messageId?: string;
  from: ParsedAddress;
  to: ParsedAddress[];
  cc: ParsedAddress[];
  bcc: ParsedAddress[];
  replyTo: ParsedAddress | null;
  subject: string;
  text: string;
  html: string;
  /** Lower-cased header names → values (for X-Sendbox-Outcome and rules). */
  headers: Map<string, string>;
  attachments: number;
  inline: number;
  /**
   * The raw message, or a function composing it once the id is known (with where its
   * 7bit text and HTML parts lie, so they are stored once, inside the message, and its whole
   * size: a generated text part is not stored at all, see storage/body-spans.ts).
   */
  raw: Buffer | ((ids: { id: string; messageId: string; createdAt: number }) => { raw: Buffer; spans: BodySpans; size: number });
  flags?: Record<string, unknown>;
}

export interface IngestResult {
  internalId: number;
  id: string;
  messageId: string;
}

export interface IngestOptions {
  store: EmailStore;
  ids: IdCodec;
  clock: Clock;
  lifecycle: Lifecycle;
  /** Told of each committed batch and of retention's deletions: the email service publishes them. */
  announce: { created(batch: NewEmail[]): void; pruned(rows: { id: number; team_id: string }[]): void };
  logger: Logger;
  messageHost: string;
  delayMs: number;
  maxEmails: number;
  /** Outcome sources in precedence order (rules first, defaults last). */
  outcomeSources: () => OutcomeSource[];
  /** Told of every stored batch after its commit (the metrics' received counter). */
  onStored?: (batch: readonly NewEmail[]) => void;
  /** Tags added by tagging rules (beside the message's own X-Tags header). */
  ruleTags?: (context: OutcomeContext & { recipients: string[] }) => string[];
}

// A quarter second of sends is indexed together; a catch-up never holds a query long.
const INDEX_DELAY_MS = 250;
const INDEX_CHUNK = 2000;

export class Ingest {
  private nextId: number;
  private count: number;
  private lastCreatedAt: number;
  private readonly batcher: WriteBatcher<NewEmail>;
  private indexTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: IngestOptions) {
    this.nextId = options.store.maxId() + 1;
    this.count = options.store.count();
    this.lastCreatedAt = options.store.maxCreatedAt();
    this.batcher = new WriteBatcher((batch) => options.store.insertMany(batch), (batch) => this.afterWrite(batch));
  }

  /**
   * Not async: a suspended frame would keep `input` (its text, HTML and composing closure)
   * alive until the commit; what is stored is in `email`, and only the result is kept.
   */
  ingest(input: IngestInput): Promise<IngestResult> {
    try {
      const { email, result } = this.prepare(input);
      return this.batcher.add(email).then(() => result);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private prepare(input: IngestInput): { email: NewEmail; result: IngestResult } {
    const { clock, ids, messageHost } = this.options;
    const internalId = this.nextId++;
    const id = ids.encode(internalId);
    const messageId = input.messageId ?? `${id}@${messageHost}`;
    // Never earlier than the previous email, even if the system clock steps back:
    // list order and date filters rely on created_at growing with the id.
    const createdAt = Math.max(clock.now(), this.lastCreatedAt);
    this.lastCreatedAt = createdAt;
    const { raw, spans, size } = typeof input.raw === 'function' ? input.raw({ id, messageId, createdAt }) : { raw: input.raw, spans: undefined, size: input.raw.length };
    const recipients = this.planRecipients(input, createdAt);
    const tags = this.tagsOf(input, recipients);
    const email: NewEmail = {
      id: internalId,
      teamId: input.teamId,
      apiKeyId: input.apiKeyId,
      source: input.source,
      messageId,
      fromAddress: input.from.address,
      fromName: input.from.name,
      toAddresses: input.to.map((a) => a.address),
      subject: input.subject,
      size,
      inline: input.inline,
      attachments: input.attachments,
      snippet: input.text ? snippet(input.text) : snippet(input.html, true),
      createdAt,
      metadata: {
        from: formatAddress(input.from),
        to: input.to.map(formatAddress),
        cc: input.cc.length ? input.cc.map(formatAddress) : null,
        bcc: input.bcc.length ? input.bcc.map(formatAddress) : null,
        reply_to: input.replyTo ? formatAddress(input.replyTo) : input.from.address,
      },
      creditsUsed: recipients.length,
      flags: input.flags ?? {},
      // Stored once, inside the raw message, when a span says where (storage/emails.ts).
      text: spans?.text ? '' : input.text,
      html: spans?.html ? '' : input.html,
      raw,
      spans,
      recipients,
      tags,
    };
    return { email, result: { internalId, id, messageId } };
  }

  /** Writes whatever is pending now; used at shutdown (search rows are caught up at the next start). */
  flush(): void {
    this.batcher.flush();
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
  }

  /**
   * Search rows are written in the background, a few hundred at a time (EmailStore.indexSearch):
   * a query that needs them catches up itself, so this only keeps that catch-up short.
   */
  private indexSearchSoon(): void {
    if (this.indexTimer) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = null;
      try {
        if (!this.options.store.indexSearch(INDEX_CHUNK)) this.indexSearchSoon();
      } catch (error) {
        this.options.logger.error('search indexing failed', error);
      }
    }, INDEX_DELAY_MS);
    this.indexTimer.unref();
  }

  /** X-Tags (Mailpit's convention: a comma list) plus what tagging rules add. */
  private tagsOf(input: IngestInput, recipients: NewRecipient[]): string[] {
    const own = parseTagsHeader(input.headers.get('x-tags'));
    const ruled = this.options.ruleTags?.({ teamId: input.teamId, from: input.from.address, subject: input.subject, headers: input.headers, recipients: recipients.map((r) => r.address) }) ?? [];
    return ruled.length ? uniqueTags([...own, ...ruled]).slice(0, MAX_TAGS_PER_EMAIL) : own;
  }

  /** One entry per distinct address (compared case-insensitively), to before cc before bcc. */
  private planRecipients(input: IngestInput, createdAt: number): NewRecipient[] {
    const context: OutcomeContext = { teamId: input.teamId, from: input.from.address, subject: input.subject, headers: input.headers };
    const sources = this.options.outcomeSources();
    const seen = new Set<string>();
    const out: NewRecipient[] = [];
    const add = (list: ParsedAddress[], type: RecipientType) => {
      for (const { address } of list) {
        const key = address.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        const decision = decideOutcome(sources, address, context);
        out.push({
          address,
          type,
          outcome: decision.outcome,
          code: decision.code ?? null,
          response: decision.response ?? null,
          delayMs: decision.delayMs ?? 0,
          decidedBy: decision.decidedBy,
          dueAt: createdAt + this.options.delayMs,
        });
      }
    };
    add(input.to, 'to');
    add(input.cc, 'cc');
    add(input.bcc, 'bcc');
    return out;
  }

  private afterWrite(batch: NewEmail[]): void {
    const { store, announce, lifecycle, logger, maxEmails } = this.options;
    this.count += batch.length;
    this.options.onStored?.(batch);
    let earliest = Infinity;
    announce.created(batch);
    for (const email of batch) {
      for (const r of email.recipients) earliest = Math.min(earliest, r.dueAt);
    }
    if (earliest < Infinity) lifecycle.schedule(earliest);
    this.indexSearchSoon();
    if (this.count > maxEmails) {
      try {
        const pruned = store.pruneTo(maxEmails);
        this.count = store.count();
        if (pruned.length) logger.debug(`retention pruned ${pruned.length} emails`);
        announce.pruned(pruned);
      } catch (error) {
        logger.error('retention prune failed', error);
      }
    }
  }

  /** Storage changed behind ingest's back (reset, delete): recount for retention. */
  recount(): void {
    this.count = this.options.store.count();
  }
}

/** The first ~100 characters of the text content, whitespace folded. */
export function snippet(content: string, isHtml = false): string {
  // Only the start matters: fold a small window, and a wider one only if that was too short.
  let folded = '';
  for (const window of [400, 4000]) {
    const head = content.slice(0, window);
    folded = (isHtml ? decodeEntities(head.replace(/<[^>]*>/g, ' ')) : head).replace(/\s+/g, ' ').trim();
    if (folded.length > 100 || content.length <= window) break;
  }
  if (folded.length <= 100) return folded;
  const cut = folded.slice(0, 100);
  const space = cut.lastIndexOf(' ');
  return (space > 60 ? cut.slice(0, space) : cut) + '…';
}
