import { XIcon } from './icons';

const PALETTE_SIZE = 8;

/** A stable colour per tag (case-insensitive, as tags compare): one of the palette's classes. */
export function tagColour(tag: string): string {
  let hash = 0;
  for (const char of tag.toLowerCase()) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return `tag-c${hash % PALETTE_SIZE}`;
}

/** Coloured tag chips; with `onRemove` each chip gets a remove button. Tags render as text only. */
export function TagChips({ tags, onRemove, label = 'Tags' }: { tags: string[]; onRemove?: (tag: string) => void; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className="tag-chips" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag} className={`tag-chip ${tagColour(tag)}`}>
          <span className="tag-chip-text">{tag}</span>
          {onRemove && (
            <button type="button" className="tag-chip-remove" aria-label={`Remove tag ${tag}`} onClick={() => onRemove(tag)}>
              <XIcon size={11} />
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
