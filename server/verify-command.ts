import fs from 'node:fs/promises';
import { PACKAGE_LIMITS } from '../core/certificates/package-limits.js';
import { parseStrictJson } from '../core/certificates/parse-strict-json.js';
import { printableName, printableText } from '../core/certificates/printable-text.js';
import { keyIdOfJwk, type VerificationJwk } from '../core/certificates/public-jwk.js';
import { usableJwks } from '../core/certificates/usable-jwks.js';
import { verifyPackage, type PackageFailure } from '../core/certificates/verify-package.js';

export const VERIFY_USAGE = 'verify <export.json> [--keys <jwks.json>] [--keyid <id>]...';

/** The exit codes of `shipgate verify` (docs/api.md, "Verifying an export offline"). */
export const VERIFY_EXIT = { verified: 0, failed: 1, usage: 2, originUnproven: 3 } as const;

const HELP = `Usage: shipgate ${VERIFY_USAGE}

Checks an audit package (a compliance or workflow export) offline: the signed manifest, every
member, every certificate and chain, and a workflow's lineage.

  --keys <jwks.json>  trust only these public keys: the JWK set of GET /api/v1/compliance/keys, e.g.
                      curl <shipgate url>/api/v1/compliance/keys > keys.json
  --keyid <id>        trust only the key with this keyid (hex SHA-256 of the raw public key, the
                      JWK's kid); repeat it for each signer (the manifest's key and a retired one)

Without --keys or --keyid the package is checked with the keys it carries itself: that proves it is
intact as signed, not who signed it.

Exit codes: 0 verified under the given keys; 1 verification failed (each failure is printed);
2 usage error or unreadable file; 3 intact, but its origin is unproven (no --keys or --keyid).
`;

export interface VerifyOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * The terminal, with stdout lines gathered into writes of about 64 KB: a package can fail a
 * million ways, one line each, and a system call per line cost seconds of it (2.4 million lines).
 * `end` resolves once all is written: the CLI exits right after (server/cli.ts), and a pipe
 * that was full then lost the rest, the closing FAILED line included.
 */
function bufferedStdio(): VerifyOutput & { end(): Promise<void> } {
  let pending: string[] = [];
  let size = 0;
  const take = () => {
    const text = pending.join('');
    pending = [];
    size = 0;
    return text;
  };
  return {
    out(line) {
      pending.push(`${line}\n`);
      size += line.length + 1;
      if (size >= 64 * 1024) process.stdout.write(take());
    },
    err(line) {
      if (size > 0) process.stdout.write(take());
      process.stderr.write(`${line}\n`);
    },
    end: () => new Promise((resolve) => process.stdout.write(take(), () => resolve())),
  };
}

class UsageError extends Error {}

/** A package that is refused before it is checked: printed as one FAIL (exit 1), as a tampered package is. */
class RefusedPackage extends Error {}

/**
 * Reads a file as strict JSON (docs/attestations.md, "What the verifier refuses"): its size is
 * checked before it is read, then its bytes by parseStrictJson. A package refused so fails
 * (exit 1); a key file refused so is a usage error (exit 2), as one that is not JSON is.
 */
async function readJson(file: string, what: 'package' | 'key file'): Promise<unknown> {
  const maxBytes = what === 'package' ? PACKAGE_LIMITS.maxBytes : PACKAGE_LIMITS.maxKeyFileBytes;
  const refuse = (message: string) => (what === 'package' ? new RefusedPackage(message) : new UsageError(`${what} ${file}: ${message}`));
  let bytes: Buffer;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const { size } = await handle.stat();
      if (size > maxBytes) throw refuse(`${size} bytes, over the ${maxBytes} bytes the verifier reads`);
      // Read in chunks up to the bound: a file that grows, or a pipe (whose size reads 0), is refused past it too.
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(4 * 1024 * 1024);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > maxBytes) throw refuse(`over the ${maxBytes} bytes the verifier reads`);
        chunks.push(chunk.subarray(0, bytesRead));
      }
      bytes = Buffer.concat(chunks, total);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof RefusedPackage || error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
  const parsed = parseStrictJson(bytes, PACKAGE_LIMITS);
  if (parsed.ok) return parsed.value;
  if (parsed.kind === 'syntax') throw new UsageError(`${what} ${file} is not JSON`);
  throw refuse(parsed.message);
}

/** A JWK set (`{keys: [...]}`, as GET /compliance/keys answers) or a bare list of JWKs. */
function jwkList(value: unknown): VerificationJwk[] | undefined {
  const list = Array.isArray(value) ? value : (value as { keys?: unknown })?.keys;
  return Array.isArray(list) ? (list as VerificationJwk[]) : undefined;
}

interface VerifyArgs {
  file: string;
  keysFile?: string;
  keyids: string[];
}

function parseArgs(args: string[]): VerifyArgs {
  const usage = new UsageError(`Usage: shipgate ${VERIFY_USAGE}`);
  const files: string[] = [];
  const keyids: string[] = [];
  let keysFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--keys' || arg === '--keyid') {
      const value = args[++i];
      if (value === undefined || value.startsWith('-')) throw usage;
      if (arg === '--keys') {
        if (keysFile !== undefined) throw usage;
        keysFile = value;
      } else if (/^[0-9a-fA-F]{64}$/.test(value)) keyids.push(value.toLowerCase());
      else throw new UsageError(`--keyid ${value} is not a keyid (64 hex digits: the SHA-256 of the raw public key)`);
    } else if (arg.startsWith('-')) throw usage;
    else files.push(arg);
  }
  if (files.length !== 1) throw usage;
  return { file: files[0], keysFile, keyids };
}

/** The keys to verify with: from --keys or the package, narrowed to the pinned keyids if any. */
async function trustedKeys(
  pkg: Record<string, unknown>,
  { keysFile, keyids }: VerifyArgs,
  output: VerifyOutput,
): Promise<VerificationJwk[]> {
  const list = keysFile ? jwkList(await readJson(keysFile, 'key file')) : jwkList(pkg.public_keys);
  if (!list)
    throw new UsageError(
      keysFile ? `key file ${keysFile} holds no JWK set ({"keys": [...]})` : 'the package carries no public_keys; pass --keys <jwks.json>',
    );
  const { keys, ignored } = usableJwks(list);
  const where = keysFile ? `key file ${keysFile}` : "the package's public_keys";
  // A note quotes the entry's kty, as the package or key file wrote it.
  for (const note of ignored) output.out(printableText(`${where}: ${note}`));
  if (keys.length === 0) throw new UsageError(`${where} holds no usable Ed25519 public key${keysFile ? '' : '; pass --keys <jwks.json>'}`);
  if (keyids.length === 0) return keys;
  // The keyid is computed from the key itself, so a key carried by the package is trusted only if it hashes to a pin.
  const pinned = keys.filter((k) => keyids.includes(keyIdOfJwk(k)));
  const found = new Set(pinned.map(keyIdOfJwk));
  for (const keyid of keyids) if (!found.has(keyid)) output.out(`no key with keyid ${keyid} in ${keysFile ?? "the package's public_keys"}`);
  return pinned;
}

/**
 * Names and reasons come from the package: escaped and cut (core/certificates/printable-text.ts),
 * so a member named with a carriage return and ANSI escapes cannot erase this line and print a
 * forged "OK", nor one value fill the terminal.
 */
function failureLine(failure: PackageFailure): string {
  if ('member' in failure) return `FAIL member '${printableName(failure.member)}': ${printableText(failure.reason)}`;
  const detail = failure.detail ? ` - ${printableText(failure.detail)}` : '';
  return `FAIL certificate ${printableName(failure.certificate)} (in ${printableName(failure.path)}): ${printableText(failure.reason)}${detail}`;
}

function source(file: string, args: VerifyArgs, count: number): string {
  const pins = args.keyids.length > 0 ? `, pinned by --keyid` : '';
  if (args.keysFile) return `Verifying ${file} with ${count} public key(s) from ${args.keysFile}${pins}.`;
  if (pins) return `Verifying ${file} with ${count} public key(s) of the package's public_keys${pins}.`;
  return `Verifying ${file} with the ${count} public key(s) the package itself carries (public_keys): this proves the package is intact as signed, not who signed it.`;
}

/**
 * `shipgate verify`: checks an audit package offline. It says "verified" (exit 0) only under a
 * trust anchor, --keys or --keyid; without one an intact package exits 3, because anyone could
 * have re-signed it with keys of their own. Exit 1 when anything fails, 2 for a usage error.
 */
export async function verifyCommand(args: string[], output?: VerifyOutput): Promise<number> {
  if (output) return verify(args, output);
  const stdio = bufferedStdio();
  try {
    return await verify(args, stdio);
  } finally {
    await stdio.end();
  }
}

async function verify(args: string[], output: VerifyOutput): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.out(HELP.trimEnd());
    return VERIFY_EXIT.verified;
  }
  try {
    const parsed = parseArgs(args);
    const pkg = await readJson(parsed.file, 'package');
    if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) throw new UsageError(`package ${parsed.file} is not a JSON object`);
    const keys = await trustedKeys(pkg as Record<string, unknown>, parsed, output);
    const anchored = parsed.keysFile !== undefined || parsed.keyids.length > 0;
    output.out(source(parsed.file, parsed, keys.length));
    const result = verifyPackage(pkg as Record<string, unknown>, keys);
    for (const failure of result.failures) output.out(failureLine(failure));
    for (const note of result.notes) output.out(printableText(`NOTE ${note}`));
    if (result.manifestKeyid) output.out(`manifest signed by key ${result.manifestKeyid}`);
    output.out(`${result.certificatesChecked} certificate(s) checked`);
    if (!result.ok) {
      output.out(`FAILED: ${result.failures.length} problem(s) found.`);
      return VERIFY_EXIT.failed;
    }
    if (!anchored) {
      output.out(
        'ORIGIN UNPROVEN: the package is intact, but only under the keys it carries itself. To prove who signed it, ' +
          'pass --keys with the JWK set of GET /api/v1/compliance/keys, or --keyid with the expected keyid (exit 3).',
      );
      return VERIFY_EXIT.originUnproven;
    }
    output.out('OK: the package verifies.');
    return VERIFY_EXIT.verified;
  } catch (error) {
    if (error instanceof UsageError) {
      // A refused key file's message names where in it, by its keys.
      output.err(printableText(error.message));
      return VERIFY_EXIT.usage;
    }
    // A refused package, or anything its content made go wrong: a FAIL with a message, never a stack trace.
    const message = error instanceof RefusedPackage ? error.message : `cannot be checked (${(error as Error)?.message ?? String(error)})`;
    // A refusal names where in the package, by its keys; an error's message may quote the package.
    output.out(`FAIL package: ${printableText(message)}`);
    output.out('FAILED: 1 problem(s) found.');
    return VERIFY_EXIT.failed;
  }
}
