import { UnavailableError, ValidationError } from '../../core/errors.js';
import { groupCommit } from '../../db/group-commit.js';

/** A commit function that records each batch and waits until the test lets it finish. */
function recordingCommit(fail: (item: string) => Error | null = () => null) {
  const batches: string[][] = [];
  const release: (() => void)[] = [];
  const commit = async (items: string[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => release.push(resolve));
    const failure = items.map(fail).find(Boolean);
    if (failure) throw failure;
    return items.map((item) => item.toUpperCase());
  };
  const finishAll = async () => {
    while (release.length > 0) {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, commit, finishAll };
}

describe('groupCommit', () => {
  it('commits a lone write at once, and the writes that arrive meanwhile together in the next commit', async () => {
    const { batches, commit, finishAll } = recordingCommit();
    const write = groupCommit(commit);
    const first = write('a');
    const rest = ['b', 'c', 'd'].map(write);
    expect(batches).toEqual([['a']]);
    const done = Promise.all([first, ...rest]);
    await finishAll();
    await new Promise((resolve) => setImmediate(resolve));
    await finishAll();
    expect(await done).toEqual(['A', 'B', 'C', 'D']);
    expect(batches).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('retries each write of a failed batch alone, so only the unstorable one fails', async () => {
    const bad = (item: string) => (item === 'bad' ? ValidationError.single(['request'], 'unstorable', 'unstorable_value') : null);
    const { batches, commit, finishAll } = recordingCommit(bad);
    const write = groupCommit(commit);
    const results = [write('a'), write('b'), write('bad'), write('c')].map((p) =>
      p.then(
        (v) => v,
        (e: Error) => e,
      ),
    );
    for (let i = 0; i < 10; i += 1) await finishAll();
    const settled = await Promise.all(results);
    expect(settled.slice(0, 2)).toEqual(['A', 'B']);
    expect(settled[2]).toBeInstanceOf(ValidationError);
    expect(settled[3]).toBe('C');
    expect(batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('fails every write of a batch at once when the database is unreachable', async () => {
    const { batches, commit, finishAll } = recordingCommit(() => new UnavailableError('Database unavailable.'));
    const write = groupCommit(commit);
    const results = ['a', 'b', 'c'].map((item) => write(item).catch((e: Error) => e));
    for (let i = 0; i < 5; i += 1) await finishAll();
    for (const result of await Promise.all(results)) expect(result).toBeInstanceOf(UnavailableError);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });
});
