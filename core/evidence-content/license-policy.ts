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

/** What cannot be part of an SPDX licence id (`LicenseRef-x`, `DocumentRef-a:LicenseRef-b`, `GPL-2.0+`). */
const NOT_IN_AN_ID = /[^A-Za-z0-9.+:-]+/;

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
 * A licence name that is not an SPDX expression (free text in an SBOM, or a malformed expression) is denied when it
 * equals a denied entry or any word of it is a denied licence.
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
    if (parsed) return !allowed(parsed);
    // Not an expression: denied when it equals an entry, or names a denied licence anywhere in it, so a
    // malformed expression (`GPL-3.0-only AND (((`) cannot hide one.
    if (deniedEntries.some((d) => d.toLowerCase() === expression.trim().toLowerCase())) return true;
    return expression
      .split(NOT_IN_AN_ID)
      .filter((word) => word.length > 0)
      .some((word) => denied.some((d) => leafMatches(word, d)));
  };
}
