import { coverageShrinksOn, headsToRecheck, type OpenHead } from '../../core/release/session-coverage.js';

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const head = (sha: string, ...arrivals: [number, string][]): OpenHead => ({
  head_sha: sha.repeat(40),
  installation_id: 7,
  arrivals: arrivals.map(([minutes, branch]) => ({ branch, arrived_at: at(minutes) })),
});
const shas = (heads: OpenHead[]) => heads.map((h) => h.head_sha[0]);

describe('which session changes re-post check runs, and of which heads (core/release/session-coverage.ts)', () => {
  it('a denial under a blocking policy, an end other than compliant and a cancellation shrink coverage; the rest do not', () => {
    expect(coverageShrinksOn({ denied: 'blocking' })).toBe(true);
    expect(coverageShrinksOn({ denied: 'warning' })).toBe(false);
    expect(coverageShrinksOn({ ended: 'completed', verdict: 'non_compliant' })).toBe(true);
    expect(coverageShrinksOn({ ended: 'cancelled', verdict: null })).toBe(true);
    expect(coverageShrinksOn({ ended: 'completed', verdict: 'compliant' })).toBe(false);
  });

  it('the heads that arrived in the session window (grace included), on its branch, and not before it opened', () => {
    const open = { branch: null, started_at: at(0), finished_at: null, expires_at: at(60) };
    const heads = [head('a', [10, 'x']), head('b', [-1, 'x'], [10, 'y']), head('c', [64, 'x']), head('d', [66, 'x']), head('e')];
    expect(shas(headsToRecheck(open, heads))).toEqual(['a', 'c']);
    const closed = { ...open, branch: 'refs/heads/y', finished_at: at(20) };
    expect(shas(headsToRecheck(closed, [head('a', [10, 'x']), head('f', [10, 'y']), head('g', [26, 'y'])]))).toEqual(['f']);
  });
});
