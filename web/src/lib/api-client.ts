import type { Envelope, ErrorBody, FieldError } from '../../../shared/errors';

/** A failed /sandbox request, carrying the contract's error body. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldError[];

  constructor(status: number, message: string, errors: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

/** Builds `path?a=1&b=2`, leaving out empty values so the server sees only what was asked. */
export function withQuery(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function request<T>(method: string, url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  // Every state-changing /sandbox request must say it is JSON: the server's CSRF guard answers 415 otherwise.
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(response.status, `Unexpected answer from ${url} (HTTP ${response.status})`);
    }
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as Partial<ErrorBody>;
    throw new ApiError(response.status, error.message ?? `HTTP ${response.status}`, error.errors ?? []);
  }
  return (parsed as Envelope<T>).data;
}

/** The tiny fetch layer every endpoint file uses: it unwraps `{status, message, data}` and throws ApiError. */
export const api = {
  get: <T>(url: string, signal?: AbortSignal) => request<T>('GET', url, undefined, signal),
  post: <T>(url: string, body?: unknown) => request<T>('POST', url, body ?? {}),
  put: <T>(url: string, body: unknown) => request<T>('PUT', url, body),
  patch: <T>(url: string, body: unknown) => request<T>('PATCH', url, body),
  delete: <T>(url: string) => request<T>('DELETE', url),
};

/** A readable sentence for any error a query or mutation can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'sendbox is not reachable. Is it still running?';
  return error instanceof Error ? error.message : String(error);
}
