import { describe, expect, it } from 'vitest';
import { PLAN } from '../testing/workshop-fixtures.ts';
import { renderPlanMarkdown } from './render-plan-markdown.ts';

describe('renderPlanMarkdown', () => {
  it('renders every part of the plan, deterministically', () => {
    expect(renderPlanMarkdown(PLAN)).toBe(
      [
        '<!-- Generated from planning.ai.json: edit the JSON plan, not this file. -->',
        '',
        '# Add SSO to the admin console',
        '',
        'Use OIDC with the existing identity provider.',
        '',
        '## Tasks',
        '',
        '### T1. Add the OIDC client',
        '',
        'Register the console with the provider.',
        '',
        'Subtasks:',
        '',
        '- T1.1 Store the client secret',
        '',
        'Acceptance criteria:',
        '',
        '- Admins can sign in with SSO',
        '',
        'Files:',
        '',
        '- `src/auth/oidc.ts`',
        '',
        '### T2. Remove password login',
        '',
        'Files:',
        '',
        '- `src/auth/password.ts`',
        '',
        '## Assumptions',
        '',
        '- The provider supports PKCE',
        '',
        '## Risks',
        '',
        '- Lockout if the provider is down',
        '',
      ].join('\n'),
    );
  });

  it('leaves out what the plan does not have', () => {
    expect(renderPlanMarkdown({ title: 'T', tasks: [{ id: 'a', title: 'A' }], risks: [] })).toBe(
      '<!-- Generated from planning.ai.json: edit the JSON plan, not this file. -->\n\n# T\n\n## Tasks\n\n### a. A\n',
    );
  });
});
