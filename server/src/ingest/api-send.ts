import { parseAddress, type ParsedAddress } from '../../../shared/address.js';
import { sendRequestSchema, base64DecodedLength, LIMITS, type SendRequest, type SendResponse } from '../../../shared/email.js';
import { invalidFromZod, tooLarge } from '../errors.js';
import type { Config } from '../config.js';
import type { Submit, Submitter } from './submit.js';
import type { IngestResult } from './ingest.js';
import { composeMime } from './compose.js';
import { looksLikeHtml } from './content.js';
import { TEXT_GENERATOR, TEXT_GENERATORS } from '../../../shared/html-text.js';

const list = (value: string | string[] | undefined): ParsedAddress[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v) => parseAddress(v)!);

/**
 * The body of POST /v1/send, already parsed to a JSON object, turned into a stored email:
 * validation and MIME composition, then `submit` (sender policy, rules, storage) as for
 * SMTP. Framework-free, so the Express route and the raw-HTTP fast path
 * (http/send-fast-path.ts) share every rule; errors are domain values (errors.ts), thrown
 * before anything is stored or rejected by the promise after.
 *
 * Not an async function, on purpose: one would keep its locals (the request's HTML, text
 * and attachment strings, ~300 KB for a 100 KB email) alive until the commit it waits for,
 * and with a few dozen sends in flight the young-generation collector copied them all,
 * twice (~15 % of a 100 KB send). Nothing here outlives composition but the message bytes.
 */
export function sendFromApi(deps: { config: Config; submit: Submit }, principal: Submitter, body: Record<string, unknown>, lifted?: ReadonlyMap<string, Buffer>): Promise<SendResponse> {
  const { config, submit } = deps;
  const parsed = sendRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  const input: SendRequest = parsed.data;

  // Shape first, then size (CONTRACT §8).
  const attachments = (input.attachments ?? []).map((a, index) => {
    // Content the fast path kept as the request's bytes (http/lifted-base64.ts), checked there.
    const base64 = lifted?.get(a.content) ?? a.content;
    if (base64DecodedLength(base64) > LIMITS.attachmentBytes) {
      throw tooLarge(`Attachment ${index} (${a.filename}) is larger than 5 MiB`, [{ field: `attachments.${index}.content`, message: 'decoded size over 5 MiB' }]);
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

  const isHtml = looksLikeHtml(input.body);
  const html = isHtml ? input.body : '';
  const text = isHtml ? TEXT_GENERATORS[TEXT_GENERATOR](input.body) : input.body;
  return submit({
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
    raw: ({ messageId, createdAt }) => {
      const composed = composeMime({
        messageId, date: createdAt, from, to, cc, replyTo, subject: input.subject, text, html: isHtml ? html : null,
        textGenerator: isHtml ? TEXT_GENERATOR : undefined, headers: input.headers ?? {}, attachments,
      });
      if (composed.size > LIMITS.messageBytes) throw tooLarge(`The composed message is ${composed.size} bytes, over the 25 MiB limit`);
      return composed;
    },
  }, principal).then(acknowledgement);
}

function acknowledgement(result: IngestResult): SendResponse {
  return {
    success: true,
    data: [{ message: `250 2.0.0 Ok: queued as ${result.id}`, email_id: result.id }],
    timestamp: new Date().toISOString(),
  };
}
