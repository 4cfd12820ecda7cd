export const ROLES = ['ADMIN', 'OPERATOR', 'APPROVER', 'AUDITOR', 'VIEWER', 'POLICY_AUTHOR'] as const;
export type Role = (typeof ROLES)[number];
