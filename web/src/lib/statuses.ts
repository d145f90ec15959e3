import type { EmailStatus } from '../../../shared/email';

/**
 * The email statuses in the order a person reads them. A copy of shared EMAIL_STATUSES, because
 * importing that module would pull zod into the inbox bundle; the type keeps the two in step.
 */
export const EMAIL_STATUS_LIST = ['processing', 'queued', 'delivered', 'bounced', 'failed', 'complaint'] as const satisfies readonly EmailStatus[];

type Missing = Exclude<EmailStatus, (typeof EMAIL_STATUS_LIST)[number]>;
// Fails to compile when shared/email.ts gains a status this list does not have.
const complete: Missing extends never ? true : never = true;
void complete;
