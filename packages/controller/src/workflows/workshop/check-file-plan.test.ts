import { describe, expect, it } from 'vitest';
import { FILES, PLAN } from '../testing/workshop-fixtures.ts';
import { checkFilePlan } from './check-file-plan.ts';
import { FilePlan, WorkshopPlan } from './workshop-plan.ts';

describe('checkFilePlan', () => {
  it('accepts a file plan that matches the plan, subtasks included', () => {
    expect(checkFilePlan(PLAN, FILES)).toEqual([]);
    const extra = {
      files: [...FILES.files, { path: 'docs/sso.md', action: 'create' as const, tasks: ['T1'] }],
    };
    expect(checkFilePlan(PLAN, extra)).toEqual([]);
  });

  it('lists every inconsistency', () => {
    const files: FilePlan = {
      files: [
        { path: 'src/auth/oidc.ts', action: 'create', tasks: ['T9'] },
        { path: 'src/misc.ts', action: 'modify', tasks: [] },
      ],
    };
    expect(checkFilePlan(PLAN, files)).toEqual([
      'plan.files.json: src/auth/oidc.ts names task T9, which planning.ai.json does not have.',
      'plan.files.json: src/misc.ts names no task.',
      'plan.files.json: src/auth/oidc.ts does not name task T1, which changes it in planning.ai.json.',
      'planning.ai.json: task T2 changes src/auth/password.ts, which plan.files.json does not list.',
    ]);
  });
});

describe('the plan schemas', () => {
  it('refuse repeated ids and paths, unsafe paths and multi-line titles', () => {
    const twice = { ...PLAN, tasks: [...PLAN.tasks, { id: 'T1.1', title: 'again' }] };
    expect(WorkshopPlan.safeParse(twice).error?.issues[0]?.message).toBe('repeats id T1.1');
    expect(WorkshopPlan.safeParse({ ...PLAN, title: 'a\nb' }).success).toBe(false);
    expect(WorkshopPlan.safeParse({ ...PLAN, tasks: [] }).success).toBe(false);
    expect(WorkshopPlan.safeParse({ ...PLAN, owner: 'me' }).success).toBe(false);
    for (const path of ['../x', '/etc/passwd', 'a\\b', 'C:/x', 'a//b', 'x\0']) {
      expect(
        FilePlan.safeParse({ files: [{ path, action: 'create', tasks: ['T1'] }] }).success,
        path,
      ).toBe(false);
    }
    expect(FilePlan.safeParse({ files: [...FILES.files, FILES.files[0]] }).success).toBe(false);
  });
});
