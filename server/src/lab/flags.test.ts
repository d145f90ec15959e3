import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

/** The lab's flags and their environment twins, validated at start with one clear line. */
describe('lab flags', () => {
  it('reads --spamassassin, --rspamd and the link-check settings from flags or the environment', () => {
    expect(loadConfig(['--spamassassin', '127.0.0.1:783'], {}).spamassassin).toBe('127.0.0.1:783');
    expect(loadConfig([], { SENDBOX_SPAMASSASSIN: 'spamd.local' }).spamassassin).toBe('spamd.local');
    expect(loadConfig([], { SENDBOX_RSPAMD: 'http://127.0.0.1:11333' }).rspamd).toBe('http://127.0.0.1:11333');
    // Off until asked for: it makes sendbox fetch URLs that an email chose.
    expect(loadConfig([], {}).linkCheck).toBe(false);
    expect(loadConfig(['--link-check'], {}).linkCheck).toBe(true);
    expect(loadConfig([], { SENDBOX_LINK_CHECK: 'yes', SENDBOX_LINK_CHECK_TIMEOUT_MS: '250' })).toMatchObject({ linkCheck: true, linkCheckTimeoutMs: 250 });
    expect(loadConfig(['--no-link-check'], { SENDBOX_LINK_CHECK: 'true' }).linkCheck).toBe(false);
  });

  it.each([
    [['--spamassassin', 'a b'], '--spamassassin must be host:port of a spamd, got "a b"'],
    [['--spamassassin', 'host:port'], '--spamassassin must be host:port of a spamd, got "host:port"'],
    [['--spamassassin', '127.0.0.1:99999'], '--spamassassin must be host:port of a spamd, got "127.0.0.1:99999"'],
    [['--rspamd', 'ftp://x'], '--rspamd must be an http(s) URL, got "ftp://x"'],
    [['--link-check-timeout-ms', '0'], '--link-check-timeout-ms must be at least 1'],
  ])('refuses %j', (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(expect.objectContaining({ name: 'ConfigError', message }));
  });
});
