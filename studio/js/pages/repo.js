import { ApiError } from '../api.js';
import { field, h, link, replace } from '../dom.js';
import { commitsSection, gateSection, historySection, pullRequestsSection, releasesSection } from './repo-parts.js';
import { overridesSection } from './repo-overrides.js';

/** @import { View } from '../../types.js' */

/** `owner/repo` from what people paste: a name, a GitHub URL, with or without `.git`. */
const repoRootOf = (/** @type {string} */ text) =>
  text
    .trim()
    .replace(/^https?:\/\/github\.com\//i, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');

/**
 * #/repos: no API lists the repositories shipgate knows, so this is a lookup by name.
 * @param {View} view
 */
export function repoLookupPage(view) {
  const repo = h('input', { name: 'repo_root', placeholder: 'owner/repo', required: true });
  repo.addEventListener('input', () => repo.setCustomValidity(''));
  const form = h(
    'form.card',
    { id: 'repo-lookup' },
    h('h1', {}, 'Repositories'),
    h('p', {}, 'A repository’s gate, recent commits with their decisions, latest releases and how its decisions evolved.'),
    field('Repository', repo, 'owner/repo or its GitHub URL'),
    h('button', { type: 'submit' }, 'Show repository'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const root = repoRootOf(repo.value);
    if (!/^[^/\s]+\/[^/\s]+$/.test(root)) {
      repo.setCustomValidity('Name a repository as owner/repo.');
      repo.reportValidity();
      return;
    }
    view.go(`#/repos/${root}`);
  });
  replace(view.root, form);
}

/**
 * A section that shows its own failure instead of failing the page (e.g. an API this server lacks).
 * @param {string} id
 * @param {() => Promise<Node>} build
 */
async function section(id, build) {
  try {
    return await build();
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    const message =
      error instanceof ApiError && error.status === 404
        ? 'This server does not answer this yet.'
        : String(/** @type {Error} */ (error).message);
    return h('p.error', { id }, message);
  }
}

/**
 * #/repos/<owner>/<repo>: what shipgate knows of one repository.
 * @param {View} view
 * @param {Record<string, string>} params
 */
export async function repoPage(view, { owner, repo }) {
  const repoRoot = `${owner}/${repo}`.toLowerCase();
  const { signal } = view;
  const [gate, releases, commits, history, pulls, overrides] = await Promise.all([
    section('gate', () => gateSection(repoRoot, signal)),
    section('releases', () => releasesSection(repoRoot, signal)),
    section('commits', () => commitsSection(view, repoRoot)),
    section('history', () => historySection(repoRoot, signal)),
    section('pull-requests', () => pullRequestsSection(repoRoot, signal)),
    section('overrides', () => overridesSection(view, repoRoot)),
  ]);
  replace(
    view.root,
    h('h1', {}, repoRoot),
    h('p.muted', {}, link('#/repos', 'Another repository')),
    h('h2', {}, 'Gate in force'),
    gate,
    h('h2', {}, 'Latest releases'),
    releases,
    h('h2', {}, 'Decisions over time'),
    history,
    h('h2', {}, 'Recent commits'),
    commits,
    h('h2', {}, 'Pull requests'),
    pulls,
    h('h2', {}, 'Overrides'),
    overrides,
  );
}
