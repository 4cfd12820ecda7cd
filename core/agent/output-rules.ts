/** A named pattern an output rule looks for; `accept` filters out matches that are not real hits. */
interface Detector {
  name: string;
  pattern: RegExp;
  accept?(match: string): boolean;
}

const SECRET_DETECTORS: Detector[] = [
  { name: 'private_key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { name: 'aws_access_key', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { name: 'aws_secret_key', pattern: /aws_secret_access_key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/gi },
  { name: 'github_token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b/g },
  { name: 'github_token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { name: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'openai_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { name: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'stripe_key', pattern: /\b[rs]k_live_[0-9A-Za-z]{24,}\b/g },
  { name: 'shipgate_key', pattern: /\bsg_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
];

/** Luhn checksum: most 13-19 digit runs (ids, timestamps) fail it, real card numbers pass. */
function luhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Reserved example domains (RFC 2606/6761) and GitHub's no-reply addresses identify no one. */
const NON_PERSONAL_EMAIL =
  /@(?:(?:[\w-]+\.)*example\.(?:com|org|net)|(?:[\w-]+\.)*(?:example|invalid|test|localhost)|users\.noreply\.github\.com)$/i;

const PII_DETECTORS: Detector[] = [
  { name: 'us_ssn', pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  { name: 'credit_card', pattern: /\b[3-6]\d{3}(?:[ -]?\d{3,4}){2,4}\b/g, accept: luhnValid },
  {
    name: 'email',
    pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g,
    accept: (m) => !NON_PERSONAL_EMAIL.test(m),
  },
  { name: 'phone', pattern: /(?:\+1[ .-]?)?\(?\b[2-9]\d{2}\)?[ .-]\d{3}[ .-]\d{4}\b/g },
  { name: 'phone', pattern: /\+(?:[2-9]\d{0,2})[ .-]?\d{2,4}(?:[ .-]?\d{2,4}){2,4}\b/g },
];

/** The output rules a policy can name (`output_rules`), each a list of detectors. */
export const OUTPUT_RULES: Readonly<Record<string, readonly Detector[]>> = {
  secrets: SECRET_DETECTORS,
  pii: PII_DETECTORS,
};

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
      if (matches.some((m) => !detector.accept || detector.accept(m))) hits.add(`${rule}:${detector.name}`);
    }
  }
  return [...hits];
}

/** The text with every secret the `secrets` rule knows (and the given literals) replaced: for error messages. */
export function redactSecrets(text: string, literals: readonly string[] = []): string {
  let out = text;
  for (const literal of literals) if (literal.length >= 4) out = out.split(literal).join('[REDACTED]');
  for (const detector of SECRET_DETECTORS) out = out.replace(detector.pattern, '[REDACTED]');
  return out;
}

/**
 * The text with every hit of the named rules replaced by `[REDACTED:<rule>:<detector>]`: what
 * the MCP gateway passes on instead of an upstream's result (docs/mcp-gateway.md).
 */
export function redactOutput(ruleNames: readonly string[], text: string): string {
  let out = text;
  for (const rule of ruleNames) {
    const detectors = Object.hasOwn(OUTPUT_RULES, rule) ? OUTPUT_RULES[rule] : [];
    for (const detector of detectors) {
      out = out.replace(detector.pattern, (m) => (!detector.accept || detector.accept(m) ? `[REDACTED:${rule}:${detector.name}]` : m));
    }
  }
  return out;
}
