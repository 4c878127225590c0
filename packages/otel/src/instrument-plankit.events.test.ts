import { channel } from 'node:diagnostics_channel';
import { trace } from '@opentelemetry/api';
import {
  type MachineTransitioned,
  POOL_CHANNEL,
  type PoolEvent,
  TRANSITION_CHANNEL,
} from '@plankit/core/diagnostics';
import { afterEach, describe, expect, it } from 'vitest';
import { recordTraces, type TraceRecorder } from './testing/trace-recorder.ts';

// Payloads published straight on the channels, as core, the controller and the pool publish
// them: the cases a scripted run reaches rarely (a cap, a full pool).
let recorder: TraceRecorder | undefined;
afterEach(async () => {
  await recorder?.stop();
  recorder = undefined;
});

const budget = {
  run: 1,
  turns: 10,
  totalTurns: 10,
  costUsd: 0.5,
  tokens: 10_000,
  elapsedMs: 9_000,
  maxTurns: 10,
  maxCostUsd: null,
  maxTokens: null,
  maxWallTimeMs: null,
} as const;

function moved(overrides: Partial<MachineTransitioned>): MachineTransitioned {
  return {
    type: 'transition',
    machine: 'planning-controller',
    startedAt: 0,
    from: 'DRAFT_OUTLINE',
    to: 'VALIDATE_OUTLINE',
    kind: 'outcome',
    event: 'success',
    confidence: null,
    status: 'running',
    cap: null,
    at: 1,
    budget,
    ...overrides,
  };
}

describe('instrumentPlankit: caps and the session pool', () => {
  it('ends the plan span with error.type = the cap when a cap freezes the machine, and opens a new one on resume', () => {
    recorder = recordTraces();
    const transitions = channel(TRANSITION_CHANNEL);
    transitions.publish(moved({}));
    transitions.publish(
      moved({
        from: 'VALIDATE_OUTLINE',
        to: 'VALIDATE_OUTLINE',
        kind: 'cap',
        event: 'max_turns',
        status: 'frozen',
        cap: 'max_turns',
      }),
    );
    transitions.publish(
      moved({ kind: 'resume', event: 'resume', from: 'VALIDATE_OUTLINE', to: 'VALIDATE_OUTLINE' }),
    );
    const spans = recorder.spans();
    expect(spans).toHaveLength(1);
    const [frozen] = spans;
    expect(frozen?.name).toBe('plan planning-controller');
    expect(frozen?.attributes['error.type']).toBe('max_turns');
    expect(frozen?.status).toEqual({ code: 2, message: 'max_turns' });
    expect(frozen?.events.map((event) => event.attributes?.['plankit.budget.cap'])).toEqual([
      undefined,
      'max_turns',
    ]);
    // Uncapped figures are left out, not written as null.
    expect(frozen?.events[0]?.attributes).not.toHaveProperty('plankit.budget.max_tokens');
  });

  it('keeps two runs of one machine at once in a plan span each, told apart by startedAt', () => {
    // A server running the planning controller for two conversations at the same time.
    recorder = recordTraces();
    const transitions = channel(TRANSITION_CHANNEL);
    const first = { startedAt: 100 };
    const second = { startedAt: 200 };
    transitions.publish(moved(first));
    transitions.publish(moved(second));
    transitions.publish(moved({ ...first, from: 'VALIDATE_OUTLINE', to: 'DONE', status: 'done' }));
    transitions.publish(moved({ ...second, from: 'VALIDATE_OUTLINE', to: 'DRAFT_ROADMAP' }));
    // The second run is still open: its span has not ended with the first.
    expect(recorder.spans()).toHaveLength(1);
    transitions.publish(moved({ ...second, from: 'DRAFT_ROADMAP', to: 'DONE', status: 'done' }));
    const spans = recorder.spans();
    expect(spans.map((span) => span.name)).toEqual([
      'plan planning-controller',
      'plan planning-controller',
    ]);
    expect(
      spans.map((span) => span.events.map((event) => event.attributes?.['plankit.transition.to'])),
    ).toEqual([
      ['VALIDATE_OUTLINE', 'DONE'],
      ['VALIDATE_OUTLINE', 'DRAFT_ROADMAP', 'DONE'],
    ]);
  });

  it('ends the oldest open run past 1,024 runs that never finished, and holds no more', () => {
    recorder = recordTraces();
    const transitions = channel(TRANSITION_CHANNEL);
    for (let startedAt = 0; startedAt <= 1024; startedAt++)
      transitions.publish(moved({ startedAt }));
    const ended = recorder.spans();
    expect(ended).toHaveLength(1);
    expect(ended[0]?.events).toHaveLength(1);
    // The second run is still open: its next move lands on its own span, not a new one.
    transitions.publish(moved({ startedAt: 1, status: 'done', to: 'DONE' }));
    expect(recorder.spans()).toHaveLength(2);
    expect(recorder.spans()[1]?.events).toHaveLength(2);
  });

  it('adds pool events to the active span, and records nothing without one', () => {
    recorder = recordTraces();
    const pool = channel(POOL_CHANNEL);
    const full: PoolEvent = { type: 'pool-full', conversationId: 'chat-7', live: 4, waiting: 2 };
    pool.publish(full);
    trace.getTracer('host').startActiveSpan('invoke_agent host', (span) => {
      pool.publish({ type: 'pool-load', conversationId: 'chat-7', ok: true, code: null, live: 1 });
      pool.publish({ type: 'pool-evict', conversationId: 'chat-6', reason: 'capacity', live: 1 });
      pool.publish(full);
      span.end();
    });
    const [span] = recorder.spans();
    expect(recorder.spans()).toHaveLength(1);
    expect(span?.events.map((event) => event.name)).toEqual([
      'plankit.pool.load',
      'plankit.pool.evict',
      'plankit.pool.full',
    ]);
    expect(span?.events[1]?.attributes?.['plankit.pool.reason']).toBe('capacity');
    expect(span?.events[2]?.attributes).toEqual({
      'gen_ai.conversation.id': 'chat-7',
      'plankit.pool.live': 4,
      'error.type': 'pool_full',
      'plankit.pool.waiting': 2,
    });
  });

  it('drops a malformed payload without throwing into the publisher', () => {
    recorder = recordTraces();
    expect(() => channel(TRANSITION_CHANNEL).publish({ type: 'transition' })).not.toThrow();
    expect(() => channel(POOL_CHANNEL).publish(null)).not.toThrow();
  });
});
