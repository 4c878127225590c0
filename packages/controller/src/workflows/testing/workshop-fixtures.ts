import type { FilePlan, WorkshopPlan } from '../workshop/workshop-plan.ts';

/** A small plan for the SSO brief. */
export const PLAN: WorkshopPlan = {
  title: 'Add SSO to the admin console',
  summary: 'Use OIDC with the existing identity provider.',
  tasks: [
    {
      id: 'T1',
      title: 'Add the OIDC client',
      details: 'Register the console with the provider.',
      subtasks: [{ id: 'T1.1', title: 'Store the client secret' }],
      acceptance: ['Admins can sign in with SSO'],
      files: ['src/auth/oidc.ts'],
    },
    { id: 'T2', title: 'Remove password login', files: ['src/auth/password.ts'] },
  ],
  assumptions: ['The provider supports PKCE'],
  risks: ['Lockout if the provider is down'],
};

/** The file plan that matches {@link PLAN}. */
export const FILES: FilePlan = {
  files: [
    { path: 'src/auth/oidc.ts', action: 'create', tasks: ['T1', 'T1.1'] },
    { path: 'src/auth/password.ts', action: 'delete', tasks: ['T2'], purpose: 'SSO only' },
  ],
};
