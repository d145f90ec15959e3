import type { SandboxEmail } from '../../../../../../shared/sandbox';
import { CopyButton } from '../../../../components/copy-button';
import { DownloadIcon } from '../../../../components/icons';
import { fileSize } from '../../../../lib/format';
import { apiPaths } from '../../../../paths';

// Rendering megabytes of base64 in one <pre> freezes the tab; past this, show the start and offer the file.
const SHOWN = 200_000;

/**
 * The raw message as stored: what the app submitted. The .eml download is the message as a
 * receiver gets it, with sendbox's DKIM-Signature on top when its From domain is the team's.
 */
export function SourcePanel({ email }: { email: SandboxEmail }) {
  const raw = email.raw;
  return (
    <div className="source-panel">
      <div className="panel-toolbar">
        <span className="panel-note" title="The .eml download is the message as a receiver gets it: with sendbox's DKIM-Signature on top when the From domain is one of the team's (see Authentication).">
          {fileSize(email.size)} raw MIME, as submitted · the .eml adds sendbox's DKIM signature for the team's domains
        </span>
        <span className="panel-actions">
          <CopyButton value={raw} label="the source" text="Copy" />
          <a className="btn btn-ghost btn-sm" href={apiPaths.emailRaw(email.id)} download={`${email.id}.eml`}>
            <DownloadIcon size={14} /> .eml
          </a>
        </span>
      </div>
      <pre className="code-block" aria-label="Raw source">
        {raw.length > SHOWN ? `${raw.slice(0, SHOWN)}\n\n… ${fileSize(raw.length - SHOWN)} more: download the .eml to see it all.` : raw}
      </pre>
    </div>
  );
}
