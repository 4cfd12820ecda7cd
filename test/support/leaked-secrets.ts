/**
 * Secrets placed where text redaction used to miss them (issue 34): a GitHub token at the start
 * of a line, an AWS key after a tab, a private key's body, and the same inside JSON text. Each
 * is unique to this file, so a test can search a whole response, record or log for it.
 */
export const TOKEN_AT_LINE_START = 'ghp_Lq7Wm2Zr9Tx4Vb8Nc3Hd6Kf1Js5Pg0Ya2Ue7';
export const AWS_KEY_AFTER_TAB = 'AKIAQ7R4ZT2W6YB3XN5M';
export const PEM_BODY_LINE = 'MIIEowIBAAKCAQEAx8r2Vt9LkQw3Zp6Yd1Hf4Ns7Bc0Gm5Jt2Rx8We3Ka9Uo6Pi1Ql';
export const TOKEN_IN_JSON_TEXT = 'ghs_Dz4Xc8Vn2Bm6Qw0Ep3Rt7Yu1Io5Pa9Sd4Fg8';
export const TOKEN_IN_BLOB = 'gho_Nk3Mj7Lh1Gf5Ds9Ap2Oi6Uy0Tr4Ew8Qz3Xc7';

export const PRIVATE_KEY = [
  '-----BEGIN RSA PRIVATE KEY-----',
  PEM_BODY_LINE,
  'Qk9E3sYbW1c5aLr8nT2vXo6hJ4mP0fZ7uG9dK3eR5tY1wQ8iU2oA6sD4fH7jL0',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** Text holding the first three: a log whose line starts with the token, a tab before the key, a key file. */
export const LEAKY_TEXT = `build log\n${TOKEN_AT_LINE_START}\naws\t${AWS_KEY_AFTER_TAB}\n${PRIVATE_KEY}\n`;

/** JSON text (as many tools answer) whose string holds a token at a line start: `\n` is an escape there. */
export const LEAKY_JSON_TEXT = JSON.stringify({ log: `step 1\n${TOKEN_IN_JSON_TEXT}\nstep 2` });

/** Every secret above: none may appear anywhere in what the agent or the record got. */
export const LEAKED_SECRETS = [TOKEN_AT_LINE_START, AWS_KEY_AFTER_TAB, PEM_BODY_LINE, TOKEN_IN_JSON_TEXT, TOKEN_IN_BLOB];
