const ADDRESS_CHARACTERS = new Set('0123456789abcdefABCDEF:.');

/**
 * The eight 16-bit groups of an IPv6 address (`::ffff:127.0.0.1` gives [0, 0, 0, 0, 0, 0xffff,
 * 0x7f00, 1]), or null when the text is not one (a zone id such as `fe80::1%eth0` included).
 * The WHATWG URL parser does the parsing and writes the address back in hexadecimal groups with
 * at most one `::`, so what is left is splitting on colons: no hand-written address grammar.
 */
export function ipv6Groups(address: string): number[] | null {
  // Only address characters: anything else could close the brackets and make a different URL.
  for (const character of address) if (!ADDRESS_CHARACTERS.has(character)) return null;
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname;
  } catch {
    return null;
  }
  const [head, tail] = host.slice(1, -1).split('::');
  const groupsOf = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  if (tail === undefined) return left;
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
