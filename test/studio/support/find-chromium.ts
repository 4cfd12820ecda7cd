import fs from 'node:fs';

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** CHROMIUM_PATH, else the usual system paths; undefined when there is none. */
export function findChromium(env = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return fs.existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return SYSTEM_PATHS.find((candidate) => fs.existsSync(candidate));
}

export const INSTALL_HINT =
  'Install Chromium to run it: `apt-get install -y chromium` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium or Chrome binary.';
