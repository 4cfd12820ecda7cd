import { PROBE_RULES, ruleIndex } from './support/probe-rules.js';

// Launchers, remote shells and multiplexers a security probe ran `git push --force` behind, past the rules docs/agent-hooks.md gives as examples.
const FORCE_PUSH = PROBE_RULES.findIndex((r) => r.match.command === 'git push --force*');

describe('a command run behind a launcher is read as that command (core/hooks/package-runners.ts)', () => {
  it.each([
    'pkexec git push --force',
    'chroot / git push --force',
    'unshare -r git push --force',
    'firejail --quiet git push --force',
    'systemd-run --user git push --force',
    'chrt 1 git push --force',
    'taskset -c 0 git push --force',
    'faketime now git push --force',
    'caffeinate -i git push --force',
    'proxychains4 -q git push --force',
    'torsocks git push --force',
    'valgrind --tool=none git push --force',
    'gdb -batch -ex run --args git push --force',
    'lldb -- git push --force',
    'screen -dm git push --force',
    'docker exec -it -u root c git push --force',
    'kubectl exec -n x p -c y -- git push --force',
    'hub push --force',
  ])('%j', (command) => {
    expect(ruleIndex(command)).toBe(FORCE_PUSH);
  });

  it.each(['chrt -p 1234', 'gdb ./a.out', 'docker ps', 'docker run --rm node npm test', 'hub push origin main'])(
    '%j runs no forced push',
    (command) => {
      expect(ruleIndex(command)).toBeNull();
    },
  );
});

describe('a shell line a program is handed as words of its own (core/hooks/handed-scripts.ts)', () => {
  it.each([
    'ssh localhost "git push --force"',
    'ssh -p 22 -i key host git push --force',
    'sg wheel -c "git push --force"',
    'sg wheel "git push --force"',
    'tmux new-session -d "git push --force"',
    'tmux new -d -s x git push --force',
    'tmux send-keys -t 0 "git push --force" Enter',
    'tmux -c "git push --force"',
    'parallel -j2 ::: ls "git push --force"',
    'at now <<< "git push --force"',
    'echo "git push --force" | at now',
    'socat - EXEC:"git push --force"',
    "shopt -s expand_aliases; alias p='git push --force'\np origin main",
    'npm pkg set scripts.ship="git push --force" && npm run ship',
    'npm set-script ship "git push --force"',
    'socat - SYSTEM:"git push --force",pty,stderr',
    // Commands ssh's, scp's, sftp's and rsync's options run here.
    'ssh -o ProxyCommand="git push --force" host',
    'ssh -o "ProxyCommand git push --force" host',
    'ssh -o PermitLocalCommand=yes -o LocalCommand="git push --force" host',
    'scp -o ProxyCommand="git push --force" a host:b',
    'scp -S "git push --force" a host:b',
    'sftp -oKnownHostsCommand="git push --force" host',
    'rsync -e "git push --force" a host:b',
    'rsync --rsh="git push --force" a host:b',
    'GIT_SSH_COMMAND="ssh -o ProxyCommand=\\"git push --force\\"" git fetch',
  ])('%j', (command) => {
    expect(ruleIndex(command)).toBe(FORCE_PUSH);
  });

  it.each([
    'ssh host',
    'tmux ls',
    'parallel echo ::: a b',
    'at -f job.sh now',
    'socat TCP-LISTEN:8080 EXEC:/bin/ls',
    "alias ll='ls -la'",
    'npm pkg set version=2.0.0',
  ])('%j hands over no forced push', (command) => {
    expect(ruleIndex(command)).toBeNull();
  });
});

describe("an alias of git's own commands", () => {
  it.each([
    'git -c alias.x="push --force" x',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="push -f" git x',
    'git config alias.x "push --force"',
  ])('%j runs or stores a forced push', (command) => {
    expect(ruleIndex(command)).toBe(FORCE_PUSH);
  });

  it.each(['git -c alias.x="push --force" status', 'git config alias.st status'])('%j runs none', (command) => {
    expect(ruleIndex(command)).toBeNull();
  });
});

describe("an editor's or expect's command-line commands (core/hooks/editor-commands.ts)", () => {
  it.each([
    [`vim -c '!git push --force' notes.txt`, 0],
    [`nvim --cmd '!git push --force'`, 0],
    [`ex -sc 'silent !git push --force|q'`, 0],
    [`vim -es -c 'call system("git push --force")' -c q`, 0],
    [`vim +'r !cat .env' notes.txt`, 1],
    [`emacs --batch --eval '(shell-command "git push --force")'`, 0],
    [`emacs --eval='(shell-command-to-string "cat .env")'`, 1],
    [`expect -c 'spawn git push --force; expect eof'`, 0],
    [`expect -c 'spawn -noecho cat .env'`, 1],
    [`expect -c 'set out [exec git push --force]'`, 0],
  ])('%j runs the shell line it names', (command, index) => {
    expect(ruleIndex(command)).toBe(index);
  });

  it.each([`vim -c 'wq' notes.txt`, 'vim +10 notes.txt', `vim -c ':q!' notes.txt`, `emacs --eval '(message "hi")'`, `expect -c 'send hi'`])(
    '%j runs none',
    (command) => {
      expect(ruleIndex(command)).toBeNull();
    },
  );
});
