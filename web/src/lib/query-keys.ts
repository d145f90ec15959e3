/**
 * Query-key factories, one per feature. They live here rather than inside each feature so the
 * one SSE listener (live-events.ts) and the mutations of every feature invalidate through the
 * same keys without features importing each other.
 */

/** The filters of `GET /sandbox/emails` as the inbox sends them. */
export interface EmailListParams {
  team_id?: string;
  search?: string;
  from?: string;
  to?: string;
  subject?: string;
  status?: string;
  has_attachment?: boolean;
  is_read?: boolean;
  /** The search language (shared/search.ts). */
  q?: string;
  page: number;
  limit: number;
}

export const inboxKeys = {
  all: ['emails'] as const,
  lists: () => [...inboxKeys.all, 'list'] as const,
  list: (params: EmailListParams) => [...inboxKeys.lists(), params] as const,
};

export const messageKeys = {
  all: ['emails', 'detail'] as const,
  detail: (id: string) => [...messageKeys.all, id] as const,
};

export const mailboxKeys = {
  all: ['mailboxes'] as const,
};

export const tagKeys = {
  all: ['tags'] as const,
  list: (teamId: string | null) => [...tagKeys.all, teamId] as const,
};

export const healthKeys = {
  all: ['health'] as const,
};

export const domainKeys = {
  all: ['domains'] as const,
  lists: () => [...domainKeys.all, 'list'] as const,
  list: (teamId: string | null) => [...domainKeys.lists(), teamId] as const,
  scripts: (domain: string) => [...domainKeys.all, 'scripts', domain] as const,
};

export const scenarioKeys = {
  all: ['scenarios'] as const,
  rules: () => [...scenarioKeys.all, 'rules'] as const,
  delivery: () => [...scenarioKeys.all, 'delivery'] as const,
  chaos: () => [...scenarioKeys.all, 'chaos'] as const,
  webhooks: () => [...scenarioKeys.all, 'webhooks'] as const,
  attempts: (webhookId: string | number) => [...scenarioKeys.webhooks(), 'attempts', String(webhookId)] as const,
};

/** True for a list query whose rows depend on more than team and page (a status change can move rows in or out). */
export function isFilteredList(params: EmailListParams): boolean {
  return Boolean(params.search || params.from || params.to || params.subject || params.status || params.has_attachment !== undefined || params.is_read !== undefined || params.q);
}
