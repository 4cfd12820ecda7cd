import { koaPath } from '../../api/mount-routes.js';
import { operationId } from '../../api/openapi-document.js';
import { nextCursor } from '../../app/octokit-recovery-github.js';
import { oneLine } from '../../core/github/one-line.js';
import { coAuthorTrailers } from '../../core/release/co-author-trailers.js';
import { withoutTrailingSlashes } from '../../core/without-trailing-slashes.js';
import { redactSecret } from '../../llm/to-provider-error.js';

/**
 * The regexes the super-linear checkers flagged, rewritten to run in linear time
 * (docs/operations.md, "Regular expressions"): each still gives the answers it gave, and answers
 * recheck's attack string (or one like it) at once. The old regexes took 3-14 s on these inputs on
 * the 2-core development machine; the rewrites take under 10 ms, so 500 ms holds on a loaded one.
 */
const FAST_MS = 500;

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

describe('regexes rewritten to run in linear time', () => {
  it('koaPath: an OpenAPI path in Koa syntax; braces that never close cost one pass', () => {
    expect(koaPath('/api/v1/releases/gates/{owner}/{repo}')).toBe('/api/v1/releases/gates/:owner/:repo');
    expect(koaPath('/a/{}/b')).toBe('/a/{}/b');
    expect(timed(() => koaPath('{\x00'.repeat(38_730))).ms).toBeLessThan(FAST_MS);
  });

  it('operationId: the method and the path in camel case, as before, also where a run of separators ends in `_`', () => {
    expect(operationId({ method: 'post', path: '/api/v1/releases/github-webhook' })).toBe('postApiV1ReleasesGithubWebhook');
    expect(operationId({ method: 'get', path: '/api/v1/agent-sessions/{session_id}/calls' })).toBe('getApiV1AgentSessionsSessionIdCalls');
    // The old regex backtracked into the run and took its `_` as the word character; so does the new one.
    expect(operationId({ method: 'get', path: '/a__' })).toBe('getA_');
    expect(operationId({ method: 'get', path: '/a-_-' })).toBe('getA_-');
    expect(timed(() => operationId({ method: 'get', path: '-'.repeat(54_773) + '\x00-0' })).ms).toBeLessThan(FAST_MS);
  });

  it("nextCursor: the next page's cursor from GitHub's Link header; a run of `<` costs one pass", () => {
    const link =
      '<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_12>; rel="next", <https://api.github.com/app/hook/deliveries?per_page=100>; rel="first"';
    expect(nextCursor(link)).toBe('v1_12');
    expect(nextCursor('<https://api.github.com/x?cursor=a>; rel="first"')).toBeNull();
    expect(nextCursor(undefined)).toBeNull();
    expect(timed(() => nextCursor('<"'.repeat(38_730))).ms).toBeLessThan(FAST_MS);
  });

  it('coAuthorTrailers: name and e-mail as before; blanks around the name cost one pass', () => {
    expect(coAuthorTrailers('x\n\nCo-authored-by: \t Helper Bot \t <helper@agents.example>\t')).toEqual([
      { name: 'Helper Bot', email: 'helper@agents.example' },
    ]);
    expect(coAuthorTrailers('co-AUTHORED-by:<only@mail.example>')).toEqual([{ name: '', email: 'only@mail.example' }]);
    expect(coAuthorTrailers('Co-authored-by: No Mail')).toEqual([{ name: 'No Mail', email: null }]);
    expect(coAuthorTrailers('Co-authored-by: Empty <>')).toEqual([{ name: 'Empty', email: null }]);
    expect(coAuthorTrailers('Co-authored-by: Spaced <a b@c>')).toEqual([{ name: 'Spaced <a b@c>', email: null }]);
    expect(coAuthorTrailers('Co-authored-by: After <a@b> tail')).toEqual([{ name: 'After <a@b> tail', email: null }]);
    expect(coAuthorTrailers('Co-authored-by: <>')).toEqual([]);
    // A line separator inside the trailer: `.` never matched it, so the line is no trailer.
    expect(coAuthorTrailers('Co-authored-by: A\u2028B <a@b>')).toEqual([]);
    const blanks = 'Co-authored-by:' + ' \t'.repeat(800) + 'x' + ' \t'.repeat(800) + '<a b>';
    const { result, ms } = timed(() => coAuthorTrailers(blanks));
    expect(result).toEqual([{ name: `x${' \t'.repeat(800)}<a b>`, email: null }]);
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('redactSecret: key-shaped words and words holding *** are removed as before; a long word costs one pass', () => {
    expect(redactSecret('Incorrect API key provided: sk-ab***xyz. See docs', '')).toBe('Incorrect API key provided: [redacted] See docs');
    expect(redactSecret('key=sk-ant-api03-abcdef and sg_abcdefgh, not sk-abc', '')).toBe('key=[redacted] and [redacted] not sk-abc');
    expect(redactSecret('my-secret-key failed', 'secret')).toBe('my-[redacted]-key failed');
    expect(timed(() => redactSecret('**\x00'.repeat(31_623) + '**\t***', '')).ms).toBeLessThan(FAST_MS);
  });

  it('oneLine: a run of white space holding a line feed becomes one space, other runs stay; a long run costs one pass', () => {
    expect(oneLine('a \r\n\t b\n\nc  d\r e')).toBe('a b c  d\r e');
    expect(timed(() => oneLine('\t'.repeat(54_773) + '\x00\n')).ms).toBeLessThan(FAST_MS);
  });

  it('withoutTrailingSlashes: every slash at the end goes; a run of slashes in the middle costs one pass', () => {
    expect(withoutTrailingSlashes('https://token.actions.githubusercontent.com//')).toBe('https://token.actions.githubusercontent.com');
    expect(withoutTrailingSlashes('https://a.example/path')).toBe('https://a.example/path');
    expect(withoutTrailingSlashes('///')).toBe('');
    expect(timed(() => withoutTrailingSlashes('/'.repeat(54_773) + '\x00/')).ms).toBeLessThan(FAST_MS);
  });
});
