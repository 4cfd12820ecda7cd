import { z } from 'zod';
import { signPackage } from '../core/certificates/sign-package.js';
import type { Signer } from '../core/certificates/types.js';
import type { ResponseSpec, RouteResult } from './route.js';

/** The file name an audit package of a `kind` (execution, workflow) is downloaded under. */
function fileName(kind: string, id: string): string {
  return `shipgate-${kind}-${id}.json`;
}

/** The documented 200 of an export route: the package as a JSON attachment. */
export function auditPackageResponse(schema: z.ZodType, kind: string): ResponseSpec {
  return {
    description: 'The audit package (Content-Disposition: attachment).',
    schema,
    headers: { 'Content-Disposition': { description: `attachment; filename="${fileName(kind, '<id>')}"`, schema: z.string() } },
  };
}

/** The package signed (DSSE manifest over its members) and served as an attachment `shipgate verify` can check. */
export function auditPackageDownload<T extends Record<string, unknown>>(pkg: T, signer: Signer, kind: string, id: string): RouteResult {
  return {
    body: signPackage(pkg, signer),
    headers: { 'Content-Disposition': `attachment; filename="${fileName(kind, id)}"` },
  };
}
