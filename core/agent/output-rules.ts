/**
 * A named pattern an output rule looks for. Every pattern is linear in the text it scans
 * (docs/operations.md, "Redaction of tool results"): a pattern with a long minimum length
 * matches any length (`+`), which the ReDoS checkers can prove linear, and `minLength` drops
 * the shorter runs; `accept` filters out other matches that are not real hits.
 *
 * Most patterns start with `(?<!(?<!\\)\w)`: not inside a word, where the character before
 * may be the letter of an escape such as `\n` or `\t`. So a secret at the start of a line or
 * after a tab is found in JSON text too (a tool's text that is itself JSON), where `\b` would
 * see the escape's letter and miss it.
 */
interface Detector {
  name: string;
  pattern: RegExp;
  minLength?: number;
  accept?(match: string): boolean;
}

const SECRET_DETECTORS: Detector[] = [
  // The whole block, BEGIN through its END (or the end of the text when it has none).
  { name: 'private_key', pattern: /-----BEGIN ([A-Z\d ]*PRIVATE KEY(?: BLOCK)?)-----[^]*?(?:-----END \1-----|$)/g },
  { name: 'aws_access_key', pattern: /(?<!(?<!\\)\w)(?:AKIA|ASIA|ABIA|ACCA)[\dA-Z]{16}\b/g },
  { name: 'aws_secret_key', pattern: /aws_secret_access_key\\?["']?\s*[:=]\s*\\?["']?[A-Za-z\d/+=]{40}/gi },
  { name: 'github_token', pattern: /(?<!(?<!\\)\w)gh[oprsu]_[A-Za-z\d]+(?!\w)/g, minLength: 4 + 36 },
  { name: 'github_token', pattern: /(?<!(?<!\\)\w)github_pat_\w+/g, minLength: 11 + 22 },
  { name: 'anthropic_key', pattern: /(?<!(?<!\\)\w)sk-ant-[\w-]+/g, minLength: 7 + 20 },
  // Also covers the `proj-`, `svcacct-` and `admin-` project keys: the prefix is part of the run.
  { name: 'openai_key', pattern: /(?<!(?<!\\)\w)sk-[\w-]+/g, minLength: 3 + 20 },
  { name: 'slack_token', pattern: /(?<!(?<!\\)\w)xox[abopsr]-[A-Za-z\d-]+/g, minLength: 5 + 10 },
  { name: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[\w/-]+/g, minLength: 33 + 20 },
  { name: 'google_api_key', pattern: /(?<!(?<!\\)\w)AIza[\w-]{35}\b/g },
  { name: 'stripe_key', pattern: /(?<!(?<!\\)\w)[rs]k_live_[A-Za-z\d]+(?!\w)/g, minLength: 8 + 24 },
  { name: 'shipgate_key', pattern: /(?<!(?<!\\)\w)sg_[\w-]{43}(?![\w-])/g },
];

/** Luhn checksum: most 13-19 digit runs (ids, timestamps) fail it, real card numbers pass. */
function luhnValid(text: string): boolean {
  // By character codes, from the right: a match is checked on every hit, so this stays cheap.
  let digits = 0;
  let sum = 0;
  let repeated = true;
  for (let i = text.length - 1; i >= 0; i--) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) continue;
    if (digits > 0 && text.charCodeAt(i) !== text.charCodeAt(text.length - 1)) repeated = false;
    sum += digits % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d;
    digits++;
  }
  return digits >= 13 && digits <= 19 && !repeated && sum % 10 === 0;
}

/** RFC 5321's limits on a domain (the local part's 64 is in the pattern). */
const MAX_DOMAIN_LENGTH = 255;
const MAX_LABEL_LENGTH = 63;
/** Reserved example domains (RFC 2606/6761) identify no one. */
const RESERVED_TOP_LEVEL = new Set(['example', 'invalid', 'test', 'localhost']);
const EXAMPLE_SECOND_LEVEL = new Set(['com', 'org', 'net']);

/** An address within RFC 5321's limits whose domain is not reserved or GitHub's no-reply (those identify no one). */
function personalEmail(address: string): boolean {
  const domain = address.slice(address.indexOf('@') + 1).toLowerCase();
  const labels = domain.split('.');
  if (domain.length > MAX_DOMAIN_LENGTH || labels.some((label) => label.length > MAX_LABEL_LENGTH)) return false;
  const [secondLevel, topLevel] = labels.slice(-2);
  if (RESERVED_TOP_LEVEL.has(topLevel)) return false;
  if (secondLevel === 'example' && EXAMPLE_SECOND_LEVEL.has(topLevel)) return false;
  return domain !== 'users.noreply.github.com';
}

/** A match of the international phone pattern with as many digits as a phone number has. */
function internationalPhone(match: string): boolean {
  let digits = 0;
  for (const c of match) if (c >= '0' && c <= '9') digits++;
  return digits >= 7 && digits <= 23;
}

const PII_DETECTORS: Detector[] = [
  { name: 'us_ssn', pattern: /(?<!(?<!\\)\w)(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { name: 'credit_card', pattern: /(?<!(?<!\\)\w)[3-6]\d{3}(?:[ -]?\d{3,4}){2,4}\b/g, accept: luhnValid },
  {
    name: 'email',
    // Starts where a run of local-part characters starts (not after a backslash: `\n` in JSON
    // text is an escape, not the address's first letter), so each run is tried once: linear.
    pattern: /(?<!\\|(?<!\\)[\w%+.-])[\w%+.-]{1,64}@[A-Za-z\d-]+(?:\.[A-Za-z\d-]+)*\.[A-Za-z]{2,}\b/g,
    accept: personalEmail,
  },
  { name: 'phone', pattern: /(?:\+1[ .-]?)?\(?(?<!(?<!\\)\w)[2-9]\d{2}\)?[ .-]\d{3}[ .-]\d{4}\b/g },
  // International: a country code, then groups of two or more digits, 7 to 23 digits in all (a
  // country code of 1-3 digits and 3-5 groups of 2-4, in any split: counted, not backtracked).
  { name: 'phone', pattern: /\+[2-9]\d*(?:[ .-]\d{2,})*(?!\w)/g, accept: internationalPhone },
];

/** The output rules a policy can name (`output_rules`), each a list of detectors. */
export const OUTPUT_RULES: Readonly<Record<string, readonly Detector[]>> = {
  secrets: SECRET_DETECTORS,
  pii: PII_DETECTORS,
};

const isHit = (detector: Detector, match: string) =>
  match.length >= (detector.minLength ?? 0) && (!detector.accept || detector.accept(match));

/** The text with each hit of the detector replaced by `replacement`. */
function replaceHits(text: string, detector: Detector, replacement: string): string {
  return text.replace(detector.pattern, (match) => (isHit(detector, match) ? replacement : match));
}

/**
 * What the named rules find in a text, as `<rule>:<detector>` (e.g. `secrets:github_token`),
 * each once. A rule this build does not know is reported as `<rule>:unknown_rule`: a policy
 * asking for a check that cannot run must not pass silently.
 */
export function scanOutput(ruleNames: readonly string[], text: string): string[] {
  const hits = new Set<string>();
  for (const rule of ruleNames) {
    const detectors = Object.hasOwn(OUTPUT_RULES, rule) ? OUTPUT_RULES[rule] : undefined;
    if (!detectors) {
      hits.add(`${rule}:unknown_rule`);
      continue;
    }
    for (const detector of detectors) {
      const matches = text.match(detector.pattern) ?? [];
      if (matches.some((m) => isHit(detector, m))) hits.add(`${rule}:${detector.name}`);
    }
  }
  return [...hits];
}

/** The text with every secret the `secrets` rule knows (and the given literals) replaced: for error messages. */
export function redactSecrets(text: string, literals: readonly string[] = []): string {
  let out = text;
  for (const literal of literals) if (literal.length >= 4) out = out.split(literal).join('[REDACTED]');
  for (const detector of SECRET_DETECTORS) out = replaceHits(out, detector, '[REDACTED]');
  return out;
}

/**
 * The text with every hit of the named rules replaced by `[REDACTED:<rule>:<detector>]`: what
 * the MCP gateway and the runtime's tools pass on instead of each string of a tool's result
 * (docs/mcp-gateway.md).
 */
export function redactOutput(ruleNames: readonly string[], text: string): string {
  let out = text;
  for (const rule of ruleNames) {
    const detectors = Object.hasOwn(OUTPUT_RULES, rule) ? OUTPUT_RULES[rule] : [];
    for (const detector of detectors) out = replaceHits(out, detector, `[REDACTED:${rule}:${detector.name}]`);
  }
  return out;
}
