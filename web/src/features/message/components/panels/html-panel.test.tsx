// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { PREVIEW_CSP } from '../../html-document';
import { HtmlPanel } from './html-panel';

const email = (html: string) =>
  ({
    id: 'abc',
    metadata: { html, text: '', from: 'a@x.test', to: ['b@x.test'], cc: null, bcc: null, reply_to: null },
    files: [{ index: 0, filename: 'logo.png', content_type: 'image/png', size: 1, content_id: 'logo', inline: true, url: '/sandbox/emails/abc/attachments/0' }],
  }) as unknown as SandboxEmail;

describe('HtmlPanel', () => {
  afterEach(cleanup);

  it('renders the HTML in an iframe that may not run scripts nor share the inbox origin', () => {
    render(<HtmlPanel email={email('<p>Hi</p><script>alert(1)</script><img src="cid:logo">')} />);
    const frame = screen.getByTitle('HTML body');
    const sandbox = frame.getAttribute('sandbox') ?? '';
    expect(sandbox.split(' ')).not.toContain('allow-scripts');
    expect(sandbox.split(' ')).not.toContain('allow-same-origin');
    expect(frame.getAttribute('src')).toBeNull();
    const doc = frame.getAttribute('srcdoc') ?? '';
    expect(doc.startsWith(`<!doctype html><meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">`)).toBe(true);
    expect(doc).toContain('<img src="http://localhost:3000/sandbox/emails/abc/attachments/0">');
  });

  it('switches the preview between phone, tablet and desktop widths', () => {
    render(<HtmlPanel email={email('<p>Hi</p>')} />);
    const frame = screen.getByTitle('HTML body');
    fireEvent.click(screen.getByRole('radio', { name: /Phone/ }));
    expect(frame.style.width).toBe('375px');
    fireEvent.click(screen.getByRole('radio', { name: /Tablet/ }));
    expect(frame.style.width).toBe('768px');
    fireEvent.click(screen.getByRole('radio', { name: /Desktop/ }));
    expect(frame.style.width).toBe('');
    expect(screen.getByRole('radio', { name: /Desktop/ }).getAttribute('aria-checked')).toBe('true');
  });

  it('says so when there is no HTML part', () => {
    render(<HtmlPanel email={email('  ')} />);
    expect(screen.getByText('No HTML part')).toBeTruthy();
    expect(screen.queryByTitle('HTML body')).toBeNull();
  });
});
