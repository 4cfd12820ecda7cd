/**
 * Capabilities typed as a list separated by commas, spaces or new lines; none -> undefined (the policy's defaults).
 * @param {string} text
 */
export function capabilityList(text) {
  const items = text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

/**
 * The optional text of an input, or undefined when blank (so the server's default applies).
 * @param {HTMLInputElement | HTMLSelectElement} input
 */
export function optional(input) {
  const value = input.value.trim();
  return value ? value : undefined;
}
