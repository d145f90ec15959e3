/** Every URL the inbox uses, in one place: the /sandbox API it calls and the pages it shows. */

const enc = encodeURIComponent;

export const apiPaths = {
  emails: '/sandbox/emails',
  email: (id: string) => `/sandbox/emails/${enc(id)}`,
  emailRaw: (id: string) => `/sandbox/emails/${enc(id)}/raw`,
  emailAttachment: (id: string, index: number) => `/sandbox/emails/${enc(id)}/attachments/${index}`,
  emailEvents: (id: string) => `/sandbox/emails/${enc(id)}/events`,
  emailRelease: (id: string) => `/sandbox/emails/${enc(id)}/release`,
  relay: '/sandbox/relay',
  emailTags: (id: string) => `/sandbox/emails/${enc(id)}/tags`,
  emailsBulk: '/sandbox/emails/bulk',
  tags: '/sandbox/tags',
  tag: (tag: string) => `/sandbox/tags/${enc(tag)}`,
  health: '/sandbox/health',
  emailHtmlCheck: (id: string) => `/sandbox/emails/${enc(id)}/html-check`,
  emailSpam: (id: string) => `/sandbox/emails/${enc(id)}/spam`,
  emailLinkCheck: (id: string) => `/sandbox/emails/${enc(id)}/link-check`,
  emailAuth: (id: string) => `/sandbox/emails/${enc(id)}/auth`,
  teams: '/sandbox/teams',
  events: '/sandbox/events',
  rules: '/sandbox/rules',
  rule: (id: number) => `/sandbox/rules/${id}`,
  delivery: '/sandbox/delivery',
  deliveryPause: '/sandbox/delivery/pause',
  deliveryResume: '/sandbox/delivery/resume',
  chaos: '/sandbox/chaos',
  domains: '/sandbox/domains',
  domainVerify: '/sandbox/domains/verify',
  domainVerification: (domain: string) => `/sandbox/domains/${enc(domain)}/verification`,
  webhooks: '/sandbox/webhooks',
  webhook: (id: string | number) => `/sandbox/webhooks/${enc(String(id))}`,
  webhookAttempts: (id: string | number) => `/sandbox/webhooks/${enc(String(id))}/attempts`,
  openapi: '/openapi.json',
  /** Swagger UI, served by sendbox (not an inbox page). */
  docs: '/docs',
} as const;

/** The inbox's own pages (the server answers every other path with index.html). */
export const pagePaths = {
  inbox: '/',
  email: (id: string) => `/emails/${enc(id)}`,
  domains: '/domains',
  domain: (id: string) => `/domains/${enc(id)}`,
  scenarios: '/scenarios',
} as const;
