/**
 * What `shipgate verify` reads at most (docs/attestations.md, "What the verifier refuses"). Each
 * bound is far above what a real export holds and keeps a hostile file from costing minutes and
 * gigabytes: a real export of a 10,000-call agent session is about 60 MB and 300,000 values.
 */
export const PACKAGE_LIMITS = {
  /** Bytes of a package file, checked before it is read. */
  maxBytes: 256 * 1024 * 1024,
  /** Bytes of a key file (a JWK set is a few hundred bytes a key). */
  maxKeyFileBytes: 16 * 1024 * 1024,
  /** Nesting of arrays and objects: the service refuses JSON nested deeper than 100, and a package wraps records a few levels down. */
  maxDepth: 256,
  /** JSON values (every object, array, string, number, literal) in one file. */
  maxValues: 4_000_000,
  /** Signatures on one DSSE envelope: shipgate signs with one key. */
  maxSignatures: 4,
} as const;
