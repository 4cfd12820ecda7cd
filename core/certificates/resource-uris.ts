/**
 * The URIs shipgate's attestations use for what they point at (docs/attestations.md, "URIs"):
 * the service's own API URLs when SHIPGATE_PUBLIC_URL is set, so a verifier can fetch the
 * resource; otherwise URNs (`urn:shipgate:...`), because the fallback address (HOST:PORT) is
 * local and would put a loopback address into a signed, long-lived statement.
 */
export interface ResourceUris {
  execution(executionId: string): string;
  policy(ref: { name: string; version: number }): string;
  /** A recorded gate version; version 0, the built-in default, has no URL and is always a URN. */
  gate(repoRoot: string, version: number): string;
}

const segment = (value: string | number) => encodeURIComponent(String(value));
const repoPath = (repoRoot: string) => repoRoot.split('/').map(segment).join('/');

export function resourceUris(publicUrl?: string): ResourceUris {
  const urn = {
    execution: (id: string) => `urn:shipgate:execution:${segment(id)}`,
    policy: (ref: { name: string; version: number }) => `urn:shipgate:policy:${segment(ref.name)}:${ref.version}`,
    gate: (repoRoot: string, version: number) => `urn:shipgate:gate:${repoPath(repoRoot)}:${version}`,
  };
  if (!publicUrl) return urn;
  const api = `${publicUrl.replace(/\/$/, '')}/api/v1`;
  return {
    execution: (id) => `${api}/executions/${segment(id)}`,
    policy: (ref) => `${api}/policies/${segment(ref.name)}?version=${ref.version}`,
    gate: (repoRoot, version) =>
      version > 0 ? `${api}/releases/gates/${repoPath(repoRoot)}?version=${version}` : urn.gate(repoRoot, version),
  };
}
