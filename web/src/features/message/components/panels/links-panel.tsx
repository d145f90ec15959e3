import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { CopyButton } from '../../../../components/copy-button';
import { EmptyState } from '../../../../components/states';
import { ExternalIcon } from '../../../../components/icons';

/** The verification codes and links a test would follow, each one click from the clipboard. */
export function LinksPanel({ email }: { email: SandboxEmail }) {
  if (email.links.length === 0 && email.codes.length === 0) return <EmptyState title="No links or codes">Nothing in this email looks like a link or a one-time code.</EmptyState>;
  return (
    <div className="links-panel">
      {email.codes.length > 0 && (
        <section aria-label="Codes">
          <h3 className="panel-heading">Codes</h3>
          <ul className="codes">
            {email.codes.map((code) => (
              <li key={code.value} className="code-chip">
                <span className="mono">{code.value}</span>
                <CopyButton value={code.value} label={`code ${code.value}`} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {email.links.length > 0 && (
        <section aria-label="Links">
          <h3 className="panel-heading">Links</h3>
          <ul className="links">
            {email.links.map((link, i) => (
              <li key={`${link.href}-${i}`} className="link-row">
                <div className="link-text">
                  {link.text && <span className="link-label">{link.text}</span>}
                  <a href={safeHref(link.href)} target="_blank" rel="noopener noreferrer" className="link-href mono">
                    {link.href} <ExternalIcon size={12} />
                  </a>
                </div>
                <CopyButton value={link.href} label={`link ${link.href}`} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** Only web and mail links are clickable from the app's own origin; a javascript: URL stays text to copy. */
function safeHref(href: string): string | undefined {
  return /^(https?:|mailto:)/i.test(href) ? href : undefined;
}
