import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = parse(fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
const source = fs
  .readdirSync(path.join(ROOT, 'action/src'))
  .map((file) => fs.readFileSync(path.join(ROOT, 'action/src', file), 'utf8'))
  .join('\n');

it('action.yml runs the committed bundle on node24, with branding', () => {
  expect(manifest.runs).toEqual({ using: 'node24', main: 'action/dist/index.js' });
  expect(manifest.branding).toEqual({ icon: expect.any(String), color: expect.any(String) });
});

it('declares every input the Action reads and every output it sets, and only those', () => {
  const read = [...source.matchAll(/input\('([a-z-]+)'\)|whole\('([a-z-]+)'|flag\('([a-z-]+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  const set = [...source.matchAll(/setOutput\('([a-z-]+)'/g)].map((m) => m[1]);
  expect(Object.keys(manifest.inputs).sort()).toEqual([...new Set(read)].sort());
  expect(Object.keys(manifest.outputs).sort()).toEqual([...new Set(set)].sort());
  expect(Object.keys(manifest.inputs)).toEqual([
    'api-url',
    'api-key',
    'audience',
    'repository',
    'commit-sha',
    'wait-timeout',
    'poll-interval',
    'fail-on-no-ship',
    'decide',
    'evidence-name',
    'evidence-kind',
    'evidence-status',
    'evidence-file',
    'evidence-format',
    'evidence-uri',
    'mode',
    'servers',
    'agent',
    'compliance-policy',
    'permissions',
    'expires-in',
  ]);
  expect(Object.keys(manifest.outputs).sort()).toEqual([
    'blockers',
    'decision',
    'decision-url',
    'execution-id',
    'mcp-url',
    'session-id',
    'snapshot-id',
    'token',
  ]);
});

it('declares the same defaults the Action applies when an input is absent', () => {
  const defaults = Object.fromEntries(
    Object.entries(manifest.inputs as Record<string, { default?: string }>).map(([k, v]) => [k, v.default]),
  );
  expect(defaults).toMatchObject({
    audience: 'shipgate',
    'wait-timeout': '0',
    'poll-interval': '10',
    'fail-on-no-ship': 'true',
    decide: 'true',
    'evidence-status': 'passed',
    mode: 'gate',
  });
  expect(source).toContain("input('mode') ?? 'gate'");
  expect(source).toContain("input('audience') ?? 'shipgate'");
  expect(source).toContain("whole('wait-timeout', 0, 0)");
  expect(source).toContain("whole('poll-interval', 10, 1)");
  expect(source).toContain("flag('fail-on-no-ship', true)");
  expect(source).toContain("flag('decide', true)");
  expect(source).toContain("input('evidence-status') ?? 'passed'");
  expect(manifest.inputs['api-url'].required).toBe(true);
});
