// The gate as `.github/shipgate.yml` (docs/release-gate.md, "Release gate"): block YAML written by hand (no library,
// no build step). Every string is double-quoted with JSON's escapes, which YAML's double-quoted style reads the same
// way, so no name can turn into a number, a boolean, a comment or a second key.

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Plain words a YAML reader would take for something other than a string (YAML 1.1 and 1.2). */
const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

/** @param {string} key */
function yamlKey(key) {
  return PLAIN_KEY.test(key) && !RESERVED.test(key) ? key : JSON.stringify(key);
}

/** @param {unknown} value */
function isBlock(value) {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/**
 * A scalar, an empty list or map, or (inside a list) a nested list, as one line of flow YAML. JSON is flow YAML.
 * @param {unknown} value
 */
function inline(value) {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('Not a finite number.');
  return JSON.stringify(value);
}

/**
 * @param {unknown} value a JSON value
 * @param {string} indent
 * @returns {string[]}
 */
function block(value, indent) {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (item !== null && typeof item === 'object' && !Array.isArray(item) && isBlock(item)) {
        const [first, ...rest] = block(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${inline(item)}`];
    });
  }
  return Object.entries(/** @type {Record<string, unknown>} */ (value)).flatMap(([key, item]) =>
    isBlock(item) ? [`${indent}${yamlKey(key)}:`, ...block(item, `${indent}  `)] : [`${indent}${yamlKey(key)}: ${inline(item)}`],
  );
}

/**
 * The text of `.github/shipgate.yml` for a gate: its fields at the top level, as the App reads them.
 * @param {Record<string, unknown>} gate
 */
export function gateYaml(gate) {
  return ['# .github/shipgate.yml: the release gate shipgate reads from the default branch.', ...block(gate, ''), ''].join('\n');
}
