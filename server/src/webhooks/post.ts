/** The outcome of one POST to a webhook receiver. */
export interface PostResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  response: string | null;
  durationMs: number;
}

const RESPONSE_LIMIT = 1000;

/**
 * POSTs a body once. A 2xx answer is success; anything else (another status, a redirect,
 * a refused connection, no answer within `timeoutMs`) is a failure with a reason a person
 * can read. `signal` aborts it (shutdown, webhook deleted).
 */
export async function postOnce(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<PostResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const duration = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.any([timeout, signal]) });
    const response = await readStart(res);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, statusCode: res.status, error: ok ? null : `receiver answered ${res.status}`, response, durationMs: duration() };
  } catch (error) {
    const reason = timeout.aborted ? `no answer within ${timeoutMs} ms` : describe(error);
    return { ok: false, statusCode: null, error: reason, response: null, durationMs: duration() };
  }
}

/** The first characters of the answer, without buffering a huge body. */
async function readStart(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < RESPONSE_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.slice(0, RESPONSE_LIMIT);
}

/** fetch wraps network errors as "fetch failed"; the cause says what happened. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
