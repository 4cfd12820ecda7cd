import type { FakeCreatedApp } from '../../fakes/fake-github-manifest-routes.js';
import type { FakeGitHub } from '../../fakes/fake-github-server.js';
import type { TestApp } from '../../support/test-app.js';

/**
 * An ADMIN registers the GitHub App from the studio (docs/github-app.md, "Register the App from
 * the studio"): the manifest form, the owner's confirmation on the fake GitHub, and GitHub's
 * redirect back with the code. Answers the App GitHub created.
 */
export async function registerAppFromStudio(t: TestApp, gh: FakeGitHub): Promise<FakeCreatedApp> {
  const form = await t.request.get('/api/v1/github/app/manifest').set(t.admin.auth).expect(200);
  const { code, app } = gh.manifests.confirm(form.body.manifest);
  await t.request
    .get('/api/v1/github/app/manifest/callback')
    .set('Accept', 'application/json')
    .query({ code, state: form.body.state })
    .expect(200);
  return app;
}
