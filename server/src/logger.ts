/** Tagged, levelled logging passed in to every subsystem (`[http]`, `[smtp]`, `[db]`, `[sim]`). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, extra?: unknown): void;
  info(message: string, extra?: unknown): void;
  warn(message: string, extra?: unknown): void;
  error(message: string, extra?: unknown): void;
  /** A logger whose lines carry `[tag]`. */
  child(tag: string): Logger;
}

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line + '\n'), tag = ''): Logger {
  const min = ORDER[level];
  const log = (at: LogLevel) => (message: string, extra?: unknown) => {
    if (ORDER[at] < min) return;
    const suffix = extra === undefined ? '' : ' ' + (extra instanceof Error ? (extra.stack ?? extra.message) : safeJson(extra));
    write(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${tag ? `[${tag}] ` : ''}${message}${suffix}`);
  };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (child) => createLogger(level, write, child),
  };
}

/** A logger that drops everything (tests that do not assert on logs). */
export const silentLogger: Logger = createLogger('error', () => {});

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
