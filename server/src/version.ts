import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's version, from the nearest `package.json` named `sendbox` above this module:
 * the sources, the tsc output and the bundle sit at different depths, so it is looked up
 * rather than inlined.
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'sendbox' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: keep climbing
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
