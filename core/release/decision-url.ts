/**
 * The studio's page for a commit's decision: where the check run's "Details", the pull request
 * comment, the deployment review, the API's `decision_url` (and through it the Action and the
 * badge snippet) lead. `publicUrl` is the configured public URL (SHIPGATE_PUBLIC_URL, else
 * http://HOST:PORT), without a trailing slash.
 */
export function decisionUrl(publicUrl: string, repoRoot: string, commitSha: string): string {
  return `${publicUrl}/studio#/releases/${repoRoot}/${commitSha}`;
}
