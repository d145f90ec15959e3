import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS, envName } from './config.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the start command and the test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).toMatch(/^npm ci && npm start\b/m);
    expect(firstBlock).toMatch(/^npm test\b/m);
  });

  it('documents every setting with its flag, environment twin and default', () => {
    for (const setting of Object.values(SETTINGS)) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`--${setting.flag}\` |`));
      expect(row, `--${setting.flag} in the configuration table`).toBeDefined();
      expect(row).toContain(`\`${envName(setting.flag)}\``);
      if (setting.default !== undefined) expect(row).toContain(`\`${setting.default}\``);
    }
  });
});
