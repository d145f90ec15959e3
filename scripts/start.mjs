// `npm start`: builds the server and the inbox when their sources are newer than the
// build, then runs sendbox in this process with the flags given after `--`.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** Newest modification time under the given folders (0 when none exist). */
function newest(...dirs) {
  let latest = 0;
  const walk = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules' && entry !== 'dist') walk(join(path, entry));
    } else if (!/\.test\.tsx?$/.test(path)) {
      latest = Math.max(latest, stat.mtimeMs);
    }
  };
  dirs.forEach(walk);
  return latest;
}

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const serverEntry = 'dist/sendbox.mjs';
if (mtime(serverEntry) < newest('server/src', 'shared', 'client')) {
  console.error('building the server…');
  execSync('npm run --silent build:server', { stdio: 'inherit' });
}
if (existsSync('web/index.html') && mtime('web/dist/index.html') < newest('web/src', 'web/index.html', 'shared')) {
  console.error('building the inbox…');
  execSync('npx vite build web --logLevel warn', { stdio: 'inherit' });
}
await import(pathToFileURL(join(root, serverEntry)).href);
