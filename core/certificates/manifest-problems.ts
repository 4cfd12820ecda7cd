import { canonicalJson } from '../canonical-json.js';
import type { InTotoStatement } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function extraFields(value: unknown, allowed: readonly string[], where: string): string[] {
  if (!isObject(value)) return [`${where} is not an object`];
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => `unsigned field ${where}.${key}: only ${allowed.join(', ')} may sit there`);
}

/**
 * The manifest is the one part of a package no manifest digest covers (docs/attestations.md,
 * "What the verifier refuses"), so it may hold only what the signature vouches for: `members`,
 * a copy of the signed subjects (the same, in order), and `envelope`, whose payload and type
 * are signed and whose signatures are the signature. Anything else in it would read as part of
 * the package without being signed. `statement` is the verified manifest statement.
 */
export function manifestProblems(pkg: Record<string, unknown>, statement: InTotoStatement): string[] {
  const manifest = pkg.manifest as Record<string, unknown>;
  const problems = extraFields(manifest, ['members', 'envelope'], 'manifest');
  problems.push(...extraFields(manifest.envelope, ['payloadType', 'payload', 'signatures'], 'manifest.envelope'));
  const signatures = (manifest.envelope as { signatures?: unknown[] }).signatures ?? [];
  signatures.forEach((s, i) => problems.push(...extraFields(s, ['keyid', 'sig'], `manifest.envelope.signatures[${i}]`)));
  const signed = statement.subject.map((s) => ({ name: s.name, sha256: s.digest?.sha256 }));
  if (canonicalJson(manifest.members ?? null) !== canonicalJson(signed)) problems.push('members list differs from the signed manifest');
  if (new Set(signed.map((s) => s.name)).size !== signed.length) problems.push('the signed manifest names a member twice');
  const predicate = statement.predicate;
  if (predicate.member_count !== signed.length) problems.push('the signed member_count differs from the signed members');
  for (const field of ['package_id', 'generated_at'])
    if (predicate[field] !== (pkg[field] ?? null)) problems.push(`the signed ${field} differs from the package's ${field}`);
  return problems;
}
