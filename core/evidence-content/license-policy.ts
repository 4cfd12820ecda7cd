import parseSpdxExpression from 'spdx-expression-parse';
import spdxSatisfies from 'spdx-satisfies';

type Node = parseSpdxExpression.Info;
type Leaf = parseSpdxExpression.LicenseInfo;

function leaves(node: Node): Leaf[] {
  return 'conjunction' in node ? [...leaves(node.left), ...leaves(node.right)] : [node];
}

function leafText(leaf: Leaf): string {
  return `${leaf.license}${leaf.plus ? '+' : ''}${leaf.exception ? ` WITH ${leaf.exception}` : ''}`;
}

function parseOrNull(text: string): Node | null {
  try {
    return parseSpdxExpression(text);
  } catch {
    return null;
  }
}

/** Whether a single licence falls under a denied one, by spdx-satisfies (so `GPL-2.0+` covers `GPL-3.0-only`). */
function leafMatches(leaf: string, denied: string): boolean {
  try {
    return spdxSatisfies(leaf, [denied]);
  } catch {
    // spdx-satisfies refuses what it does not know (e.g. LicenseRef-*): then only the same text matches.
    return leaf.toLowerCase() === denied.toLowerCase();
  }
}

/**
 * The denied-licence decision (docs/release-gate.md, "Evidence read by content"). A component is denied when its
 * licence expression cannot be satisfied without a denied licence: every licence an AND needs must be allowed, one
 * side of an OR suffices. So `MIT OR GPL-3.0-only` is allowed (MIT can be chosen) and `MIT AND GPL-3.0-only` is
 * denied. Each denied entry may be an id, a range (`GPL-2.0+`), an id WITH an exception, or an expression, every
 * licence of which is denied; a licence WITH an exception is covered only by a denied entry naming that exception.
 * A licence name that is not an SPDX expression (free text in an SBOM) is denied only when it equals a denied entry.
 */
export function createLicenseDenial(deniedEntries: readonly string[]): (expression: string) => boolean {
  const denied = deniedEntries.flatMap((entry) => {
    const parsed = parseOrNull(entry);
    return parsed ? leaves(parsed).map(leafText) : [entry];
  });
  const isDeniedLeaf = (leaf: Leaf) => denied.some((d) => leafMatches(leafText(leaf), d));
  const allowed = (node: Node): boolean => {
    if (!('conjunction' in node)) return !isDeniedLeaf(node);
    return node.conjunction === 'and' ? allowed(node.left) && allowed(node.right) : allowed(node.left) || allowed(node.right);
  };
  return (expression) => {
    const parsed = parseOrNull(expression);
    if (!parsed) return deniedEntries.some((d) => d.toLowerCase() === expression.trim().toLowerCase());
    return !allowed(parsed);
  };
}
