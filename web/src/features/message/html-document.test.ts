import { describe, expect, it } from 'vitest';
import type { SandboxFile } from '../../../../shared/sandbox';
import { buildPreviewDocument, PREVIEW_CSP } from './html-document';

const file = (overrides: Partial<SandboxFile> = {}): SandboxFile => ({
  index: 0,
  filename: 'logo.png',
  content_type: 'image/png',
  size: 10,
  content_id: 'logo@acme',
  inline: true,
  url: '/sandbox/emails/abc/attachments/0',
  ...overrides,
});

describe('buildPreviewDocument', () => {
  it('puts the strict CSP before any of the email markup', () => {
    const doc = buildPreviewDocument('<html><head><script>alert(1)</script></head></html>', [], 'http://127.0.0.1:8025');
    expect(doc.indexOf(`content="${PREVIEW_CSP}"`)).toBeGreaterThan(0);
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<html>'));
    expect(PREVIEW_CSP).toBe("default-src 'none'; img-src data: cid: https: http:; style-src 'unsafe-inline'");
  });

  it('rewrites cid: references to the attachment download URL', () => {
    const doc = buildPreviewDocument('<img src="cid:logo@acme" alt="Logo"><td background=\'CID:%3Clogo@acme%3E\'>', [file()], 'http://127.0.0.1:8025');
    expect(doc).toContain('<img src="http://127.0.0.1:8025/sandbox/emails/abc/attachments/0" alt="Logo">');
    expect(doc).toContain("background='http://127.0.0.1:8025/sandbox/emails/abc/attachments/0'");
  });

  it('leaves a cid: that names no attachment alone', () => {
    expect(buildPreviewDocument('<img src="cid:missing">', [file()], 'http://x')).toContain('<img src="cid:missing">');
  });

  it('opens links outside the preview frame', () => {
    expect(buildPreviewDocument('<a href="https://acme.test">x</a>', [], 'http://x')).toContain('<base target="_blank">');
  });
});
