import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../support/test-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

/**
 * Redocly's `recommended` ruleset, plus the rules it leaves off that other linters (Spectral's
 * `spectral:oas`) flagged on this document: see docs/api.md, "Linting /openapi.json".
 */
const CONFIG = `extends: [recommended]
rules:
  operation-description: error
  operation-tag-defined: error
  tag-description: error
  info-contact: error
`;

// Without these the CLI sends usage telemetry and asks the npm registry for a newer version.
const OFFLINE = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

/** Every problem the Redocly CLI finds in `document`, as `severity rule pointer: message`. */
function lint(document: unknown): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
  try {
    fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document));
    fs.writeFileSync(path.join(dir, 'redocly.yaml'), CONFIG);
    const { NODE_OPTIONS: _jestOnly, ...env } = process.env;
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', '--config', 'redocly.yaml', 'openapi.json', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...env, ...OFFLINE },
    });
    if (!run.stdout.trim().startsWith('{')) throw new Error(`redocly lint gave no report (exit ${run.status}): ${run.stderr}`);
    const problems = (JSON.parse(run.stdout) as { problems: Problem[] }).problems;
    return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Document {
  info: { license?: { identifier?: string } };
  paths: Record<
    string,
    Record<string, { description?: string; responses: Record<string, { headers?: Record<string, { schema?: unknown }> }> }>
  >;
}

let doc: Document;
beforeAll(async () => {
  const t = await createTestApp();
  try {
    const res = await t.request.get('/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  } finally {
    await t.close();
  }
});

describe('/openapi.json under Redocly CLI lint', () => {
  it('has no problem at all (recommended, plus declared tags, descriptions and a contact)', () => {
    expect(lint(doc)).toEqual([]);
  });

  it('reports a header without a schema, an operation without a description and a missing licence', () => {
    const broken = structuredClone(doc);
    broken.paths['/api/v1/users'].get.responses['200'].headers!.Link.schema = undefined;
    broken.paths['/api/v1/auth/me'].get.description = undefined;
    broken.info.license = undefined;
    const problems = lint(JSON.parse(JSON.stringify(broken)));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error struct #\/paths\/~1api~1v1~1users\/get\/responses\/200\/headers\/Link: .*schema/),
        expect.stringMatching(/^error operation-description #\/paths\/~1api~1v1~1auth~1me\/get\/description/),
        expect.stringMatching(/^warn info-license #\/info: /),
      ]),
    );
  });

  it('carries the licence package.json declares', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect(doc.info.license?.identifier).toBe(pkg.license);
  });
});
