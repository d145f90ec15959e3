import { deflateSync } from 'node:zlib';

/** A solid-color PNG, base64: enough of an image for inline and attachment tests. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}

/** A password-reset email shaped like real transactional mail: a button, a code, an inline logo. */
export function resetEmail(to: string): Record<string, unknown> {
  return {
    from: 'Acme Security <security@acme.test>',
    to,
    subject: 'Reset your Acme password',
    body: `<!doctype html><html><body style="margin:0;background:#f4f4f7;font-family:Helvetica,Arial,sans-serif">
<table width="100%" cellpadding="0" cellspacing="0" style="padding:32px 0"><tr><td align="center">
<table width="560" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:12px;padding:40px;max-width:94%">
<tr><td><img src="cid:logo@acme" width="120" height="32" alt="Acme" style="display:block;border-radius:6px"></td></tr>
<tr><td style="padding-top:28px;font-size:22px;font-weight:bold;color:#111">Reset your password</td></tr>
<tr><td style="padding-top:12px;font-size:15px;line-height:24px;color:#444">Someone asked to reset the password of your Acme account. Use this code or the button below. It expires in 15 minutes.</td></tr>
<tr><td style="padding-top:20px;font-size:30px;letter-spacing:6px;font-weight:bold;color:#111">482913</td></tr>
<tr><td style="padding-top:24px"><a href="https://app.acme.test/reset?token=7f3a9c" style="background:#4f46e5;color:#fff;text-decoration:none;padding:12px 22px;border-radius:8px;font-weight:bold;display:inline-block">Reset password</a></td></tr>
<tr><td style="padding-top:28px;font-size:13px;color:#888">Did not ask for this? <a href="http://localhost:3000/security" style="color:#4f46e5">Review your security settings</a>.</td></tr>
</table></td></tr></table></body></html>`,
    attachments: [{ filename: 'logo.png', content: solidPng(120, 32, [79, 70, 229]), contentType: 'image/png', contentId: 'logo@acme' }],
  };
}

export function invoiceEmail(to: string): Record<string, unknown> {
  return {
    from: 'Acme Billing <billing@acme.test>',
    to,
    cc: ['Finance <finance@example.com>'],
    subject: 'Your invoice #2041 for March',
    body: '<p>Hi Dana,</p><p>Your invoice for March is attached. Total: <b>$1,204.00</b>, due April 15.</p><p><a href="https://billing.acme.test/invoices/2041">View it online</a></p>',
    attachments: [{ filename: 'invoice-2041.pdf', content: Buffer.from('%PDF-1.4\n% sendbox test invoice\n').toString('base64'), contentType: 'application/pdf' }],
  };
}
