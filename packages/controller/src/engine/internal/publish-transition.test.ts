import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Result } from '@plankit/core';
import { type MachineTransitioned, TRANSITION_CHANNEL } from '@plankit/core/diagnostics';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ControllerError } from '../../controller-error.ts';
import { createPlanningController } from '../../planning/planning-controller.ts';
import { initialSnapshot } from '../initial-snapshot.ts';
import { replay } from '../replay.ts';
import { reportCap } from '../report-cap.ts';
import { resume } from '../resume.ts';
import { transition } from '../transition.ts';

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function listen(): MachineTransitioned[] {
  const events: MachineTransitioned[] = [];
  const listener = (message: unknown) => events.push(message as MachineTransitioned);
  subscribe(TRANSITION_CHANNEL, listener);
  onTestFinished(() => {
    unsubscribe(TRANSITION_CHANNEL, listener);
  });
  return events;
}

describe('plankit:transition', () => {
  it('reports each transition: machine, states, outcome and the budget figures', () => {
    const events = listen();
    const controller = createPlanningController({ caps: { turns: 12, costUsd: 2 } });
    const start = initialSnapshot(controller, { now: 0 });
    const next = ok(
      transition(controller, start, {
        outcome: 'sufficient_context',
        now: 10,
        confidence: 0.8,
        costUsd: 0.25,
        tokens: 300,
      }),
    );
    expect(events).toEqual([
      {
        type: 'transition',
        machine: 'planning-controller',
        startedAt: 0,
        from: 'COLLECT_CONTEXT',
        to: 'DRAFT_OUTLINE',
        kind: 'outcome',
        event: 'sufficient_context',
        confidence: 0.8,
        status: 'running',
        cap: null,
        at: 10,
        budget: {
          run: 1,
          turns: 1,
          totalTurns: 1,
          costUsd: 0.25,
          tokens: 300,
          elapsedMs: 10,
          maxTurns: 12,
          maxCostUsd: 2,
          maxTokens: next.caps.tokens,
          maxWallTimeMs: next.caps.wallTimeMs,
        },
      },
    ]);
    expect(Object.isFrozen(events[0])).toBe(true);
    expect(Object.isFrozen(events[0]?.budget)).toBe(true);
  });

  it('reports the wait for approval, the freeze at a cap, the resume and a reported cap', () => {
    const controller = createPlanningController({ freezeOn: ['costUsd'], caps: { costUsd: 0.5 } });
    let snapshot = initialSnapshot(controller, { now: 0 });
    const events = listen();
    snapshot = ok(
      transition(controller, snapshot, { outcome: 'sufficient_context', now: 10, costUsd: 0.6 }),
    );
    snapshot = ok(resume(controller, snapshot, { now: 20, caps: { costUsd: 1 } }));
    for (const outcome of ['success', 'valid', 'success', 'valid', 'success', 'valid'] as const)
      snapshot = ok(transition(controller, snapshot, { outcome, now: 30 }));
    ok(reportCap(controller, snapshot, { cap: 'turns', now: 40 }));
    expect(
      events.map(({ kind, event, from, to, status, cap }) => ({
        kind,
        event,
        from,
        to,
        status,
        cap,
      })),
    ).toEqual([
      {
        kind: 'outcome',
        event: 'sufficient_context',
        from: 'COLLECT_CONTEXT',
        to: 'COLLECT_CONTEXT',
        status: 'frozen',
        cap: 'costUsd',
      },
      {
        kind: 'resume',
        event: 'resume',
        from: 'COLLECT_CONTEXT',
        to: 'DRAFT_OUTLINE',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'success',
        from: 'DRAFT_OUTLINE',
        to: 'VALIDATE_OUTLINE',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'valid',
        from: 'VALIDATE_OUTLINE',
        to: 'DRAFT_ROADMAP',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'success',
        from: 'DRAFT_ROADMAP',
        to: 'VALIDATE_ROADMAP',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'valid',
        from: 'VALIDATE_ROADMAP',
        to: 'DRAFT_SCHEDULE',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'success',
        from: 'DRAFT_SCHEDULE',
        to: 'VALIDATE_SCHEDULE',
        status: 'running',
        cap: null,
      },
      {
        kind: 'outcome',
        event: 'valid',
        from: 'VALIDATE_SCHEDULE',
        to: 'SEEK_APPROVAL',
        status: 'waiting',
        cap: null,
      },
      {
        kind: 'cap',
        event: 'turns',
        from: 'SEEK_APPROVAL',
        to: 'ABORTED',
        status: 'done',
        cap: null,
      },
    ]);
  });

  it('publishes nothing for a refused event, nor for a replay', () => {
    const controller = createPlanningController();
    const start = initialSnapshot(controller, { now: 0 });
    const moved = ok(transition(controller, start, { outcome: 'sufficient_context', now: 5 }));
    const events = listen();
    expect(transition(controller, start, { outcome: 'approved', now: 10 }).ok).toBe(false);
    expect(ok(replay(controller, moved.trace, { now: 0 })).state).toBe('DRAFT_OUTLINE');
    expect(events).toEqual([]);
  });
});
