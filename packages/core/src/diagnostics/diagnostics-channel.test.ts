import { channel, subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { invokeTool } from '../invoke-tool.ts';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { Session } from '../session.ts';
import { diagnosticsChannel, publishDiagnostics, resetDiagnostics } from './diagnostics-channel.ts';
import {
  DIAGNOSTICS_CHANNELS,
  PLAN_CHANNEL,
  POOL_CHANNEL,
  TOOL_CALL_CHANNEL,
} from './diagnostics-channels.ts';

afterEach(() => resetDiagnostics());

describe('diagnosticsChannel', () => {
  it('is the node:diagnostics_channel channel of the name', () => {
    const seen: unknown[] = [];
    const listener = (message: unknown) => seen.push(message);
    subscribe(POOL_CHANNEL, listener);
    try {
      expect(diagnosticsChannel(POOL_CHANNEL)).toBe(channel(POOL_CHANNEL));
      expect(diagnosticsChannel(POOL_CHANNEL).hasSubscribers).toBe(true);
      diagnosticsChannel(POOL_CHANNEL).publish('hello');
      expect(seen).toEqual(['hello']);
    } finally {
      unsubscribe(POOL_CHANNEL, listener);
    }
    expect(diagnosticsChannel(POOL_CHANNEL).hasSubscribers).toBe(false);
  });

  it('names four channels, each under plankit:', () => {
    expect(DIAGNOSTICS_CHANNELS).toEqual([
      'plankit:tool-call',
      'plankit:plan',
      'plankit:transition',
      'plankit:pool',
    ]);
    expect(Object.isFrozen(DIAGNOSTICS_CHANNELS)).toBe(true);
  });

  it('looks the module up once, lazily, through the loader', () => {
    const loader = vi.fn(() => ({ channel: () => ({ hasSubscribers: false, publish() {} }) }));
    resetDiagnostics(loader);
    expect(loader).not.toHaveBeenCalled();
    diagnosticsChannel(TOOL_CALL_CHANNEL);
    diagnosticsChannel(PLAN_CHANNEL);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(loader).toHaveBeenCalledWith('node:diagnostics_channel');
  });

  it('publishes nowhere when the module does not exist, and never throws', async () => {
    for (const loader of [
      null,
      () => undefined,
      () => ({}),
      () => {
        throw new Error('no');
      },
    ]) {
      resetDiagnostics(loader);
      const silent = diagnosticsChannel(TOOL_CALL_CHANNEL);
      expect(silent.hasSubscribers).toBe(false);
      expect(() => silent.publish({})).not.toThrow();
    }
  });
});

describe('publishDiagnostics', () => {
  it('builds no payload while nobody subscribes', () => {
    const build = vi.fn(() => ({ type: 'pool-full' }));
    publishDiagnostics(POOL_CHANNEL, build);
    expect(build).not.toHaveBeenCalled();
  });

  it('publishes the payload frozen when someone does', () => {
    const seen: unknown[] = [];
    const listener = (message: unknown) => seen.push(message);
    subscribe(POOL_CHANNEL, listener);
    try {
      publishDiagnostics(POOL_CHANNEL, () => ({ type: 'pool-full', conversationId: 'c' }));
    } finally {
      unsubscribe(POOL_CHANNEL, listener);
    }
    expect(seen).toEqual([{ type: 'pool-full', conversationId: 'c' }]);
    expect(Object.isFrozen(seen[0])).toBe(true);
  });
});

describe('without process.getBuiltinModule (a browser)', () => {
  it('runs planning calls and publishes nothing, even with subscribers in node', async () => {
    const seen: unknown[] = [];
    const listener = (message: unknown) => seen.push(message);
    subscribe(TOOL_CALL_CHANNEL, listener);
    subscribe(PLAN_CHANNEL, listener);
    const saved = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
    // The default lookup reads globalThis.process when it first runs: simulate a runtime
    // without getBuiltinModule.
    Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true });
    try {
      resetDiagnostics();
      const session = new Session({ sessionId: 'browser', clock: () => 1 });
      const { planning_setup_plan: setup } = createPlanningTools(session);
      const result = await invokeTool(setup, { objective: 'Ship', initial_steps: [] }, { session });
      expect(result.success).toBe(true);
      expect(diagnosticsChannel(TOOL_CALL_CHANNEL).hasSubscribers).toBe(false);
    } finally {
      if (saved !== undefined) Object.defineProperty(process, 'getBuiltinModule', saved);
      unsubscribe(TOOL_CALL_CHANNEL, listener);
      unsubscribe(PLAN_CHANNEL, listener);
    }
    expect(seen).toEqual([]);
  });
});

describe('without subscribers', () => {
  it('a planning call only asks whether anyone listens: it builds and publishes nothing', async () => {
    const asked = new Map<string, number>();
    const published: unknown[] = [];
    resetDiagnostics(() => ({
      channel: (name: string) => ({
        get hasSubscribers() {
          asked.set(name, (asked.get(name) ?? 0) + 1);
          return false;
        },
        publish: (message: unknown) => published.push(message),
      }),
    }));
    const session = new Session({ sessionId: 'quiet', clock: () => 1 });
    const { planning_setup_plan: setup, planning_mark_step: mark } = createPlanningTools(session);
    await invokeTool(setup, { objective: 'Ship', initial_steps: [{ title: 'A' }] }, { session });
    await invokeTool(mark, { step_id: 'S001', status: 'done' }, { session });
    expect(published).toEqual([]);
    // Per call: the tool-call channel once, the plan channel once before the call (for its id)
    // and once in the commit; and once in the mark's reducer (to note the step it changed).
    expect(Object.fromEntries(asked)).toEqual({ [TOOL_CALL_CHANNEL]: 2, [PLAN_CHANNEL]: 5 });
  });
});
