import { canonicalDigest } from '../canonical-json.js';
import { AUDIT_PACKAGE_PREDICATE } from './predicate-types.js';
import { IN_TOTO_STATEMENT_TYPE, type DsseEnvelope, type Signer } from './types.js';

export interface PackageMember {
  name: string;
  sha256: string;
}

export interface PackageManifest {
  /** Every top-level member of the package but the manifest, with the digest of its canonical JSON. */
  members: PackageMember[];
  /** The same list signed: an in-toto statement whose subjects are the members. */
  envelope: DsseEnvelope;
}

export type SignedPackage<T> = T & { manifest: PackageManifest };

/** The members of a package, as the manifest lists them (sorted by name). */
export function packageMembers(body: Record<string, unknown>): PackageMember[] {
  return Object.keys(body)
    .filter((name) => name !== 'manifest' && body[name] !== undefined)
    .sort()
    .map((name) => ({ name, sha256: canonicalDigest(body[name]) }));
}

/**
 * Adds a signed manifest to an audit package, so that removing, adding or altering any
 * member is detectable offline with only the public key (`shipgate verify`).
 */
export function signPackage<T extends Record<string, unknown>>(body: T, signer: Signer): SignedPackage<T> {
  const members = packageMembers(body);
  const envelope = signer.sign({
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: members.map((m) => ({ name: m.name, digest: { sha256: m.sha256 } })),
    predicateType: AUDIT_PACKAGE_PREDICATE,
    predicate: { package_id: body.package_id ?? null, generated_at: body.generated_at ?? null, member_count: members.length },
  });
  return { ...body, manifest: { members, envelope } };
}
