import fs from 'node:fs/promises';
import type { VerificationJwk } from '../core/certificates/public-jwk.js';
import { verifyPackage, type PackageFailure } from '../core/certificates/verify-package.js';

export const VERIFY_USAGE = 'verify <export.json> [--keys <jwks.json>]';

export interface VerifyOutput {
  out(line: string): void;
  err(line: string): void;
}

const stdio: VerifyOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

class UsageError extends Error {}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} ${file} is not JSON`);
  }
}

/** A JWK set (`{keys: [...]}`, as GET /compliance/keys answers) or a bare list of JWKs. */
function jwkList(value: unknown): VerificationJwk[] | undefined {
  const list = Array.isArray(value) ? value : (value as { keys?: unknown })?.keys;
  return Array.isArray(list) ? (list as VerificationJwk[]) : undefined;
}

function parseArgs(args: string[]): { file: string; keysFile?: string } {
  const keysAt = args.indexOf('--keys');
  const keysFile = keysAt >= 0 ? args[keysAt + 1] : undefined;
  const rest = args.filter((_, i) => keysAt < 0 || (i !== keysAt && i !== keysAt + 1));
  if (rest.length !== 1 || (keysAt >= 0 && !keysFile) || rest[0].startsWith('-')) throw new UsageError(`Usage: shipgate ${VERIFY_USAGE}`);
  return { file: rest[0], keysFile };
}

function failureLine(failure: PackageFailure): string {
  if ('member' in failure) return `FAIL member '${failure.member}': ${failure.reason}`;
  return `FAIL certificate ${failure.certificate} (in ${failure.path}): ${failure.reason}${failure.detail ? ` - ${failure.detail}` : ''}`;
}

/**
 * `shipgate verify`: checks an audit package offline. Exit 0 when everything verifies, 1 when
 * anything fails (each failure printed), 2 for a usage error or an unreadable file.
 */
export async function verifyCommand(args: string[], output: VerifyOutput = stdio): Promise<number> {
  try {
    const { file, keysFile } = parseArgs(args);
    const pkg = await readJson(file, 'package');
    if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) throw new UsageError(`package ${file} is not a JSON object`);
    const keys = keysFile ? jwkList(await readJson(keysFile, 'key file')) : jwkList((pkg as { public_keys?: unknown }).public_keys);
    if (!keys)
      throw new UsageError(
        keysFile
          ? `key file ${keysFile} holds no JWK set ({"keys": [...]})`
          : 'the package carries no public_keys; pass --keys <jwks.json>',
      );
    output.out(
      keysFile
        ? `Verifying ${file} with ${keys.length} public key(s) from ${keysFile}.`
        : `Verifying ${file} with the ${keys.length} public key(s) the package itself carries (public_keys). This proves the package is intact as signed; to prove who signed it, compare the keyids with GET /api/v1/compliance/keys or pass --keys.`,
    );
    const result = verifyPackage(pkg as Record<string, unknown>, keys);
    for (const failure of result.failures) output.out(failureLine(failure));
    if (result.manifestKeyid) output.out(`manifest signed by key ${result.manifestKeyid}`);
    output.out(`${result.certificatesChecked} certificate(s) checked`);
    output.out(result.ok ? 'OK: the package verifies.' : `FAILED: ${result.failures.length} problem(s) found.`);
    return result.ok ? 0 : 1;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(error.message);
    return 2;
  }
}
