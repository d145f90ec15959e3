// Regenerates server/src/lab/data/caniemail.json from the caniemail npm package (a
// devDependency): sendbox ships this trimmed copy, so nothing is fetched at run time and
// users do not install the package's own dependencies. Run after `npm update caniemail`:
//   node scripts/caniemail-data.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const source = JSON.parse(readFileSync(require.resolve('caniemail/caniemail.json'), 'utf8'));
const { version } = JSON.parse(readFileSync(require.resolve('caniemail/package.json'), 'utf8'));

const clients = new Set();
const features = source.data.map((f) => {
  const support = {};
  for (const [family, platforms] of Object.entries(f.stats)) {
    for (const [platform, versions] of Object.entries(platforms)) {
      // The most recent test of each client decides (the last entry caniemail lists).
      const values = Object.values(versions);
      const [code, ...notes] = String(values[values.length - 1]).split(/\s+/);
      support[`${family}.${platform}`] = notes.length ? [code, notes.map((n) => n.replace('#', ''))] : [code];
      clients.add(`${family}.${platform}`);
    }
  }
  return { slug: f.slug, title: f.title, category: f.category, url: f.url, support, notes: f.notes_by_num ?? {} };
});

const out = { package_version: version, updated: source.last_update_date, nicenames: source.nicenames.family, clients: [...clients].sort(), features };
writeFileSync(new URL('../server/src/lab/data/caniemail.json', import.meta.url), JSON.stringify(out) + '\n');
console.log(`caniemail ${version} (${source.last_update_date}): ${features.length} features, ${clients.size} clients`);
