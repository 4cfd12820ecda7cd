import type { ReviewFacts } from '../../../core/release/authorship.js';

/**
 * Reviews of `head` in the order they are made: each a minute after the last, by a User with write permission unless
 * `over` says otherwise.
 */
export function reviewsOf(head: string): (login: string, state: string, over?: Partial<ReviewFacts>) => ReviewFacts {
  let ids = 1;
  return (login, state, over = {}) => {
    const id = ids++;
    return {
      id,
      login,
      type: 'User',
      state,
      commit_id: head,
      submitted_at: new Date(Date.UTC(2026, 0, 1, 0, id)).toISOString(),
      permission: 'write',
      ...over,
    };
  };
}
