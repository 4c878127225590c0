import type { Result } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import type { ControllerError } from '../controller-error.ts';
import { defineMachine } from './define-machine.ts';
import { initialSnapshot } from './initial-snapshot.ts';
import { replay } from './replay.ts';
import { reportCap } from './report-cap.ts';
import { resume } from './resume.ts';
import { transition } from './transition.ts';

function ok<T>(result: Result<T, ControllerError>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function err<T>(result: Result<T, ControllerError>): ControllerError {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

const machine = defineMachine({
  id: 'spend',
  initial: 'draft',
  caps: { costUsd: 1, turns: 5, retries: null },
  onCap: { default: 'aborted' },
  freezeOn: ['costUsd', 'turns'],
  states: {
    draft: { on: { done: 'check', again: 'draft' } },
    check: {
      on: {
        ok: { target: 'finished', guard: ({ snapshot }) => snapshot.caps.turns !== 7 },
        redo: 'draft',
      },
    },
    finished: { kind: 'final' },
    aborted: { kind: 'final' },
  },
});

const start = () => initialSnapshot(machine, { now: 0 });

describe('freeze at a cap', () => {
  it('stays in the state, keeps the accounting and holds the event', () => {
    const frozen = ok(
      transition(machine, start(), {
        outcome: 'done',
        now: 100,
        costUsd: 1.2,
        reason: 'big draft',
      }),
    );
    expect(frozen.state).toBe('draft');
    expect(frozen.status).toBe('frozen');
    expect(frozen.counters).toMatchObject({ turns: 0, costUsd: 1.2, elapsedMs: 100 });
    expect(frozen.frozen).toEqual({
      cap: 'costUsd',
      message: 'costUsd: 1.2 USD spent in this session, over the cap of 1 USD',
      at: 100,
      pending: { outcome: 'done', confidence: null, violations: [], reason: 'big draft' },
    });
    expect(frozen.signals).toEqual([
      { type: 'cap_reached', cap: 'costUsd', action: 'freeze', target: null },
    ]);
    expect(err(transition(machine, frozen, { outcome: 'done', now: 200 }))).toMatchObject({
      code: 'machine_frozen',
      state: 'draft',
    });
  });

  it('refuses outcomes to a frozen machine in under 2,000 characters, whatever the host reason', () => {
    const reason = 'r'.repeat(2000);
    const frozen = ok(reportCap(machine, start(), { cap: 'costUsd', now: 10, reason }));
    expect(frozen.frozen?.message).toContain(reason);
    const error = err(transition(machine, frozen, { outcome: 'done', now: 20 }));
    expect(error).toMatchObject({ code: 'machine_frozen', state: 'draft' });
    expect(error.message).toBe(
      'transition: spend is frozen in draft at its costUsd cap; resume it first.',
    );
  });

  it('resumes with a raised cap: routes the held event once, not charging it or the frozen time again', () => {
    const frozen = ok(transition(machine, start(), { outcome: 'done', now: 100, costUsd: 1.2 }));
    const resumed = ok(
      resume(machine, frozen, { now: 50_000, caps: { costUsd: 3 }, reason: 'approved by ops' }),
    );
    expect(resumed.state).toBe('check');
    expect(resumed.status).toBe('running');
    expect(resumed.frozen).toBeNull();
    expect(resumed.caps.costUsd).toBe(3);
    expect(resumed.counters).toMatchObject({ turns: 1, costUsd: 1.2, elapsedMs: 100 });
    expect(resumed.trace.at(-1)).toMatchObject({
      kind: 'resume',
      outcome: 'done',
      from: 'draft',
      to: 'check',
      cost_delta: 0,
      duration_ms: 49_900,
      reason: 'approved by ops',
      caps: { ...machine.caps, costUsd: 3 },
      soft: machine.soft,
    });
    // The next step is charged from the resume on.
    expect(
      ok(transition(machine, resumed, { outcome: 'redo', now: 50_010 })).counters.elapsedMs,
    ).toBe(110);
  });

  it('freezes again, with the same pending event, when another cap stops it', () => {
    let snapshot = start();
    for (let i = 1; i <= 5; i++)
      snapshot = ok(transition(machine, snapshot, { outcome: 'again', now: i }));
    const frozen = ok(transition(machine, snapshot, { outcome: 'done', now: 6, costUsd: 1.2 }));
    expect(frozen.frozen?.cap).toBe('costUsd');
    const again = ok(resume(machine, frozen, { now: 7, caps: { costUsd: 2 } }));
    expect(again.status).toBe('frozen');
    expect(again.frozen).toMatchObject({ cap: 'turns', pending: frozen.frozen?.pending });
    expect(again.trace.at(-1)).toMatchObject({
      kind: 'resume',
      cap: { name: 'turns', action: 'freeze' },
    });
    expect(ok(resume(machine, again, { now: 8, caps: { turns: 6 } })).state).toBe('check');
  });

  it('refuses limits below what the session has already used', () => {
    const frozen = ok(transition(machine, start(), { outcome: 'done', now: 100, costUsd: 1.2 }));
    const error = err(resume(machine, frozen, { now: 200, caps: { costUsd: 1.1 } }));
    expect(error).toMatchObject({ code: 'input_invalid', field: 'input.caps.costUsd' });
    expect(error.message).toBe(
      'resume: input.caps.costUsd must not be below the 1.2 USD already spent, got 1.1.',
    );
    expect(err(resume(machine, frozen, { now: 200, caps: { wallTimeMs: 99 } })).field).toBe(
      'input.caps.wallTimeMs',
    );
  });

  it('can drop the pending event, leaving the machine waiting for the next one', () => {
    const frozen = ok(transition(machine, start(), { outcome: 'done', now: 100, costUsd: 1.2 }));
    const resumed = ok(
      resume(machine, frozen, { now: 200, caps: { costUsd: 2 }, discardPending: true }),
    );
    expect(resumed).toMatchObject({ state: 'draft', status: 'running', frozen: null });
    expect(resumed.trace.at(-1)).toMatchObject({ kind: 'resume', outcome: null, to: 'draft' });
  });

  it('refuses to route a held event no guard accepts any more', () => {
    let snapshot = ok(transition(machine, start(), { outcome: 'done', now: 1 }));
    snapshot = ok(transition(machine, snapshot, { outcome: 'ok', now: 2, costUsd: 1.5 }));
    expect(snapshot.status).toBe('frozen');
    expect(err(resume(machine, snapshot, { now: 3, caps: { costUsd: 2, turns: 7 } })).code).toBe(
      'guard_rejected',
    );
    expect(ok(resume(machine, snapshot, { now: 3, caps: { costUsd: 2 } })).state).toBe('finished');
  });

  it('counts the resumed turn against the turn cap', () => {
    let snapshot = start();
    for (let i = 1; i <= 5; i++)
      snapshot = ok(transition(machine, snapshot, { outcome: 'again', now: i }));
    const frozen = ok(transition(machine, snapshot, { outcome: 'done', now: 6 }));
    expect(frozen.frozen?.cap).toBe('turns');
    const resumed = ok(resume(machine, frozen, { now: 7, caps: { turns: 6 } }));
    expect(resumed).toMatchObject({ state: 'check', counters: { turns: 6 } });
  });

  it('refuses bad input and machines that are not frozen', () => {
    const frozen = ok(transition(machine, start(), { outcome: 'done', now: 100, costUsd: 1.2 }));
    expect(err(resume(machine, start(), { now: 1 })).code).toBe('machine_not_frozen');
    const cases: [unknown, string][] = [
      [null, 'input'],
      [{ now: 99 }, 'input.now'],
      [{ now: 200, caps: { costUsd: -1 } }, 'input.caps.costUsd'],
      [{ now: 200, soft: { turns: 0 } }, 'input.soft.turns'],
      [{ now: 200, extra: true }, 'input.extra'],
      [{ now: 200, discardPending: 'yes' }, 'input.discardPending'],
      [{ now: 200, reason: 5 }, 'input.reason'],
    ];
    for (const [input, field] of cases) {
      const error = err(resume(machine, frozen, input as never));
      expect(error.code).toBe('input_invalid');
      expect(error.field).toBe(field);
    }
  });
});

describe('reportCap', () => {
  it('applies the cap policy for a cap the host found: freeze with nothing pending', () => {
    const working = ok(transition(machine, start(), { outcome: 'done', now: 10 }));
    const frozen = ok(
      reportCap(machine, working, { cap: 'costUsd', now: 30, reason: 'budget refused call-3' }),
    );
    expect(frozen).toMatchObject({ state: 'check', status: 'frozen' });
    expect(frozen.counters.elapsedMs).toBe(30);
    expect(frozen.frozen).toEqual({
      cap: 'costUsd',
      message: 'costUsd: reported by the host: budget refused call-3',
      at: 30,
      pending: null,
    });
    expect(frozen.trace.at(-1)).toMatchObject({
      kind: 'cap',
      outcome: null,
      reason: 'budget refused call-3',
      cap: { name: 'costUsd', action: 'freeze', limit: null, value: null },
    });
    const resumed = ok(resume(machine, frozen, { now: 40 }));
    expect(resumed).toMatchObject({ state: 'check', status: 'running' });
    expect(resumed.trace.at(-1)).toMatchObject({ kind: 'resume', outcome: null, to: 'check' });
  });

  it('goes to the target of a cap that does not freeze', () => {
    const stopped = ok(reportCap(machine, start(), { cap: 'wallTimeMs', now: 5 }));
    expect(stopped).toMatchObject({ state: 'aborted', status: 'done' });
    expect(stopped.trace.at(-1)?.cap?.message).toBe('wallTimeMs: reported by the host');
    expect(err(reportCap(machine, stopped, { cap: 'turns', now: 6 })).code).toBe('machine_done');
  });

  it('refuses unknown caps, bad times and frozen machines', () => {
    expect(err(reportCap(machine, start(), { cap: 'money' as never, now: 1 }))).toMatchObject({
      code: 'input_invalid',
      field: 'input.cap',
    });
    expect(err(reportCap(machine, start(), { cap: 'turns', now: -1 })).field).toBe('input.now');
    expect(err(reportCap(machine, start(), { cap: 'turns', now: 1, x: 1 } as never)).field).toBe(
      'input.x',
    );
    const frozen = ok(reportCap(machine, start(), { cap: 'turns', now: 1 }));
    expect(err(reportCap(machine, frozen, { cap: 'turns', now: 2 })).code).toBe('machine_frozen');
  });

  it('words a refused input shape as resume does', () => {
    expect(err(reportCap(machine, start(), null as never)).message).toBe(
      'reportCap: input must be an object.',
    );
    expect(err(reportCap(machine, start(), { cap: 'turns', now: 1, x: 1 } as never)).message).toBe(
      'reportCap: input.x is not a key.',
    );
    const frozen = ok(reportCap(machine, start(), { cap: 'turns', now: 1 }));
    expect(err(resume(machine, frozen, null as never)).message).toBe(
      'resume: input must be an object.',
    );
    expect(err(resume(machine, frozen, { now: 2, x: 1 } as never)).message).toBe(
      'resume: input.x is not a key.',
    );
  });

  it('replays freezes, resumes and reports into the same snapshot', () => {
    let snapshot = ok(transition(machine, start(), { outcome: 'done', now: 10, costUsd: 1.5 }));
    snapshot = ok(resume(machine, snapshot, { now: 30, caps: { costUsd: 2 } }));
    snapshot = ok(reportCap(machine, snapshot, { cap: 'costUsd', now: 40 }));
    snapshot = ok(resume(machine, snapshot, { now: 50, discardPending: true }));
    snapshot = ok(transition(machine, snapshot, { outcome: 'redo', now: 60 }));
    snapshot = ok(transition(machine, snapshot, { outcome: 'done', now: 70, costUsd: 0.6 }));
    snapshot = ok(
      resume(machine, snapshot, { now: 80, caps: { costUsd: 5 }, discardPending: true }),
    );
    expect(replay(machine, snapshot.trace, { now: 0 })).toEqual({ ok: true, value: snapshot });
  });
});
