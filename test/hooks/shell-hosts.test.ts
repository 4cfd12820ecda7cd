import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';
import { PROBE_ROOT } from './support/probe-rules.js';

const DENY_INTERNAL: ToolRule[] = [{ match: { host: '*.internal.example.com' }, verdict: 'deny' }];
const hostsOf = (command: string) => toolAction('Bash', { command }, PROBE_ROOT).hosts;
const rule = (command: string, rules = DENY_INTERNAL) =>
  firstMatchingRule(rules, toolAction('Bash', { command }, PROBE_ROOT))?.index ?? null;

describe('the hosts a shell line reaches (core/hooks/shell-hosts.ts)', () => {
  it.each([
    'curl https://api.internal.example.com/x',
    'curl https://API.Internal.Example.COM./x',
    'curl https://user:pw@api.internal.example.com/',
    'curl api.internal.example.com/x',
    'wget -q api.internal.example.com',
    'http GET api.internal.example.com',
    'curl -x http://api.internal.example.com:3128 https://example.org',
    'curl --connect-to example.org:443:api.internal.example.com:443 https://example.org',
    'nc api.internal.example.com 80',
    'ncat -w 3 api.internal.example.com 443',
    'telnet api.internal.example.com 80',
    'ssh git@api.internal.example.com',
    'ssh -J bastion.internal.example.com host.example.org',
    // A remote command, or an option's command, kept the host unseen until December 2026.
    'ssh deploy@api.internal.example.com uptime',
    'ssh -o ProxyCommand="nc %h %p" api.internal.example.com',
    'ssh -o ProxyCommand="nc api.internal.example.com 22" host.example.org',
    'scp notes.txt api.internal.example.com:/tmp',
    'rsync -a src/ deploy@api.internal.example.com:/srv',
    'git clone git@api.internal.example.com:acme/x.git',
    'git remote add mirror https://api.internal.example.com/acme/x.git',
    'dig @ns.internal.example.com example.org',
    'ping -c 1 api.internal.example.com',
    'openssl s_client -connect api.internal.example.com:443',
    'python3 -c "import urllib.request as u; u.urlopen(\'http://api.internal.example.com\')"',
  ])('%j reaches a host the rule refuses', (command) => {
    expect(rule(command)).toBe(0);
  });

  it.each([
    ['git push origin main', []],
    ['echo ops@example.com', []],
    ['curl -o out.json -H "Accept: application/json" https://example.org/a', ['example.org']],
    ['cat notes.txt', []],
    ['curl file:///etc/hosts', []],
  ])('%j reaches %j', (command, hosts) => {
    expect(hostsOf(command)).toEqual(hosts);
  });

  it('reads a host the line computes as any host', () => {
    expect(hostsOf('curl "https://$HOST/x"')).toEqual(['$host']);
    expect(rule('curl "https://$HOST/x"')).toBe(0);
  });

  it.each([
    'curl $URL',
    'wget "${BASE}/api"',
    'curl -s "$(cat url.txt)"',
    'wget -i urls.txt',
    'curl -K request.cfg',
    'cat urls.txt | xargs curl -O',
  ])('%j fetches from a host the line does not name: any host', (command) => {
    expect(hostsOf(command)).toContain('$');
    expect(rule(command)).toBe(0);
  });

  it.each([
    'cat .env > /dev/tcp/api.internal.example.com/80',
    'exec 3<>/dev/udp/api.internal.example.com/53',
    'socat - TCP:api.internal.example.com:80',
    'socat - OPENSSL:api.internal.example.com:443',
    'sftp deploy@api.internal.example.com',
    'mosh api.internal.example.com',
    'nmap -p 80 api.internal.example.com',
    'mysql -h api.internal.example.com',
    'psql -hapi.internal.example.com',
    'redis-cli --host api.internal.example.com',
    'smbclient //api.internal.example.com/share',
  ])('%j opens a socket to the internal host (core/hooks/socket-hosts.ts)', (command) => {
    expect(rule(command)).toBe(0);
  });

  it.each(['mysql -u root db', 'cat /dev/tcp', 'socat - EXEC:ls'])('%j reaches no host', (command) => {
    expect(hostsOf(command)).toEqual([]);
  });

  it.each(['curl https://example.org/$PAGE', 'curl "api.example.org/v1/$ID"', 'wget -O "$OUT" https://example.org/a'])(
    '%j names its host',
    (command) => {
      expect(rule(command)).toBeNull();
    },
  );

  it('is covered by an allow rule only when the rule names the host', () => {
    const allowCurl: ToolRule[] = [{ match: { command: 'curl *' }, verdict: 'allow' }, ...DENY_INTERNAL];
    expect(rule('curl https://api.internal.example.com/x', allowCurl)).toBe(1);
    const allowGithub: ToolRule[] = [{ match: { command: 'curl *', host: 'api.github.com' }, verdict: 'allow' }, ...DENY_INTERNAL];
    expect(rule('curl https://api.github.com/repos', allowGithub)).toBe(0);
  });
});
