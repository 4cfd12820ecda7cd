import fs from 'node:fs';
import { envVarsReadBy, envVarsReadIn } from './support/config-env-vars.js';
import { CONFIGURATION_DOC, variablesInConfigurationTable } from './support/configuration-table.js';

const LOADER = 'server/load-config.ts';

describe('the configuration table documents every variable the config loader reads', () => {
  const read = envVarsReadBy(LOADER);
  const documented = variablesInConfigurationTable(fs.readFileSync(CONFIGURATION_DOC.file, 'utf8'));

  it(`names each one in ${CONFIGURATION_DOC.file}, "${CONFIGURATION_DOC.heading}"`, () => {
    expect(read.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('names none the loader does not read', () => {
    expect(documented.filter((name) => !read.includes(name))).toEqual([]);
  });

  it(`finds the loader's variables in ${LOADER} itself`, () => {
    expect(read).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'SHIPGATE_TRUST_PROXY', 'APP_ID', 'LOG_LEVEL']));
  });
});

describe('the extractor', () => {
  it('reads the keys of zod object shapes, env.X, env["X"], process.env.X and destructuring, nothing else', () => {
    const source = `
      import { z } from 'zod';
      const schema = z.object({ PORT: z.coerce.number(), 'QUOTED_NAME': z.string(), camelCase: z.string() });
      const more = schema.extend({ EXTENDED_ONE: z.string() });
      export function load(env: Record<string, string | undefined>) {
        const { DESTRUCTURED, renamed: OTHER_NAME } = env;
        const cleanedEnv = { ...env };
        return [env.DIRECT, env['BRACKETED'], process.env.FROM_PROCESS, cleanedEnv.CLEANED, config.NOT_AN_ENV, env.lowercase];
      }`;
    expect(envVarsReadIn(source)).toEqual(
      ['BRACKETED', 'CLEANED', 'DESTRUCTURED', 'DIRECT', 'EXTENDED_ONE', 'FROM_PROCESS', 'PORT', 'QUOTED_NAME'].sort(),
    );
  });

  it('reads the configuration table: backticked names of its first column only, up to the next section', () => {
    const readme = [
      '## Configuration',
      '',
      '| variable | default | meaning |',
      '|---|---|---|',
      '| `PORT`, `HOST` | `3000` | like `NOT_A_ROW_NAME` |',
      '| `APP_ID`, `PRIVATE_KEY` / `PRIVATE_KEY_PATH` | unset | credentials |',
      '',
      '## Next',
      '| `ELSEWHERE` | x | y |',
    ].join('\n');
    expect(variablesInConfigurationTable(readme)).toEqual(['APP_ID', 'HOST', 'PORT', 'PRIVATE_KEY', 'PRIVATE_KEY_PATH']);
  });
});
