import { pullRequestPayload } from '../support/github-deliveries.js';
import { deploymentRulePayload } from '../support/deployment-deliveries.js';
import { checkRun, decide, putGate, sha, upload } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

const SECRET = 'limits-secret';
const stack = useAppWithFakeGitHub({ secret: SECRET, installationId: 77, gate: 'require_reviewed_release: false\n' });

/** GitHub's limits (docs/github-app.md, "Fitting GitHub's limits"), checked here in bytes of UTF-8. */
const SUMMARY_MAX = 65_535;
const COMMENT_MAX = 65_536;
const DEPLOYMENT_COMMENT_MAX = 1_024;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** A unique name of exactly 200 characters (the gate's longest), mostly two-byte ones: 200 characters, ~390 bytes. */
const longName = (kind: string, i: number) => `${kind}-${i}-`.padEnd(200, 'ü');
const CHECKS = Array.from({ length: 100 }, (_, i) => longName('check', i));
const EVIDENCE = Array.from({ length: 100 }, (_, i) => longName('evidence', i));

const posted = (method: string, path: RegExp) =>
  stack.gh.requests.filter((r) => r.method === method && path.test(r.path)).map((r) => r.body as Record<string, unknown>);

/** A commit of `repo` failing every one of the big gate's 100 required checks and 100 required evidence names. */
async function failEverything(repo: string, commit: string) {
  for (const name of CHECKS) await checkRun(stack.t, { repo_root: repo, commit_sha: commit, name, conclusion: 'failure' });
  for (const name of EVIDENCE) await upload(stack.t, { repo_root: repo, commit_sha: commit, name, status: 'failed' });
}

describe('what shipgate posts fits GitHub’s limits', () => {
  const repo = 'acme/huge-gate';
  const head = sha('huge-gate-head');
  const link = `https://shipgate.example/studio#/releases/${repo}/${head}`;

  beforeAll(async () => {
    // The biggest gate the schema allows, about 79 KB as YAML, is over a gate file's 64 KiB (docs/github-app.md, "Gate
    // file"): it is set through the API, and the repository, the App installed, has no gate file.
    stack.gh.app.installations.set(repo, 77);
    stack.gh.repos.commit(repo, { files: { 'README.md': `${repo}\n` } });
    await putGate(stack.t, repo, { require_reviewed_release: false, required_checks: CHECKS, required_evidence: EVIDENCE });
    await failEverything(repo, head);
  });

  /** How many blockers a report does not show: the decision's count minus the table's rows. */
  async function notShown(report: string) {
    const { blockers } = await decide(stack.t, repo, head);
    const shown = report.split('\n').filter((line) => line.startsWith('| `')).length;
    expect(blockers.length).toBe(200);
    expect(shown).toBeGreaterThan(0);
    return blockers.length - shown;
  }

  it('100 failing checks and 100 failing evidence names of 200 characters: the check run summary and the comment fit, say what is left out and link to the decision', async () => {
    stack.gh.requests.length = 0;
    await stack.send('pull_request', pullRequestPayload('opened', { number: 3, sha: head }, repo));

    const [checkRunBody] = posted('POST', /\/check-runs$/);
    const output = checkRunBody.output as { title: string; summary: string };
    expect(checkRunBody.conclusion).toBe('failure');
    expect(bytes(output.summary)).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(bytes(output.summary)).toBeGreaterThan(SUMMARY_MAX - 2_000); // filled, not cut short
    // Nothing else rides in the output: no text, and no annotations (GitHub takes at most 50 per request).
    expect(Object.keys(output).sort()).toEqual(['summary', 'title']);
    const hiddenInSummary = await notShown(output.summary);
    expect(hiddenInSummary).toBeGreaterThan(0);
    expect(output.summary).toContain(`and ${hiddenInSummary} more blockers not shown here: [the full decision](${link})`);

    const [commentBody] = posted('POST', /\/issues\/3\/comments$/);
    const body = String(commentBody.body);
    expect(bytes(body)).toBeLessThanOrEqual(COMMENT_MAX);
    const hiddenInComment = await notShown(body);
    expect(hiddenInComment).toBeGreaterThan(0);
    expect(body).toContain(`and ${hiddenInComment} more blockers not shown here: [the full decision](${link})`);
    // GitHub took both (the fake keeps what it accepted).
    expect(stack.gh.app.checkRunsOn(repo, head)).toHaveLength(1);
    expect(stack.gh.app.commentsOn(repo, 3)).toHaveLength(1);
  });

  it('the deployment review of such a commit fits in 1,024 bytes and keeps the link to the decision', async () => {
    const payload = deploymentRulePayload(repo, { sha: head, environment: 'staging', runId: 7001 });
    await stack.send('deployment_protection_rule', payload);
    const [review] = stack.gh.deployments.reviewsOf(repo, 7001);
    expect(review.state).toBe('rejected');
    expect(bytes(review.comment)).toBeLessThanOrEqual(DEPLOYMENT_COMMENT_MAX);
    expect(review.comment).toContain('NO_SHIP: 200 blockers');
    expect(review.comment).toMatch(/\(and \d+ more\)/);
    expect(review.comment.endsWith(`Decision: ${link}`)).toBe(true);
  });
});
