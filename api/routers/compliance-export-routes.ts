import { randomUUID } from 'node:crypto';
import { EXECUTION, requireOwnedResource } from '../../core/executions/owned-resource-access.js';
import { verifyCertificateChain } from '../../core/certificates/verify-certificate-chain.js';
import { buildAuditPackage } from '../../core/executions/build-audit-package.js';
import { auditPackageDownload, auditPackageResponse } from '../audit-package-download.js';
import { defineRoute } from '../route.js';
import { auditPackageSchema, executionIdParamsSchema } from '../schemas/execution-schemas.js';

export const complianceExportRoutes = [
  defineRoute({
    method: 'get',
    path: '/compliance/{execution_id}/export',
    tags: ['compliance'],
    auth: 'any',
    summary: 'The signed audit package of one execution',
    description:
      'The execution summary, every tool call, every certificate re-verified now (verified, reason), the artifacts, the policy ' +
      'applied, an attestation of the proofs required and present, the public keys, and a DSSE-signed manifest over the digest of ' +
      'every member. Served as an attachment; `shipgate verify <file>` checks it offline. Owner, ADMIN and AUDITOR; anyone else gets 404.',
    params: executionIdParamsSchema,
    responses: { 200: auditPackageResponse(auditPackageSchema, 'execution') },
    async handler({ params, caller, deps }) {
      const asked = { kind: EXECUTION, id: params.execution_id, action: 'read' } as const;
      const execution = await requireOwnedResource(deps.repoAccess, caller, asked, await deps.executions.get(params.execution_id));
      const [policy, publicKeys] = await Promise.all([
        deps.policies.get(execution.policy.name, execution.policy.version),
        deps.keys.list(),
      ]);
      const pkg = buildAuditPackage({
        packageId: randomUUID(),
        generatedAt: new Date().toISOString(),
        execution,
        policy,
        checks: verifyCertificateChain(execution.certificates, deps.verifier, execution.tool_calls),
        publicKeys,
      });
      return auditPackageDownload(pkg, deps.signer, 'execution', execution.id);
    },
  }),
];
