import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core');

/** One serious or critical axe finding: the page, the rule and the elements it names. */
export interface AxeFinding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Makes axe-core available on every page of `context`. An init script is not an inline script,
 * so the studio's strict CSP stays on while the engine runs.
 */
export async function withAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: AXE_PATH });
}

/** Runs axe-core on the whole page and returns its serious and critical violations. */
export async function seriousViolations(page: Page, where: string): Promise<AxeFinding[]> {
  // A string: the test project has no DOM types; `axe` is the global withAxe installed.
  const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations)');
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ where, rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: string[] }[];
}
