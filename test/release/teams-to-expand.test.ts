import { MAX_TEAMS_EXPANDED, teamsToExpand } from '../../core/release/teams-to-expand.js';

const rule = (approvers: Record<string, unknown>) => ({ name: 'r', if: {}, require: { approvals: 1, approvers } });
const CODEOWNERS = '# owners\n*.md @docs-writer\ninfra/** @Acme/SRE @ana\n/web/ @acme/frontend # inline comment\n';

describe('which teams a pull request’s read expands', () => {
  it('the teams the rules name, lower-cased, each once', () => {
    const gate = { rules: [rule({ teams: ['acme/sre', 'Acme/Platform'] }), rule({ teams: ['acme/SRE'] }), rule({ users: ['ana'] })] };
    expect(teamsToExpand(gate, CODEOWNERS, ['infra/main.tf'])).toEqual({ expand: ['acme/sre', 'acme/platform'], beyond: [] });
  });

  it('with a rule counting code owners: the teams owning the paths the change touches, not the others', () => {
    const gate = { rules: [rule({ codeowners: true })] };
    expect(teamsToExpand(gate, CODEOWNERS, ['infra/main.tf', 'README.md']).expand).toEqual(['acme/sre']);
    expect(teamsToExpand(gate, CODEOWNERS, ['web/app.js', 'infra/x']).expand).toEqual(['acme/frontend', 'acme/sre']);
    expect(teamsToExpand(gate, null, ['infra/main.tf']).expand).toEqual([]);
    // Without a rule counting code owners, CODEOWNERS names no team to read.
    expect(teamsToExpand({ rules: [rule({ teams: ['acme/dba'] })] }, CODEOWNERS, ['infra/main.tf']).expand).toEqual(['acme/dba']);
  });

  it('a gate without rules (recorded before them) or with rules of unexpected shape expands nothing', () => {
    expect(teamsToExpand({}, CODEOWNERS, ['infra/main.tf'])).toEqual({ expand: [], beyond: [] });
    expect(teamsToExpand({ rules: [null, { require: null }, rule({ teams: 'acme/sre' })] }, null, [])).toEqual({ expand: [], beyond: [] });
  });

  it(`at most ${MAX_TEAMS_EXPANDED} teams; the rest are named as beyond`, () => {
    const teams = Array.from({ length: MAX_TEAMS_EXPANDED + 3 }, (_, i) => `acme/team-${i}`);
    const { expand, beyond } = teamsToExpand({ rules: [rule({ teams })] }, null, []);
    expect(expand).toEqual(teams.slice(0, MAX_TEAMS_EXPANDED));
    expect(beyond).toEqual(teams.slice(MAX_TEAMS_EXPANDED));
  });
});
