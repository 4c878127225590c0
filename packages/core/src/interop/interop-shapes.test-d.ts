import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk';
import type {
  TaskGetOutput,
  TaskListOutput,
  TaskUpdateInput,
} from '@anthropic-ai/claude-agent-sdk/sdk-tools';
import { describe, expectTypeOf, it } from 'vitest';
import type { ACPPlanEntry } from './acp-plan.ts';
import { toACPPlan } from './acp-plan.ts';
import type { toClaudeTasks } from './claude-tasks.ts';

// The shapes are checked against each project's own types, never imported at run time.
describe('the formats against their projects’ own types', () => {
  it('toACPPlan makes an ACP session update and its entries are ACP plan entries', () => {
    expectTypeOf(toACPPlan(undefined)).toExtend<SessionUpdate>();
    expectTypeOf<ACPPlanEntry>().toExtend<PlanEntry>();
    // An ACP entry without _meta reads as ours: the same fields, the same unions.
    expectTypeOf<Omit<PlanEntry, '_meta'>>().toExtend<ACPPlanEntry>();
  });

  it('toClaudeTasks makes the tasks TaskList and TaskGet return', () => {
    type Task = ReturnType<typeof toClaudeTasks>['tasks'][number];
    expectTypeOf<Task>().toExtend<TaskListOutput['tasks'][number]>();
    expectTypeOf<Omit<Task, 'owner'>>().toExtend<NonNullable<TaskGetOutput['task']>>();
    // Every status a task takes is one TaskUpdate can set.
    expectTypeOf<Task['status']>().toExtend<NonNullable<TaskUpdateInput['status']>>();
  });
});
