import { parseArgs } from 'node:util';
import { parseDnsServer } from './dns-server.js';
import { relaySettingsProblem } from './relay/settings.js';
import { parseMaxAge } from './emails/retention.js';
import { parseHostPort } from './lab/spam.js';

/**
 * Every setting is declared once here: its flag, its environment twin, its default
 * and one line of help. `loadConfig` validates strictly and fails with one clear line.
 */
type Kind = 'string' | 'int' | 'bool';
interface Setting {
  flag: string;
  kind: Kind;
  default: string | number | boolean | undefined;
  help: string;
  secret?: boolean;
}

export const SETTINGS = {
  host: { flag: 'host', kind: 'string', default: '127.0.0.1', help: 'address HTTP and SMTP listen on (0.0.0.0 for containers)' },
  port: { flag: 'port', kind: 'int', default: 8025, help: 'HTTP port: /v1, /sandbox and the inbox (0 picks a free port)' },
  smtpPort: { flag: 'smtp-port', kind: 'int', default: 1025, help: 'SMTP port (0 picks a free port)' },
  db: { flag: 'db', kind: 'string', default: './.sendbox/sendbox.db', help: 'SQLite file, or :memory: for a throwaway run' },
  maxEmails: { flag: 'max-emails', kind: 'int', default: 50_000, help: 'retention: the oldest emails beyond this many are pruned' },
  maxAge: { flag: 'max-age', kind: 'string', default: undefined, help: 'retention by age: emails older than this are deleted, e.g. 30m, 12h, 7d' },
  keys: { flag: 'keys', kind: 'string', default: undefined, help: 'configured keys: a JSON file [{"key","team_id","api_key_id"?}] or team:key,team:key', secret: true },
  defaultFrom: { flag: 'default-from', kind: 'string', default: 'sandbox@sendbox.local', help: 'sender used when a send has no from' },
  messageHost: { flag: 'message-host', kind: 'string', default: 'sendbox.local', help: 'host part of generated Message-IDs' },
  strictSender: { flag: 'strict-sender', kind: 'bool', default: false, help: 'refuse (403) a from outside the team\'s verified domains' },
  delayMs: { flag: 'delay-ms', kind: 'int', default: 100, help: 'simulated time between delivery stages (0 = immediate)' },
  chaos: { flag: 'chaos', kind: 'string', default: undefined, help: 'random outcomes, e.g. bounced=0.05,failed=0.02,complaint=0.01' },
  seed: { flag: 'seed', kind: 'int', default: undefined, help: 'seed for --chaos, for reproducible runs' },
  dns: { flag: 'dns', kind: 'string', default: 'simulated', help: 'domain verification: simulated or real (live DNS lookups)' },
  dnsServer: { flag: 'dns-server', kind: 'string', default: undefined, help: 'resolver for --dns real, host[:port]' },
  dnsTimeoutMs: { flag: 'dns-timeout-ms', kind: 'int', default: 2000, help: 'timeout of one DNS query with --dns real' },
  spfInclude: { flag: 'spf-include', kind: 'string', default: 'spf.sendbox.local', help: 'host in the MAIL FROM SPF record (include:<host>)' },
  bounceHost: { flag: 'bounce-host', kind: 'string', default: 'feedback.sendbox.local', help: 'target of the bounce.<domain> CNAME record' },
  webhookUrl: { flag: 'webhook-url', kind: 'string', default: undefined, help: 'POST every email and domain event here as JSON' },
  webhookSecret: { flag: 'webhook-secret', kind: 'string', default: undefined, help: 'HMAC-SHA256 secret for X-Sendbox-Signature', secret: true },
  webhookRetryMs: { flag: 'webhook-retry-ms', kind: 'int', default: 1000, help: 'first webhook retry delay; it doubles for each of the 5 retries' },
  webhookTimeoutMs: { flag: 'webhook-timeout-ms', kind: 'int', default: 5000, help: 'a webhook attempt without an answer in this time fails' },
  uiAuth: { flag: 'ui-auth', kind: 'string', default: undefined, help: 'user:password basic auth for the inbox and /sandbox', secret: true },
  allowedHosts: { flag: 'allowed-hosts', kind: 'string', default: undefined, help: 'extra Host names accepted by the inbox and /sandbox, comma separated' },
  smtpAuth: { flag: 'smtp-auth', kind: 'string', default: 'optional', help: 'optional or required' },
  smtpTls: { flag: 'smtp-tls', kind: 'bool', default: false, help: 'offer STARTTLS with a generated self-signed certificate' },
  smtpCert: { flag: 'smtp-cert', kind: 'string', default: undefined, help: 'PEM certificate file for STARTTLS instead of the generated one (implies --smtp-tls)' },
  smtpKey: { flag: 'smtp-key', kind: 'string', default: undefined, help: 'PEM private key for --smtp-cert' },
  smtpMaxClients: { flag: 'smtp-max-clients', kind: 'int', default: 100, help: 'concurrent SMTP connections; beyond it 421' },
  smtpTimeoutMs: { flag: 'smtp-timeout-ms', kind: 'int', default: 60_000, help: 'an SMTP client silent this long while the server waits for it is disconnected (421)' },
  smtpDataTimeoutMs: { flag: 'smtp-data-timeout-ms', kind: 'int', default: 300_000, help: 'a message must arrive in full within this long after DATA (421)' },
  smtpsPort: { flag: 'smtps-port', kind: 'int', default: undefined, help: 'a second SMTP port with implicit TLS (conventionally 465 or 1465; 0 picks a free port), same certificate as STARTTLS' },
  relay: { flag: 'relay', kind: 'string', default: undefined, help: 'release: the real SMTP server a released email is sent through, smtp://user:pass@host:port (smtps:// for implicit TLS)', secret: true },
  relayAllow: { flag: 'relay-allow', kind: 'string', default: undefined, help: 'recipient globs a release may send to, comma separated (until set every release is refused)' },
  relayTls: { flag: 'relay-tls', kind: 'string', default: 'auto', help: 'STARTTLS to an smtp:// relay: auto (when offered), required or off' },
  relayInsecure: { flag: 'relay-insecure', kind: 'bool', default: false, help: 'accept a relay\'s self-signed or otherwise unverifiable certificate' },
  relayAuto: { flag: 'relay-auto', kind: 'string', default: undefined, help: 'auto-release: every captured email is released to its recipients matching these globs (within --relay-allow)' },
  spamassassin: { flag: 'spamassassin', kind: 'string', default: undefined, help: 'score emails with a running SpamAssassin spamd at host:port (GET /sandbox/emails/{id}/spam)' },
  rspamd: { flag: 'rspamd', kind: 'string', default: undefined, help: 'score emails with rspamd\'s HTTP API at this URL instead, e.g. http://127.0.0.1:11333' },
  linkCheck: { flag: 'link-check', kind: 'bool', default: false, help: 'let POST /sandbox/emails/{id}/link-check fetch an email\'s links and images (off until set: it makes sendbox reach whatever an email links to)' },
  linkCheckTimeoutMs: { flag: 'link-check-timeout-ms', kind: 'int', default: 5000, help: 'a checked link without an answer in this time fails' },
  logLevel: { flag: 'log-level', kind: 'string', default: 'info', help: 'debug, info, warn or error' },
} satisfies Record<string, Setting>;

type Settings = typeof SETTINGS;
type ValueOf<S extends Setting> = S['kind'] extends 'int' ? number : S['kind'] extends 'bool' ? boolean : string;
export type Config = {
  [K in keyof Settings]: Settings[K]['default'] extends undefined ? ValueOf<Settings[K]> | undefined : ValueOf<Settings[K]>;
};

/** A setting that fails validation; `option` is its camelCase name (as `startSendbox` takes it). */
export class ConfigError extends Error {
  constructor(message: string, readonly option?: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** `--smtp-port` ⇔ `SENDBOX_SMTP_PORT`. */
export function envName(flag: string): string {
  return `SENDBOX_${flag.toUpperCase().replace(/-/g, '_')}`;
}

const BOOLEAN_WORDS: Record<string, boolean> = { '1': true, true: true, yes: true, '0': false, false: false, no: false };

function coerce(setting: Setting, raw: string, source: string): string | number | boolean {
  if (setting.kind === 'int') {
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${source} must be a whole number, got "${raw}"`);
    return Number(raw);
  }
  if (setting.kind === 'bool') {
    const value = BOOLEAN_WORDS[raw.trim().toLowerCase()];
    if (value === undefined) throw new ConfigError(`${source} must be one of 1/0/true/false/yes/no, got "${raw}"`);
    return value;
  }
  return raw;
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): Config {
  const options: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' }, version: { type: 'boolean' } };
  for (const setting of Object.values(SETTINGS) as Setting[]) {
    options[setting.flag] = { type: setting.kind === 'bool' ? 'boolean' : 'string' };
    if (setting.kind === 'bool') options[`no-${setting.flag}`] = { type: 'boolean' };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}. Run with --help to list the options.`);
  }
  if (values.help) throw new HelpRequested();
  if (values.version) throw new VersionRequested();

  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    const flagValue = values[setting.flag];
    const negated = values[`no-${setting.flag}`];
    const envValue = env[envName(setting.flag)];
    if (setting.kind === 'bool' && (flagValue !== undefined || negated !== undefined)) {
      config[key] = negated ? false : Boolean(flagValue);
    } else if (typeof flagValue === 'string') {
      config[key] = coerce(setting, flagValue, `--${setting.flag}`);
    } else if (envValue !== undefined && envValue !== '') {
      config[key] = coerce(setting, envValue, envName(setting.flag));
    } else {
      config[key] = setting.default;
    }
  }
  validate(config as Config);
  return config as Config;
}

function validate(config: Config): void {
  // Each error names the option (camelCase, for startSendbox callers); the message names the flag.
  const fail = (key: keyof Config, message: string): never => {
    throw new ConfigError(`--${SETTINGS[key].flag} ${message}`, key);
  };
  const port = (key: 'port' | 'smtpPort' | 'smtpsPort') => {
    const value = config[key];
    if (value !== undefined && value > 65535) fail(key, `must be between 0 and 65535, got ${value}`);
  };
  port('port');
  port('smtpPort');
  port('smtpsPort');
  const relayProblem = relaySettingsProblem(config);
  if (relayProblem) throw new ConfigError(relayProblem, 'relay');
  if (config.maxEmails < 1) fail('maxEmails', 'must be at least 1');
  if (config.maxAge !== undefined && parseMaxAge(config.maxAge) === null) fail('maxAge', `must be a whole number of minutes, hours or days such as 30m, 12h or 7d, got "${config.maxAge}"`);
  if (!['simulated', 'real'].includes(config.dns)) fail('dns', `must be simulated or real, got "${config.dns}"`);
  if (!['optional', 'required'].includes(config.smtpAuth)) fail('smtpAuth', `must be optional or required, got "${config.smtpAuth}"`);
  if (!['debug', 'info', 'warn', 'error'].includes(config.logLevel)) fail('logLevel', `must be debug, info, warn or error, got "${config.logLevel}"`);
  if (config.uiAuth !== undefined && !/^[^:]+:.+$/.test(config.uiAuth)) fail('uiAuth', 'must be user:password');
  if ((config.smtpCert === undefined) !== (config.smtpKey === undefined)) fail('smtpCert', 'and --smtp-key go together');
  if (config.smtpMaxClients < 1) fail('smtpMaxClients', 'must be at least 1');
  if (config.smtpTimeoutMs < 1) fail('smtpTimeoutMs', 'must be at least 1');
  if (config.smtpDataTimeoutMs < 1) fail('smtpDataTimeoutMs', 'must be at least 1');
  if (config.dnsServer !== undefined && !parseDnsServer(config.dnsServer)) fail('dnsServer', `must be host[:port] (IPv6: [addr]:port), got "${config.dnsServer}"`);
  if (config.dnsTimeoutMs < 1) fail('dnsTimeoutMs', 'must be at least 1');
  if (config.webhookTimeoutMs < 1) fail('webhookTimeoutMs', 'must be at least 1');
  if (config.spamassassin !== undefined && !parseHostPort(config.spamassassin, 783)) fail('spamassassin', `must be host:port of a spamd, got "${config.spamassassin}"`);
  if (config.rspamd !== undefined && !/^https?:\/\/\S+$/.test(config.rspamd)) fail('rspamd', `must be an http(s) URL, got "${config.rspamd}"`);
  if (config.linkCheckTimeoutMs < 1) fail('linkCheckTimeoutMs', 'must be at least 1');
  if (config.webhookUrl !== undefined && !/^https?:\/\/\S+$/.test(config.webhookUrl)) fail('webhookUrl', `must be an http(s) URL, got "${config.webhookUrl}"`);
}

export class HelpRequested extends Error {}
export class VersionRequested extends Error {}

/** The options of `startSendbox`: every CLI setting, camelCased, with its CLI default when omitted. */
export type SendboxOptions = { [K in keyof Config]?: Config[K] };

/**
 * Config from a programmatic options object, with the CLI's rules and messages (the flag
 * names in the messages are the ones the README documents). Environment variables are not
 * read: what a test passes is all there is.
 */
export function configFromOptions(options: SendboxOptions): Config {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new ConfigError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!(key in SETTINGS)) throw new ConfigError(`unknown option "${key}": the options are the CLI flags in camelCase (${Object.keys(SETTINGS).join(', ')})`, key);
  }
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    const value = (options as Record<string, unknown>)[key];
    if (value === undefined) {
      config[key] = setting.default;
      continue;
    }
    const ok = setting.kind === 'int' ? Number.isSafeInteger(value) && (value as number) >= 0 : setting.kind === 'bool' ? typeof value === 'boolean' : typeof value === 'string';
    if (!ok) {
      const expected = setting.kind === 'int' ? 'a whole number' : setting.kind === 'bool' ? 'true or false' : 'a string';
      throw new ConfigError(`--${setting.flag} (${key}) must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`, key);
    }
    config[key] = value;
  }
  validate(config as Config);
  return config as Config;
}

/** The --help text, generated from SETTINGS so it never drifts. */
export function helpText(): string {
  const rows = (Object.values(SETTINGS) as Setting[]).map((s) => {
    const flag = `--${s.flag}${s.kind === 'bool' ? '' : ` <${s.kind === 'int' ? 'n' : 'value'}>`}`;
    const def = s.default === undefined ? '' : ` (default: ${s.default})`;
    return `  ${flag.padEnd(28)} ${s.help}${def}\n  ${''.padEnd(28)} env ${envName(s.flag)}`;
  });
  return ['Usage: sendbox [options]', '       sendbox sendmail [-t] [-i] [-f from] [--smtp-addr host:port] [recipient…] < message   (sendbox sendmail --help)', '', 'Local mail sandbox: provider API /v1, SMTP capture, simulated delivery, web inbox.', '', 'Options:', ...rows, '  --help                       show this help', '  --version                    print the version', ''].join('\n');
}

/** Config for logs: secrets keep only their last 4 characters. */
export function describeConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    const value = (config as Record<string, unknown>)[key];
    out[key] = setting.secret && typeof value === 'string' ? maskSecret(value) : value;
  }
  return out;
}

/** `…abcd`: never print a key or password in full. */
export function maskSecret(value: string): string {
  return value.length <= 4 ? '…' : `…${value.slice(-4)}`;
}
