import { isRecord } from '@plankit/core/internal-unstable';
import { isCount, show, unknownKey } from '../../internal/checks.ts';
import { isUsd } from '../../internal/micro-usd.ts';
import { CAP_NAMES } from '../default-caps.ts';

const CAP_KEYS: ReadonlySet<string> = new Set(CAP_NAMES);
const SOFT_KEYS: ReadonlySet<string> = new Set(['turns', 'costUsd']);

/** A problem with a limits object: the field and the rule it broke. */
export interface LimitProblem {
  readonly field: string;
  readonly rule: string;
}

function capRule(name: string, value: unknown): string | null {
  if (value === null) return null;
  if (name === 'costUsd') return isUsd(value) ? null : `must be null or a USD amount >= 0`;
  if (name === 'stall') {
    return isCount(value) && value >= 2 ? null : 'must be null or an integer >= 2';
  }
  return isCount(value) ? null : 'must be null or a non-negative integer';
}

/** Checks partial caps; the first problem, or null. `prefix` is the field path of the object. */
export function capsProblem(value: unknown, prefix: string): LimitProblem | null {
  if (!isRecord(value)) return { field: prefix, rule: 'must be an object' };
  const extra = unknownKey(value, CAP_KEYS);
  if (extra !== undefined) return { field: `${prefix}.${extra}`, rule: 'is not a cap' };
  for (const name of CAP_NAMES) {
    if (!Object.hasOwn(value, name) || value[name] === undefined) continue;
    const rule = capRule(name, value[name]);
    if (rule !== null)
      return { field: `${prefix}.${name}`, rule: `${rule}, got ${show(value[name])}` };
  }
  return null;
}

/** Checks partial soft limits; the first problem, or null. */
export function softProblem(value: unknown, prefix: string): LimitProblem | null {
  if (!isRecord(value)) return { field: prefix, rule: 'must be an object' };
  const extra = unknownKey(value, SOFT_KEYS);
  if (extra !== undefined) return { field: `${prefix}.${extra}`, rule: 'is not a soft limit' };
  const { turns, costUsd } = value;
  if (turns !== undefined && turns !== null && !(isCount(turns) && turns >= 1)) {
    return {
      field: `${prefix}.turns`,
      rule: `must be null or an integer >= 1, got ${show(turns)}`,
    };
  }
  if (costUsd !== undefined && costUsd !== null && !isUsd(costUsd)) {
    return {
      field: `${prefix}.costUsd`,
      rule: `must be null or a USD amount >= 0, got ${show(costUsd)}`,
    };
  }
  return null;
}

/** `base` with the defined values of a checked partial `patch`, frozen. */
export function mergeLimits<T extends object>(base: T, patch: object | undefined): T {
  if (patch === undefined) return base;
  let changed = false;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const key of Object.keys(base)) {
    const next = (patch as Record<string, unknown>)[key];
    if (next === undefined || !Object.hasOwn(patch, key)) continue;
    if (out[key] !== next) changed = true;
    out[key] = next;
  }
  return changed ? (Object.freeze(out) as T) : base;
}
