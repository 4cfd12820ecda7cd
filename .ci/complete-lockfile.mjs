// The npm mirror on our build machines lacks the non-Linux builds of some optional native
// bindings, so npm leaves them out of package-lock.json and `npm ci` then rejects the lock.
// This adds a platform-guarded entry for each missing optional dependency (npm skips them
// on other platforms; a full registry serves them). Run after changing dependencies.
import fs from 'node:fs';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const platform = (name) => {
  const m =
    /-(android|darwin|freebsd|linux|openharmony|win32|wasm32)-([a-z0-9]+)(?:-(gnu|musl|gnueabihf|musleabihf|msvc|eabi|wasi))?$/.exec(name);
  if (!m) return undefined;
  const [, os, cpu, abi] = m;
  const entry = { os: [os === 'wasm32' ? undefined : os].filter(Boolean), cpu: [os === 'wasm32' ? 'wasm32' : cpu] };
  if (abi && /gnu/.test(abi)) entry.libc = ['glibc'];
  if (abi && /musl/.test(abi)) entry.libc = ['musl'];
  return entry;
};
let added = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[base] || lock.packages[`node_modules/${dep}`]) continue;
    const guard = platform(dep);
    if (!guard) continue;
    // Keys in the order npm itself writes them, so a later `npm install` leaves the file alone.
    const entry = {
      version,
      cpu: guard.cpu,
      ...(pkg.dev ? { dev: true } : {}),
      ...(guard.libc ? { libc: guard.libc } : {}),
      optional: true,
      ...(guard.os.length ? { os: guard.os } : {}),
    };
    lock.packages[`node_modules/${dep}`] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform-guarded lock entries`);
