import type { SandboxFile } from '../../../../shared/sandbox';

/**
 * The policy the preview document carries: nothing may load or run except images and inline
 * styles. With the iframe's empty sandbox (no allow-scripts, no allow-same-origin) this is the
 * second wall: even a sandbox bug would leave scripts, fetches, frames and forms blocked.
 */
export const PREVIEW_CSP = "default-src 'none'; img-src data: cid: https: http:; style-src 'unsafe-inline'";

const CID_REF = /\bcid:([^\s"'()<>]+)/gi;

const normalizeCid = (value: string) => {
  let id = value.trim();
  try {
    id = decodeURIComponent(id);
  } catch {
    // A stray % is part of the id, not an escape.
  }
  return id.replace(/^<|>$/g, '').toLowerCase();
};

/**
 * The `srcdoc` for an email's HTML: the CSP meta first (so it is in force before any of the
 * email's own markup), links opening outside the frame, and every `cid:` reference to an
 * attached part rewritten to that attachment's download URL.
 */
export function buildPreviewDocument(html: string, files: SandboxFile[], origin: string): string {
  const byCid = new Map<string, string>();
  for (const file of files) {
    if (file.content_id) byCid.set(normalizeCid(file.content_id), new URL(file.url, origin).href);
  }
  const body = byCid.size === 0 ? html : html.replace(CID_REF, (whole, id: string) => byCid.get(normalizeCid(id)) ?? whole);
  return (
    '<!doctype html>' +
    `<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<base target="_blank">' +
    // What mail clients do for unstyled mail: a sans-serif body with some margin. The email's own styles come later and win.
    '<style>body{margin:16px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#222;overflow-wrap:break-word}</style>' +
    body
  );
}
