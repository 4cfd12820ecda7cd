/** The most forms one simple command gets with its leading options dropped. */
export const MAX_LEADING_OPTION_FORMS = 4;

/**
 * A command's forms with its leading options dropped (docs/agent-hooks.md, "tool_rules"), for the
 * rules that refuse: `terraform -chdir=infra apply` reads `terraform apply`, `kubectl -n prod
 * delete pod x` reads `kubectl delete pod x`, `npm --registry r publish` reads `npm publish`. Which
 * option takes a value is not known, so each way is a form: dropping the options, and dropping the
 * word after an option without `=` too, up to the first operand no option could take. A security
 * probe ran `terraform -chdir=infra apply` and `kubectl -n prod delete` past `terraform apply*` and
 * `kubectl delete*`. None when the first word is no option.
 */
export function leadingOptionForms(program: string, args: readonly string[]): string[] {
  const forms: string[] = [];
  let mayBeValue = false;
  for (let k = 0; k < args.length && forms.length < MAX_LEADING_OPTION_FORMS; k++) {
    const word = args[k];
    if (word === '--') {
      if (k > 0) forms.push([program, ...args.slice(k + 1)].join(' '));
      break;
    }
    const option = word.startsWith('-') && word !== '-';
    if (!option && !mayBeValue) break;
    forms.push([program, ...args.slice(k + 1)].join(' '));
    mayBeValue = option && !word.includes('=');
  }
  return forms;
}
