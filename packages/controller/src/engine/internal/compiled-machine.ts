import { Identity } from '@plankit/core/internal-unstable';
import { ControllerError } from '../../controller-error.ts';
import type { CapName } from '../default-caps.ts';
import type { GuardInput, Machine, StateKind } from '../machine.ts';

/** A candidate with its guard, as the engine runs it. */
export interface CompiledCandidate {
  readonly target: string;
  readonly guard: ((input: GuardInput) => boolean) | null;
}

/** A state as the engine runs it: outcomes in a Map, so no key can reach a prototype. */
export interface CompiledState {
  readonly name: string;
  readonly kind: StateKind;
  readonly retries: number | null | undefined;
  readonly on: ReadonlyMap<string, readonly CompiledCandidate[]>;
}

/** What a cap does. */
export type CapPolicy =
  | { readonly action: 'goto'; readonly target: string }
  | { readonly action: 'freeze' };

/** A machine as the engine runs it. */
export interface CompiledMachine {
  readonly id: string;
  readonly states: ReadonlyMap<string, CompiledState>;
  readonly outcomes: ReadonlySet<string>;
  readonly policies: ReadonlyMap<CapName, CapPolicy>;
}

/**
 * Keeps a machine's compiled form in a private field of the machine itself: invisible, not
 * forgeable, and read in one step (a WeakMap lookup costs more on every transition).
 */
class Compiled extends Identity {
  readonly #compiled: CompiledMachine;

  constructor(machine: object, compiled: CompiledMachine) {
    super(machine);
    this.#compiled = compiled;
  }

  static of(value: object): CompiledMachine | undefined {
    return #compiled in value ? (value as Compiled).#compiled : undefined;
  }
}

/** Records the compiled form of a machine `defineMachine` made. Call it before freezing. */
export function register<M extends Machine>(machine: M, value: CompiledMachine): M {
  // The constructor returns `machine` itself; returning it keeps bundlers from dropping the call.
  return new Compiled(machine, value) as unknown as M;
}

/**
 * The compiled form of `machine`.
 *
 * @throws ControllerError `argument_invalid` when `machine` was not made by `defineMachine`
 */
export function compiledOf(machine: unknown, where: string): CompiledMachine {
  const found = typeof machine === 'object' && machine !== null ? Compiled.of(machine) : undefined;
  if (found === undefined) {
    throw new ControllerError(
      'argument_invalid',
      `${where}: machine must be made by defineMachine.`,
      {
        field: 'machine',
      },
    );
  }
  return found;
}
