import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createPlanningTools,
  invokeTool,
  Plan,
  type PlanningTools,
  type Result,
  registerPlanningReducers,
  Session,
  selectLatest,
} from '@plankit/core';
import { MemoryStore } from '../../persistence/stores/memory-store.ts';
import type { SessionStore } from '../../persistence/stores/session-store.ts';
import { createSessionPool } from '../create-session-pool.ts';
import type { SessionSource } from '../resolve-session.ts';

/** The six planning tools, built once and used with any pooled session. */
export const TOOLS: PlanningTools = createPlanningTools(new Session());
export const SETUP: PlanningTools['planning_setup_plan'] = TOOLS.planning_setup_plan;
export const ADD: PlanningTools['planning_add_step'] = TOOLS.planning_add_step;
export const UPDATE: PlanningTools['planning_update_step'] = TOOLS.planning_update_step;
export const MARK: PlanningTools['planning_mark_step'] = TOOLS.planning_mark_step;
export const CLEAR: PlanningTools['planning_clear_plan'] = TOOLS.planning_clear_plan;
export const READ: PlanningTools['planning_read_plan'] = TOOLS.planning_read_plan;

/** Unwraps an ok result, failing with the error's code and message otherwise. */
export function ok<T>(result: Result<T, { code: string; message: string }>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** The plan of a session, as plain data. */
export function planOf(session: Session): Plan | undefined {
  return selectLatest(session, Plan);
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A fresh temporary directory; `cleanup` removes every one made. */
const made: string[] = [];
export async function tempDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'plankit-pool-'));
  made.push(directory);
  return directory;
}
export async function cleanup(): Promise<void> {
  for (const directory of made.splice(0)) await rm(directory, { recursive: true, force: true });
}

/** A store wrapper recording every call (method and session id) before passing it on. */
export function spyStore(inner: SessionStore): { store: SessionStore; calls: string[][] } {
  const calls: string[][] = [];
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push([String(key), String(args[0])]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

/** The plan a conversation should hold after `calls` are applied serially to a fresh session. */
export async function serialPlan(
  calls: readonly { tool: string; params: unknown }[],
): Promise<Plan | undefined> {
  const session = new Session({ sessionId: 'serial' });
  registerPlanningReducers(session);
  const byName = new Map(TOOLS.map((tool) => [tool.name, tool] as const));
  for (const [index, call] of calls.entries()) {
    const tool = byName.get(call.tool);
    if (tool === undefined) throw new Error(`unknown tool ${call.tool}`);
    const result = await invokeTool(tool, call.params, { session, now: index });
    if (!result.success) throw new Error(`serial replay refused ${call.tool}: ${result.message}`);
  }
  return planOf(session);
}

/**
 * `inner` with its `load` or `append` replaced by `replace(original)`: a store that breaks its
 * contract, fails, or holds calls at a gate. Every other member is `inner`'s own.
 */
export function storeWith<K extends 'load' | 'append'>(
  inner: SessionStore,
  method: K,
  replace: (original: SessionStore[K]) => SessionStore[K],
): SessionStore {
  const replaced = replace(inner[method].bind(inner) as SessionStore[K]);
  return new Proxy(inner, {
    get(target, key) {
      if (key === method) return replaced;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A gate: `passed` resolves once `open` is called. */
export function gate(): { passed: Promise<void>; open: () => void } {
  let open = () => {};
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

/** What {@link poolWhoseLoadThrows} makes the store throw, and what a host reports for it. */
export const LOAD_THROWS = {
  reason: 'disk on fire\nline two',
  reported: "Tool 'planning_read_plan' execution failed: disk on fire\\nline two",
} as const;

/**
 * A pool resolver keyed by `context.key` over a store that breaks its contract: every load
 * rejects with {@link LOAD_THROWS}'s reason instead of returning a StoreError.
 */
export function poolWhoseLoadThrows(): SessionSource<{ key: string }> {
  const store = storeWith(
    new MemoryStore(),
    'load',
    () => () => Promise.reject(new Error(LOAD_THROWS.reason)),
  );
  return createSessionPool({ store }).resolver((context: { key: string }) => context.key);
}
