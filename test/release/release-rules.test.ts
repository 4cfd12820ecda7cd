import { badgeLevel } from '../../core/release/badge-level.js';
import { DEFAULT_GATE, gateDigest, gateSchema } from '../../core/release/gate.js';
import { PROMOTION_TARGETS, transitionRefusal } from '../../core/release/promotion.js';
import { normalizeCommitSha, normalizeRefName, normalizeRepoRoot } from '../../core/release/github-identifiers.js';
import { SNAPSHOT_STATUSES } from '../../core/release/snapshot.js';

describe('repository and commit names', () => {
  it.each([
    ['Acme/Widgets', 'acme/widgets'],
    ['https://github.com/Acme/Widgets', 'acme/widgets'],
    ['https://github.com/acme/widgets.git', 'acme/widgets'],
    ['https://github.com/acme/widgets/', 'acme/widgets'],
    ['acme/my.repo-1_x', 'acme/my.repo-1_x'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeRepoRoot(input)).toBe(expected);
  });

  it.each([
    'acme',
    'acme/widgets/extra',
    '/widgets',
    'acme/',
    'http://github.com/acme/widgets',
    'https://gitlab.com/acme/widgets',
    '-acme/widgets',
    'acme/..',
    'ac me/widgets',
    '',
  ])('refuses %p', (input) => {
    expect(normalizeRepoRoot(input)).toBeNull();
  });

  it('accepts 40 hex characters in any case, stored lower case, and nothing else', () => {
    expect(normalizeCommitSha('ABCDEF0123456789ABCDEF0123456789ABCDEF01')).toBe('abcdef0123456789abcdef0123456789abcdef01');
    for (const bad of ['abc123', 'g'.repeat(40), 'a'.repeat(41), '']) expect(normalizeCommitSha(bad)).toBeNull();
  });

  it('strips refs/heads/ from refs', () => {
    expect(normalizeRefName('refs/heads/main')).toBe('main');
    expect(normalizeRefName('HEAD')).toBe('HEAD');
  });
});

describe('gate', () => {
  it('defaults every field (docs/release-gate.md, "Release gate")', () => {
    expect(DEFAULT_GATE).toEqual({
      required_checks: [],
      skipped_is_success: true,
      required_evidence: [],
      require_reviewed_release: false,
      evidence_max_age_seconds: 7 * 86400,
      attestation_max_age_seconds: 30 * 86400,
      separation_of_duties: false,
      public_badge: true,
      deployment_wait_seconds: 1800,
      environments: {},
      agents: {
        accounts: [],
        coauthor_emails: [],
        bots_are_agents: true,
        not_agents: ['dependabot[bot]', 'renovate[bot]', 'github-actions[bot]', 'shipgate[bot]'],
      },
      agent_changes: { required_human_approvals: 1, dismiss_stale_approvals: true, require_governed_work: true },
      protected_paths: {
        enabled: true,
        paths: ['.github/workflows/**', '.github/actions/**', '.github/shipgate.yml', '**/CODEOWNERS'],
        approvals: 1,
        permission: 'maintain',
      },
      rules: [],
    });
  });

  it('has a digest that depends on content only, not on key order', () => {
    const a = gateSchema.parse({ required_checks: ['ci'], public_badge: false });
    const b = gateSchema.parse({ public_badge: false, required_checks: ['ci'] });
    expect(gateDigest(a)).toBe(gateDigest(b));
    expect(gateDigest(a)).not.toBe(gateDigest(DEFAULT_GATE));
    expect(gateDigest(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses unknown fields, duplicate names and out-of-range ages', () => {
    expect(gateSchema.safeParse({ required_check: ['ci'] }).success).toBe(false);
    expect(gateSchema.safeParse({ required_checks: ['ci', 'ci'] }).success).toBe(false);
    expect(gateSchema.safeParse({ evidence_max_age_seconds: 0 }).success).toBe(false);
    expect(gateSchema.safeParse({ attestation_max_age_seconds: 1.5 }).success).toBe(false);
  });
});

describe('promotion transitions', () => {
  const allowed: [string, string][] = [
    ['candidate', 'attested'],
    ['attested', 'promoted'],
    ['candidate', 'rejected'],
    ['attested', 'revoked'],
    ['promoted', 'revoked'],
  ];

  it('allows exactly the transitions of the "Release gate" section of docs/release-gate.md and explains every refusal', () => {
    for (const from of SNAPSHOT_STATUSES) {
      for (const to of PROMOTION_TARGETS) {
        const refusal = transitionRefusal(from, to);
        const isAllowed = allowed.some(([f, t]) => f === from && t === to);
        expect([from, to, refusal === null]).toEqual([from, to, isAllowed]);
        if (refusal) expect(refusal).toContain(`A ${from} snapshot cannot become ${to}`);
      }
    }
  });
});

describe('badge level', () => {
  it('derives from the latest decision, a private gate and human overrides', () => {
    expect(badgeLevel(null)).toBe('Unknown');
    expect(badgeLevel({ public_badge: null, decision: null, status: null })).toBe('Unknown');
    expect(badgeLevel({ public_badge: null, decision: 'SHIP', status: 'candidate' })).toBe('Assured');
    expect(badgeLevel({ public_badge: true, decision: 'NO_SHIP', status: 'candidate' })).toBe('Blocked');
    expect(badgeLevel({ public_badge: false, decision: 'SHIP', status: 'promoted' })).toBe('Unknown');
    expect(badgeLevel({ public_badge: true, decision: 'SHIP', status: 'revoked' })).toBe('Blocked');
    expect(badgeLevel({ public_badge: true, decision: 'SHIP', status: 'rejected' })).toBe('Blocked');
  });
});
