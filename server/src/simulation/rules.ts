import type { HttpAction, OutcomeAction, Rule, RuleAction, RuleMatch, SmtpAction } from '../../../shared/sandbox.js';
import type { OutcomeDecision, OutcomeSource } from './outcomes.js';
import { defaultResponse } from './replies.js';
import type { Refusal } from '../errors.js';
import { uniqueTags } from '../../../shared/tags.js';
import type { Logger } from '../logger.js';
import type { RuleRow, RuleStore } from '../storage/rules.js';
import { iso } from '../clock.js';
import { compileGlob, type GlobMatcher } from './glob.js';
import type { ParsedRule } from './rule-schema.js';

/**
 * The sandbox rules (CONTRACT §4 step 1, §8), kept in memory in creation order and
 * written through to SQLite. A rule acts at one stage, chosen by its action: the
 * delivery outcome at ingest, the API answer of /v1/send, or an SMTP reply.
 *
 * Counting: `matches` counts the emails (API and ingest stage) or the SMTP commands
 * that met the rule's match while it was active — that is what `nth` refers to.
 * `uses` counts the times its action was applied — what `times` limits. Within one
 * email, a rule counts once however many recipients it matched.
 */
export interface MatchContext {
  teamId: string;
  from: string;
  /** Unknown at SMTP MAIL FROM and RCPT TO. */
  subject?: string;
  /** Lower-cased names; unknown before SMTP DATA. */
  headers?: Map<string, string>;
}

type Stage = 'outcome' | 'http' | 'mail' | 'rcpt' | 'data' | 'tags';

interface LiveRule {
  row: RuleRow;
  match: RuleMatch;
  action: RuleAction;
  stage: Stage;
  recipient: GlobMatcher | null;
  from: GlobMatcher | null;
  subject: string | null;
  headerName: string | null;
  headerValue: GlobMatcher | null;
}

const stageOf = (action: RuleAction): Stage => ('outcome' in action ? 'outcome' : 'http_status' in action ? 'http' : 'tags' in action ? 'tags' : action.smtp_stage);

const HTTP_MESSAGES: Record<number, string> = {
  429: 'Too many requests: rate limit exceeded',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable, please try again later',
  504: 'Gateway timeout',
};

export class RuleBook {
  private rules: LiveRule[];

  constructor(private readonly store: RuleStore, private readonly now: () => number, private readonly logger: Logger) {
    this.rules = store.all().map((row) => this.compile(row));
  }

  add(rule: ParsedRule): Rule {
    const row = this.store.insert({
      team_id: rule.match.team_id ?? null,
      match: JSON.stringify(rule.match),
      action: JSON.stringify(rule.action),
      times: rule.times,
      nth: rule.nth,
      created_at: this.now(),
    });
    const live = this.compile(row);
    this.rules.push(live);
    this.logger.info(`rule ${row.id} added: ${describe(live)}`);
    return present(live);
  }

  list(): Rule[] {
    return this.rules.map(present);
  }

  get(id: number): Rule | undefined {
    const live = this.rules.find((r) => r.row.id === id);
    return live && present(live);
  }

  remove(id: number): boolean {
    const removed = this.store.delete(id);
    this.rules = this.rules.filter((r) => r.row.id !== id);
    return removed;
  }

  /** Every rule, or the rules matching one team; returns how many went. */
  clear(teamId: string | null): number {
    const count = this.store.deleteTeam(teamId);
    this.rules = teamId === null ? [] : this.rules.filter((r) => r.row.team_id !== teamId);
    return count;
  }

  /** True when some active rule acts at this stage: lets the hot path skip rules entirely. */
  has(stage: Stage): boolean {
    return this.rules.some((r) => r.stage === stage && isActive(r.row));
  }

  /**
   * An outcome source for ONE email (ingest asks for the sources once per email), so a
   * rule counts once per email however many of its recipients it decides.
   */
  outcomeSource(): OutcomeSource | null {
    const rules = this.active('outcome');
    if (rules.length === 0) return null;
    const turns = new Map<LiveRule, boolean>();
    const used = new Set<LiveRule>();
    return (recipient, context) => {
      const winner = this.pick(rules, context, [recipient], turns);
      if (!winner) return null;
      if (!used.has(winner)) {
        used.add(winner);
        this.use(winner, recipient);
      }
      const action = winner.action as OutcomeAction;
      const decision: OutcomeDecision = { outcome: action.outcome, decidedBy: `rule:${winner.row.id}` };
      if (action.code !== undefined) {
        decision.code = action.code;
        decision.response = action.response ?? defaultResponse(action.code);
      } else if (action.response !== undefined) {
        decision.response = action.response;
      }
      if (action.delay_ms) decision.delayMs = action.delay_ms;
      return decision;
    };
  }

  /** The answer a matching rule gives instead of accepting a /v1/send, or null. */
  apiRefusal(context: MatchContext & { recipients: string[] }): Refusal | null {
    const rules = this.active('http');
    if (rules.length === 0) return null;
    const winner = this.pick(rules, context, context.recipients, new Map());
    if (!winner) return null;
    this.use(winner, context.recipients.join(', '));
    const action = winner.action as HttpAction;
    const message = action.message ?? `${HTTP_MESSAGES[action.http_status] ?? `Refused with ${action.http_status}`} (sandbox rule ${winner.row.id})`;
    return { stage: 'api', reason: 'rule', code: action.http_status, message, retryAfter: action.retry_after ?? null, delayMs: 0, disconnect: false };
  }

  /**
   * The tags of every matching tagging rule (unlike outcomes, tags accumulate: no rule
   * wins over another). Each rule counts its match and its use, so `times` and `nth` apply.
   */
  tagsFor(context: MatchContext & { recipients: string[] }): string[] {
    const tags: string[] = [];
    for (const rule of this.active('tags')) {
      if (!matchesEmail(rule, context) || !matchesRecipients(rule, context.recipients) || !this.takeTurn(rule)) continue;
      this.use(rule, context.recipients.join(', '));
      tags.push(...(rule.action as { tags: string[] }).tags);
    }
    return uniqueTags(tags);
  }

  /** The reply a matching rule gives at an SMTP stage, or null. */
  smtpRefusal(stage: 'mail' | 'rcpt' | 'data', context: MatchContext & { recipients: string[] }): { code: number; message: string; delayMs: number; disconnect: boolean } | null {
    const rules = this.active(stage);
    if (rules.length === 0) return null;
    const winner = this.pick(rules, context, context.recipients, new Map());
    if (!winner) return null;
    this.use(winner, context.recipients.join(', ') || context.from);
    const action = winner.action as SmtpAction;
    // A disconnect replies, then closes: 421 is what a server closing the channel says (RFC 5321 §3.8).
    const replyCode = action.code ?? 421;
    const message = action.message ?? (action.disconnect && action.code === undefined ? `4.4.2 Closing the connection (sandbox rule ${winner.row.id})` : defaultResponse(replyCode));
    return { code: replyCode, message, delayMs: action.delay_ms ?? 0, disconnect: action.disconnect ?? false };
  }

  private active(stage: Stage): LiveRule[] {
    return this.rules.filter((r) => r.stage === stage && isActive(r.row));
  }

  /**
   * Every matching rule takes its turn (counts a match, once per `turns` scope); the
   * first whose turn it is wins. Counting them all keeps `nth` meaning "the Nth
   * matching email" even when an older rule decides that email.
   */
  private pick(rules: LiveRule[], context: MatchContext, recipients: string[], turns: Map<LiveRule, boolean>): LiveRule | null {
    let winner: LiveRule | null = null;
    for (const rule of rules) {
      if (!matchesEmail(rule, context) || !matchesRecipients(rule, recipients)) continue;
      let turn = turns.get(rule);
      if (turn === undefined) {
        turn = this.takeTurn(rule);
        turns.set(rule, turn);
      }
      if (turn && !winner) winner = rule;
    }
    return winner;
  }

  private takeTurn(rule: LiveRule): boolean {
    const row = rule.row;
    if (!isActive(row)) return false;
    row.matches += 1;
    this.store.updateCounters(row.id, row.uses, row.matches);
    return row.nth === null || row.matches === row.nth;
  }

  private use(rule: LiveRule, target: string): void {
    const row = rule.row;
    row.uses += 1;
    this.store.updateCounters(row.id, row.uses, row.matches);
    this.logger.debug(`rule ${row.id} applied to ${target}: ${describeAction(rule.action)}${isActive(row) ? '' : ' (now used up)'}`);
  }

  private compile(row: RuleRow): LiveRule {
    const match = JSON.parse(row.match) as RuleMatch;
    const action = JSON.parse(row.action) as RuleAction;
    return {
      row,
      match,
      action,
      stage: stageOf(action),
      recipient: match.recipient ? compileGlob(match.recipient) : null,
      from: match.from ? compileGlob(match.from) : null,
      subject: match.subject ? match.subject.toLowerCase() : null,
      headerName: match.header ? match.header.name.toLowerCase() : null,
      headerValue: match.header?.value ? compileGlob(match.header.value) : null,
    };
  }
}

function isActive(row: RuleRow): boolean {
  if (row.times !== null && row.uses >= row.times) return false;
  if (row.nth !== null && row.matches >= row.nth) return false;
  return true;
}

function matchesEmail(rule: LiveRule, context: MatchContext): boolean {
  if (rule.match.team_id !== undefined && rule.match.team_id !== context.teamId) return false;
  if (rule.from && !rule.from.test(context.from)) return false;
  if (rule.subject !== null && !(context.subject ?? '').toLowerCase().includes(rule.subject)) return false;
  if (rule.headerName !== null) {
    const value = context.headers?.get(rule.headerName);
    if (value === undefined) return false;
    if (rule.headerValue && !rule.headerValue.test(value.trim())) return false;
  }
  return true;
}

function matchesRecipients(rule: LiveRule, recipients: string[]): boolean {
  return rule.recipient === null || recipients.some((r) => rule.recipient!.test(r));
}

function present(live: LiveRule): Rule {
  const { row } = live;
  return {
    id: row.id,
    match: live.match,
    action: live.action,
    times: row.times,
    nth: row.nth,
    uses: row.uses,
    matches: row.matches,
    active: isActive(row),
    created_at: iso(row.created_at),
  };
}

function describeAction(action: RuleAction): string {
  if ('outcome' in action) return `${action.outcome}${action.code ? ` ${action.code}` : ''}`;
  if ('http_status' in action) return `HTTP ${action.http_status}`;
  if ('tags' in action) return `tags ${action.tags.join(', ')}`;
  return `SMTP ${action.disconnect ? 'disconnect' : action.code} at ${action.smtp_stage.toUpperCase()}`;
}

function describe(live: LiveRule): string {
  const m = live.match;
  const parts = [m.recipient && `to ${m.recipient}`, m.from && `from ${m.from}`, m.subject && `subject ~ "${m.subject}"`, m.header && `header ${m.header.name}`, m.team_id && `team ${m.team_id}`].filter(Boolean);
  const limits = [live.row.times !== null && `times ${live.row.times}`, live.row.nth !== null && `nth ${live.row.nth}`].filter(Boolean);
  return `${parts.length ? parts.join(', ') : 'every email'} → ${describeAction(live.action)}${limits.length ? ` (${limits.join(', ')})` : ''}`;
}
