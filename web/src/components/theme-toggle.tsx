import { useTheme, type ThemeChoice } from '../lib/theme';
import { MonitorIcon, MoonIcon, SunIcon } from './icons';

const CHOICES: { value: ThemeChoice; label: string; Icon: typeof SunIcon }[] = [
  { value: 'system', label: 'System theme', Icon: MonitorIcon },
  { value: 'light', label: 'Light theme', Icon: SunIcon },
  { value: 'dark', label: 'Dark theme', Icon: MoonIcon },
];

/** Three-way switch: follow the system, or force light or dark. */
export function ThemeToggle() {
  const [choice, setChoice] = useTheme();
  return (
    <div role="radiogroup" aria-label="Theme" className="segmented">
      {CHOICES.map(({ value, label, Icon }) => (
        <button key={value} type="button" role="radio" aria-checked={choice === value} aria-label={label} title={label} className="segmented-item" onClick={() => setChoice(value)}>
          <Icon size={15} />
        </button>
      ))}
    </div>
  );
}
