import { isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { isCount, NAME, show, unknownKey } from '../internal/checks.ts';
import {
  CAP_NAMES,
  type CapName,
  type Caps,
  DEFAULT_CAPS,
  DEFAULT_SOFT_LIMITS,
  type SoftLimits,
} from './default-caps.ts';
import {
  type CapPolicy,
  type CompiledCandidate,
  type CompiledState,
  register,
} from './internal/compiled-machine.ts';
import { capsProblem, mergeLimits, softProblem } from './internal/limit-problems.ts';
import type { GuardInput, Machine, MachineCandidate, MachineState, StateKind } from './machine.ts';

/** One possible target of an outcome, optionally guarded. @public */
export interface TransitionCandidate<S extends string = string, O extends string = string> {
  /** The state to enter. */
  readonly target: S;
  /**
   * A pure predicate; the candidate is taken only when it returns true. Method syntax keeps
   * machines of narrower types assignable to `Machine`.
   */
  guard?(input: GuardInput<string, O>): boolean;
}

/**
 * Where an outcome leads: a state, a candidate, or candidates tried in order (the first whose
 * guard passes wins; only the last may be unguarded).
 *
 * @public
 */
export type TransitionTarget<S extends string = string, O extends string = string> =
  | S
  | TransitionCandidate<S, O>
  | readonly (S | TransitionCandidate<S, O>)[];

/** One state of a {@link MachineDefinition}. @public */
export interface StateDefinition<S extends string = string, O extends string = string> {
  /** `work` by default. */
  readonly kind?: StateKind | undefined;
  /** Outcome to target. Required (non-empty) unless the state is final. */
  readonly on?: { readonly [K in O]?: TransitionTarget<NoInfer<S>, NoInfer<O>> } | undefined;
  /** Overrides the retry cap for this state: a non-negative integer, or null for no limit. */
  readonly retries?: number | null | undefined;
  /** What happens in this state, for people and diagrams (at most 200 characters). */
  readonly description?: string | undefined;
}

/**
 * The caps a `freezeOn` list freezes, as far as its type tells: every cap of a tuple (such as
 * `['costUsd']` written in place, or an `as const` list), none of a plain `CapName[]`, whose
 * contents are only known at run time.
 *
 * @public
 */
export type FrozenCaps<F extends readonly CapName[]> = number extends F['length']
  ? never
  : F[number];

/**
 * The `onCap` keys a definition may use when the caps `Frozen` freeze: every other cap, and
 * `default`.
 *
 * @public
 */
export type OpenCapTargets<S extends string, Frozen extends CapName> = {
  readonly [K in Exclude<CapName, Frozen> | 'default']?: S | undefined;
};

/**
 * The `onCap` a definition needs, given the caps its `freezeOn` freezes: every cap that does
 * not freeze must have a target, either through `default` or one per cap, just as
 * {@link defineMachine} checks at run time. When every cap freezes, `onCap` may be left out.
 * A frozen cap may not also have a target of its own.
 *
 * @typeParam S - the state names
 * @typeParam F - the type of the `freezeOn` list
 * @public
 */
export type CapCoverage<S extends string, F extends readonly CapName[] = readonly []> = [
  Exclude<CapName, FrozenCaps<F>>,
] extends [never]
  ? {
      /** Cap targets: none needed, every cap freezes. */
      readonly onCap?: OpenCapTargets<S, FrozenCaps<F>> | undefined;
    }
  : {
      /**
       * Cap targets (final or wait states): `default` for every cap not named, or one target
       * for each cap that `freezeOn` leaves out.
       */
      readonly onCap:
        | (OpenCapTargets<S, FrozenCaps<F>> & {
            /** The target of every cap not named. */
            readonly default: S;
          })
        | (OpenCapTargets<S, FrozenCaps<F>> & {
            readonly [K in Exclude<CapName, FrozenCaps<F>>]: S;
          });
    };

/**
 * What {@link defineMachine} takes. `onCap` is required unless `freezeOn` lists every cap
 * (see {@link CapCoverage}).
 *
 * @typeParam S - the state names
 * @typeParam O - the outcomes
 * @typeParam F - the type of the `freezeOn` list
 * @public
 */
export type MachineDefinition<
  S extends string = string,
  O extends string = string,
  F extends readonly CapName[] = readonly [],
> = MachineOptions<S, O, F> & CapCoverage<NoInfer<S>, F>;

/** The parts of a {@link MachineDefinition} other than `onCap`. @public */
export interface MachineOptions<
  S extends string = string,
  O extends string = string,
  F extends readonly CapName[] = readonly [],
> {
  /** Stable id, 1-128 characters `[A-Za-z0-9_.:-]` starting with a letter; stored in snapshots. */
  readonly id: string;
  /** The state the machine starts in; not final. */
  readonly initial: NoInfer<S>;
  /** Every state by name (1-64 characters `[A-Za-z0-9_]`, starting with a letter). */
  readonly states: { readonly [K in S]: StateDefinition<S, O> };
  /**
   * Hard limits; the defaults for those left out: 45 s, 10 turns, 2 retries per stage, a stall
   * after 3 identical calls, no cost or token cap.
   */
  readonly caps?: Partial<Caps> | undefined;
  /** Soft limits raising `wrap_up`; none by default. */
  readonly soft?: Partial<SoftLimits> | undefined;
  /** Caps that freeze the machine for review instead of going to a target. */
  readonly freezeOn?: F | undefined;
  /** What the machine is for (at most 2,000 characters). */
  readonly description?: string | undefined;
}

const ID = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}$/;
const DEFINITION_KEYS: ReadonlySet<string> = new Set([
  'id',
  'initial',
  'states',
  'caps',
  'soft',
  'onCap',
  'freezeOn',
  'description',
]);
const STATE_KEYS: ReadonlySet<string> = new Set(['kind', 'on', 'retries', 'description']);
const CANDIDATE_KEYS: ReadonlySet<string> = new Set(['target', 'guard']);
const KINDS: ReadonlySet<string> = new Set(['work', 'wait', 'final']);
const CAP_TARGET_KEYS: ReadonlySet<string> = new Set([...CAP_NAMES, 'default']);

class DefinitionCheck {
  readonly id: string;
  constructor(id: string) {
    this.id = id;
  }
  fail(field: string, rule: string, state?: string): ControllerError {
    const where = state === undefined ? '' : ` (state ${state})`;
    return new ControllerError(
      'definition_invalid',
      `defineMachine(${this.id})${where}: ${field} ${rule}.`,
      {
        field,
        state,
      },
    );
  }
}

function checkDescription(
  check: DefinitionCheck,
  value: unknown,
  field: string,
  max: number,
  state?: string,
): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length > max || /[\r\n]/.test(value)) {
    throw check.fail(field, `must be one line of at most ${max} characters`, state);
  }
  return value;
}

// A function's name is whatever `Object.defineProperty` set: only an identifier (or a bound
// one) is shown, so a name cannot carry lines or markup into the Mermaid diagram.
const GUARD_NAME = /^(?:bound )*[A-Za-z_$][\w$]{0,63}$/;

function guardName(guard: (...args: never[]) => unknown): string {
  const { name } = guard;
  return typeof name === 'string' && GUARD_NAME.test(name) ? name : 'guard';
}

interface StateDraft {
  readonly name: string;
  readonly kind: StateKind;
  readonly retries: number | null | undefined;
  readonly description: string | null;
  readonly candidates: Map<string, CompiledCandidate[]>;
}

function readCandidates(
  check: DefinitionCheck,
  state: string,
  outcome: string,
  raw: unknown,
  names: ReadonlySet<string>,
): CompiledCandidate[] {
  const field = `states.${state}.on.${outcome}`;
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw check.fail(field, 'must list at least one target', state);
  const out: CompiledCandidate[] = [];
  for (const [index, item] of list.entries()) {
    const at = Array.isArray(raw) ? `${field}[${index}]` : field;
    let target: unknown = item;
    let guard: unknown;
    if (isRecord(item)) {
      const extra = unknownKey(item, CANDIDATE_KEYS);
      if (extra !== undefined) throw check.fail(`${at}.${extra}`, 'is not a candidate key', state);
      target = item['target'];
      guard = item['guard'];
    }
    if (typeof target !== 'string' || !names.has(target)) {
      throw check.fail(at, `targets ${show(target)}, which is not a state of this machine`, state);
    }
    if (guard !== undefined && typeof guard !== 'function') {
      throw check.fail(`${at}.guard`, 'must be a function', state);
    }
    if (index > 0 && out[index - 1]?.guard === null) {
      throw check.fail(at, 'is never tried: an unguarded candidate comes before it', state);
    }
    out.push(
      Object.freeze({
        target,
        guard: guard === undefined ? null : (guard as CompiledCandidate['guard']),
      }),
    );
  }
  return out;
}

function readState(
  check: DefinitionCheck,
  name: string,
  raw: unknown,
  names: ReadonlySet<string>,
): StateDraft {
  const field = `states.${name}`;
  if (!NAME.test(name)) {
    throw check.fail(field, `has a name that must match ${NAME.source}`);
  }
  if (!isRecord(raw)) throw check.fail(field, 'must be an object', name);
  const extra = unknownKey(raw, STATE_KEYS);
  if (extra !== undefined) throw check.fail(`${field}.${extra}`, 'is not a state option', name);
  const kind = raw['kind'] ?? 'work';
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    throw check.fail(`${field}.kind`, `must be work, wait or final, got ${show(kind)}`, name);
  }
  const retries = raw['retries'];
  if (retries !== undefined && retries !== null && !isCount(retries)) {
    throw check.fail(
      `${field}.retries`,
      `must be null or a non-negative integer, got ${show(retries)}`,
      name,
    );
  }
  const description = checkDescription(
    check,
    raw['description'],
    `${field}.description`,
    200,
    name,
  );
  const on = raw['on'] ?? {};
  if (!isRecord(on)) throw check.fail(`${field}.on`, 'must be an object', name);
  const candidates = new Map<string, CompiledCandidate[]>();
  for (const outcome of Object.keys(on)) {
    if (on[outcome] === undefined) continue;
    if (!NAME.test(outcome)) {
      throw check.fail(
        `${field}.on.${outcome}`,
        `is an outcome whose name must match ${NAME.source}`,
        name,
      );
    }
    candidates.set(outcome, readCandidates(check, name, outcome, on[outcome], names));
  }
  if (kind === 'final') {
    if (candidates.size > 0)
      throw check.fail(`${field}.on`, 'must be empty: the state is final', name);
    if (retries !== undefined)
      throw check.fail(`${field}.retries`, 'must be absent: the state is final', name);
  } else if (candidates.size === 0) {
    throw check.fail(
      `${field}.on`,
      'must accept at least one outcome, or the state must be final',
      name,
    );
  }
  return { name, kind: kind as StateKind, retries, description, candidates };
}

function readPolicies(
  check: DefinitionCheck,
  definition: Record<string, unknown>,
  drafts: ReadonlyMap<string, StateDraft>,
): Map<CapName, CapPolicy> {
  const onCap = definition['onCap'] ?? {};
  if (!isRecord(onCap)) throw check.fail('onCap', 'must be an object');
  const extra = unknownKey(onCap, CAP_TARGET_KEYS);
  if (extra !== undefined) throw check.fail(`onCap.${extra}`, 'is not a cap');
  for (const key of Object.keys(onCap)) {
    const target = onCap[key];
    if (target === undefined) continue;
    const draft = typeof target === 'string' ? drafts.get(target) : undefined;
    if (draft === undefined) {
      throw check.fail(
        `onCap.${key}`,
        `targets ${show(target)}, which is not a state of this machine`,
      );
    }
    if (draft.kind === 'work') {
      throw check.fail(
        `onCap.${key}`,
        `targets ${draft.name}, a work state; a cap target must be final or wait`,
        draft.name,
      );
    }
  }
  const freezeOn = definition['freezeOn'] ?? [];
  if (!Array.isArray(freezeOn)) throw check.fail('freezeOn', 'must be an array of cap names');
  const frozen = new Set<CapName>();
  for (const [index, cap] of freezeOn.entries()) {
    if (typeof cap !== 'string' || !(CAP_NAMES as readonly string[]).includes(cap)) {
      throw check.fail(`freezeOn[${index}]`, `must be a cap name, got ${show(cap)}`);
    }
    if (frozen.has(cap as CapName)) throw check.fail(`freezeOn[${index}]`, `repeats ${cap}`);
    if (onCap[cap] !== undefined) {
      throw check.fail(`freezeOn[${index}]`, `names ${cap}, which onCap also sends to a state`);
    }
    frozen.add(cap as CapName);
  }
  const policies = new Map<CapName, CapPolicy>();
  for (const cap of CAP_NAMES) {
    if (frozen.has(cap)) {
      policies.set(cap, Object.freeze({ action: 'freeze' }));
      continue;
    }
    const target = onCap[cap] ?? onCap['default'];
    if (typeof target !== 'string') {
      throw check.fail(
        `onCap.${cap}`,
        'has no target: name a final state in onCap.default (or one per cap), or list the cap in freezeOn',
      );
    }
    policies.set(cap, Object.freeze({ action: 'goto', target }));
  }
  return policies;
}

function checkReachable(
  check: DefinitionCheck,
  initial: string,
  drafts: ReadonlyMap<string, StateDraft>,
  policies: ReadonlyMap<CapName, CapPolicy>,
): void {
  const seen = new Set<string>([initial]);
  // Every cap can fire in any non-final state, and the initial state is never final.
  for (const policy of policies.values()) if (policy.action === 'goto') seen.add(policy.target);
  const queue = [...seen];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    for (const list of drafts.get(name)?.candidates.values() ?? []) {
      for (const { target } of list) {
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
  }
  for (const name of drafts.keys()) {
    if (!seen.has(name))
      throw check.fail(`states.${name}`, `is not reachable from ${initial}`, name);
  }
}

function publicState(draft: StateDraft): MachineState {
  const on: Record<string, readonly MachineCandidate[]> = {};
  for (const [outcome, list] of draft.candidates) {
    const value = Object.freeze(
      list.map(({ target, guard }) =>
        Object.freeze({ target, guard: guard === null ? null : guardName(guard) }),
      ),
    );
    Object.defineProperty(on, outcome, { value, enumerable: true });
  }
  return Object.freeze({
    kind: draft.kind,
    outcomes: Object.freeze([...draft.candidates.keys()]),
    on: Object.freeze(on),
    ...(draft.retries === undefined ? {} : { retries: draft.retries }),
    description: draft.description,
  });
}

/**
 * Checks a machine definition and returns it frozen and ready to run. Every problem is found
 * here, not at the first event: unknown keys, names, unknown targets, final states with
 * outcomes, work states without any, unreachable states, a missing final state, caps without a
 * target, and bad limits.
 *
 * @throws ControllerError `definition_invalid`, naming the field and the state
 * @example
 * ```ts
 * const review = defineMachine({
 *   id: 'review',
 *   initial: 'draft',
 *   onCap: { default: 'aborted' },
 *   states: {
 *     draft: { on: { done: 'pending_review' } },
 *     pending_review: { kind: 'wait', on: { approve: 'approved', request_changes: 'draft' } },
 *     approved: { kind: 'final' },
 *     aborted: { kind: 'final' },
 *   },
 * });
 * ```
 * @public
 */
export function defineMachine<
  S extends string,
  O extends string = never,
  const F extends readonly CapName[] = readonly [],
>(definition: MachineDefinition<S, O, F>): Machine<S, O> {
  if (!isRecord(definition)) {
    throw new ControllerError(
      'definition_invalid',
      'defineMachine: the definition must be an object.',
      {
        field: 'definition',
      },
    );
  }
  const rawId: unknown = definition.id;
  if (typeof rawId !== 'string' || !ID.test(rawId)) {
    throw new ControllerError(
      'definition_invalid',
      `defineMachine: id must match ${ID.source}, got ${show(rawId)}.`,
      {
        field: 'id',
      },
    );
  }
  const check = new DefinitionCheck(rawId);
  const raw = definition as unknown as Record<string, unknown>;
  const extra = unknownKey(raw, DEFINITION_KEYS);
  if (extra !== undefined) throw check.fail(extra, 'is not a definition key');
  const description = checkDescription(check, raw['description'], 'description', 2000);

  const states = raw['states'];
  if (!isRecord(states) || Object.keys(states).length === 0) {
    throw check.fail('states', 'must be an object with at least one state');
  }
  const names = new Set(Object.keys(states));
  const drafts = new Map<string, StateDraft>();
  for (const name of names) drafts.set(name, readState(check, name, states[name], names));

  const initial = raw['initial'];
  if (typeof initial !== 'string' || !drafts.has(initial)) {
    throw check.fail('initial', `must name a state of this machine, got ${show(initial)}`);
  }
  if (drafts.get(initial)?.kind === 'final')
    throw check.fail('initial', 'must not be a final state', initial);
  if (![...drafts.values()].some((draft) => draft.kind === 'final')) {
    throw check.fail('states', 'must include a final state');
  }

  const capsPatch = raw['caps'];
  const capsIssue = capsPatch === undefined ? null : capsProblem(capsPatch, 'caps');
  if (capsIssue !== null) throw check.fail(capsIssue.field, capsIssue.rule);
  const softPatch = raw['soft'];
  const softIssue = softPatch === undefined ? null : softProblem(softPatch, 'soft');
  if (softIssue !== null) throw check.fail(softIssue.field, softIssue.rule);
  const policies = readPolicies(check, raw, drafts);
  checkReachable(check, initial, drafts, policies);

  const compiledStates = new Map<string, CompiledState>();
  const publicStates: Record<string, MachineState> = {};
  const outcomes = new Set<string>();
  for (const draft of drafts.values()) {
    for (const outcome of draft.candidates.keys()) outcomes.add(outcome);
    compiledStates.set(
      draft.name,
      Object.freeze({
        name: draft.name,
        kind: draft.kind,
        retries: draft.retries,
        on: draft.candidates,
      }),
    );
    Object.defineProperty(publicStates, draft.name, {
      value: publicState(draft),
      enumerable: true,
    });
  }
  const onCap: Record<string, string> = {};
  const rawOnCap = (raw['onCap'] ?? {}) as Record<string, unknown>;
  for (const key of CAP_TARGET_KEYS) {
    const target = rawOnCap[key];
    if (Object.hasOwn(rawOnCap, key) && typeof target === 'string') onCap[key] = target;
  }
  const machine = {
    id: rawId,
    initial,
    stateNames: Object.freeze([...drafts.keys()]),
    outcomes: Object.freeze([...outcomes]),
    states: Object.freeze(publicStates),
    caps: mergeLimits(DEFAULT_CAPS, capsPatch as Partial<Caps> | undefined),
    soft: mergeLimits(DEFAULT_SOFT_LIMITS, softPatch as Partial<SoftLimits> | undefined),
    onCap: Object.freeze(onCap),
    freezeOn: Object.freeze([...((raw['freezeOn'] as CapName[] | undefined) ?? [])]),
    description,
  } as unknown as Machine<S, O>;
  return Object.freeze(
    register(machine, { id: rawId, states: compiledStates, outcomes, policies }),
  );
}
