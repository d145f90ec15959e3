import { useMemo, useState } from 'react';
import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';
import { MonitorIcon, PhoneIcon, TabletIcon } from '../../../../components/icons';
import { buildPreviewDocument } from '../../html-document';

const WIDTHS = [
  { key: 'phone', label: 'Phone', width: 375, Icon: PhoneIcon },
  { key: 'tablet', label: 'Tablet', width: 768, Icon: TabletIcon },
  { key: 'desktop', label: 'Desktop', width: null, Icon: MonitorIcon },
] as const;
type Width = (typeof WIDTHS)[number]['key'];

/**
 * The HTML body in a sandboxed iframe: no allow-scripts, no allow-same-origin (an opaque
 * origin that cannot touch this page or call the API), a strict CSP inside, content via srcdoc.
 * allow-popups only lets a clicked link open in a new tab.
 */
export function HtmlPanel({ email }: { email: SandboxEmail }) {
  const [width, setWidth] = useState<Width>('desktop');
  const html = email.metadata.html;
  const doc = useMemo(() => buildPreviewDocument(html, email.files, window.location.origin), [html, email.files]);
  if (html.trim() === '') {
    return <EmptyState title="No HTML part">This email is plain text only: see the Text tab.</EmptyState>;
  }
  const px = WIDTHS.find((w) => w.key === width)?.width ?? null;
  return (
    <div className="html-panel">
      <div className="panel-toolbar">
        <div role="radiogroup" aria-label="Preview width" className="segmented segmented-text">
          {WIDTHS.map(({ key, label, width: w, Icon }) => (
            <button key={key} type="button" role="radio" aria-checked={width === key} className="segmented-item" onClick={() => setWidth(key)} title={w ? `${w} px` : 'Full width'}>
              <Icon size={14} /> {label}
            </button>
          ))}
        </div>
        <span className="panel-note">{px ? `${px} px` : 'full width'} · scripts blocked</span>
      </div>
      <div className="html-stage" data-width={width}>
        <iframe
          title="HTML body"
          className="html-frame"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          referrerPolicy="no-referrer"
          srcDoc={doc}
          style={px ? { width: px } : undefined}
        />
      </div>
    </div>
  );
}
