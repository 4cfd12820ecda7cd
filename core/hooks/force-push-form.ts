/**
 * `git push` spells a force many ways: `--force`, `-f` (alone or in a cluster: `-fu`), a refspec
 * led by `+` (`git push origin +main`), `--force-with-lease`, `--mirror`, a `remote.*.push`
 * refspec with `+` set by `git -c`, and any of them after the operands. A security probe pushed
 * with `git push -f origin main` and `git push origin +main` past the rule docs/agent-hooks.md
 * gives as its example, `git push --force*`. A forced push is also read as
 * `git push --force OPTIONS OPERANDS` (core/hooks/shell-command-forms.ts), a form a `deny` or
 * `ask` rule is matched against; an `allow` rule is not (its forms are the command's own).
 */

/** git push's options that take the next word as their value (`-o ci.skip`, `--repo URL`). */
const VALUED = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec']);

/**
 * Whether a setting (`git -c NAME=VALUE`, or one `git config` stores: git-settings.ts) forces a
 * push: `remote.origin.push=+HEAD:main`, a refspec or mirror the line computes (`--config-env`),
 * or a config file included (`include.path`, `GIT_CONFIG_GLOBAL`), whose settings are not read.
 */
export function forcingSetting(setting: string): boolean {
  const eq = setting.indexOf('=');
  const [name, value] = [setting.slice(0, eq).toLowerCase(), setting.slice(eq + 1)];
  if (eq < 0 || !/^(?:remote|include|includeif)\./.test(name)) return false;
  const computed = value.startsWith('$');
  if (/^remote\..+\.push$/.test(name)) return value.startsWith('+') || computed;
  if (/^remote\..+\.mirror$/.test(name)) return /^(?:true|yes|on|1)$/i.test(value) || computed;
  return /^include(?:if\..+)?\.path$/.test(name);
}

/** The form `git push --force …` of a push that forces, or null; `global` holds git's options before `push`, `args` what follows it. */
export function forcedPushForm(global: readonly string[], args: readonly string[]): string | null {
  let forced = global.some((word, i) => global[i - 1] === '-c' && forcingSetting(word));
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === '--') {
      for (const operand of args.slice(i + 1)) forced = pushOperand(operand, operands) || forced;
      break;
    }
    if (VALUED.has(word)) {
      options.push(word, ...args.slice(i + 1, i + 2));
      i++;
    } else if (word.startsWith('--')) {
      // git takes a long option by any prefix naming only it: `--mi` is `--mirror`, `--force-w` `--force-with-lease`.
      forced ||= word === '--force' || word.startsWith('--force-w') || /^--mi(?:r|rr|rro|rror)?$/.test(word);
      options.push(word);
    } else if (/^-[A-Za-z]/.test(word)) {
      // A cluster ends at a letter taking a value (`-oforce` is a push option, not -f).
      const letters = word.slice(1).split(/o/)[0];
      forced ||= letters.includes('f');
      options.push(word);
    } else forced = pushOperand(word, operands) || forced;
  }
  if (!forced) return null;
  return ['git', 'push', '--force', ...options.filter((o) => o !== '--force' && o !== '-f'), ...operands].join(' ');
}

/** Adds an operand as pushed, without the `+` that forces its refspec; whether it had one. */
function pushOperand(word: string, operands: string[]): boolean {
  const plus = word.startsWith('+');
  operands.push(plus ? word.slice(1) : word);
  return plus;
}
