import type { SandboxEmail, SandboxFile } from '../../../../../../shared/sandbox';
import { EmptyState } from '../../../../components/states';
import { DownloadIcon, PaperclipIcon } from '../../../../components/icons';
import { fileSize } from '../../../../lib/format';

/** Attachments and inline parts; images show as thumbnails, everything downloads. */
export function AttachmentsPanel({ email }: { email: SandboxEmail }) {
  if (email.files.length === 0) return <EmptyState icon={<PaperclipIcon size={26} />} title="No attachments" />;
  return (
    <ul className="attachments" aria-label="Attachments">
      {email.files.map((file) => (
        <AttachmentCard key={file.index} file={file} />
      ))}
    </ul>
  );
}

function AttachmentCard({ file }: { file: SandboxFile }) {
  const image = file.content_type.startsWith('image/');
  return (
    <li className="attachment">
      <div className="attachment-preview">{image ? <img src={file.url} alt={file.filename} loading="lazy" /> : <PaperclipIcon size={22} />}</div>
      <div className="attachment-info">
        <span className="attachment-name" title={file.filename}>{file.filename}</span>
        <span className="attachment-meta">
          {file.content_type} · {fileSize(file.size)}
          {file.inline && <span className="badge badge-plain tone-blue">inline</span>}
        </span>
        {file.content_id && <span className="attachment-meta mono">cid:{file.content_id}</span>}
      </div>
      <a className="btn btn-sm" href={file.url} download={file.filename} aria-label={`Download ${file.filename}`}>
        <DownloadIcon size={14} />
      </a>
    </li>
  );
}
