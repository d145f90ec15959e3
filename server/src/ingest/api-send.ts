import { parseAddress, addressDomain, type ParsedAddress } from '../../../shared/address.js';
import { sendRequestSchema, base64DecodedLength, LIMITS, type SendRequest, type SendResponse } from '../../../shared/email.js';
import { ApiError, validationError } from '../http/errors.js';
import type { Principal } from '../auth/keys.js';
import { composeMime } from './compose.js';
import { htmlToText, looksLikeHtml } from './content.js';
import type { Services } from '../context.js';

const list = (value: string | string[] | undefined): ParsedAddress[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => parseAddress(v)!);

/**
 * The body of POST /v1/send, already parsed to a JSON object, turned into a stored email:
 * validation, sender and rule checks, then the ingest pipeline. Framework-free, so the
 * Express route and the raw-HTTP fast path (http/send-fast-path.ts) share every rule.
 */
export async function sendFromApi(services: Services, principal: Principal, body: Record<string, unknown>): Promise<SendResponse> {
  const { config, ingest, domains, scenarios } = services;
  const parsed = sendRequestSchema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error);
  const input: SendRequest = parsed.data;
  const { teamId, apiKeyId } = principal;

  // Shape first, then size (CONTRACT §8).
  const attachments = (input.attachments ?? []).map((a, index) => {
    const base64 = a.content;
    if (base64DecodedLength(base64) > LIMITS.attachmentBytes) {
      throw new ApiError(413, `Attachment ${index} (${a.filename}) is larger than 5 MiB`, [{ field: `attachments.${index}.content`, message: 'decoded size over 5 MiB' }]);
    }
    return { filename: a.filename, base64, contentType: a.contentType, contentId: a.contentId?.replace(/^<|>$/g, '') };
  });

  const sender = parseAddress(input.from ?? config.defaultFrom)!;
  const from: ParsedAddress = { name: input.username ?? sender.name, address: sender.address };
  const to = list(input.to);
  const cc = list(input.cc);
  const bcc = list(input.bcc);
  const replyTo = input.reply_to ? parseAddress(input.reply_to)! : { name: '', address: from.address };
  const headers = new Map(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

  const isDefaultSender = from.address.toLowerCase() === parseAddress(config.defaultFrom)?.address.toLowerCase();
  const verifiedSender = isDefaultSender || domains.isVerifiedForSending(teamId, addressDomain(from.address));
  if (config.strictSender && !verifiedSender) {
    throw new ApiError(403, `Sender ${from.address} is not at a verified domain of this team; verify ${addressDomain(from.address)} first`);
  }
  const refusal = scenarios.apiRefusal({ teamId, from: from.address, recipients: [...to, ...cc, ...bcc].map((a) => a.address), subject: input.subject, headers });
  if (refusal) throw refusal;

  const isHtml = looksLikeHtml(input.body);
  const html = isHtml ? input.body : '';
  const text = isHtml ? htmlToText(input.body) : input.body;
  const result = await ingest.ingest({
    teamId,
    apiKeyId,
    source: 'api',
    from,
    to,
    cc,
    bcc,
    replyTo: input.reply_to ? replyTo : null,
    subject: input.subject,
    text,
    html,
    headers,
    attachments: attachments.filter((a) => !a.contentId).length,
    inline: attachments.filter((a) => a.contentId).length,
    flags: verifiedSender ? {} : { unverified_sender: true },
    raw: ({ messageId, createdAt }) => {
      const raw = composeMime({ messageId, date: createdAt, from, to, cc, replyTo, subject: input.subject, text, html: isHtml ? html : null, headers: input.headers ?? {}, attachments });
      if (raw.length > LIMITS.messageBytes) throw new ApiError(413, `The composed message is ${raw.length} bytes, over the 25 MiB limit`);
      return raw;
    },
  });
  return {
    success: true,
    data: [{ message: `250 2.0.0 Ok: queued as ${result.id}`, email_id: result.id }],
    timestamp: new Date().toISOString(),
  };
}
