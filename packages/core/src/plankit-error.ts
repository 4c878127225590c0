/**
 * Every error code plankit reports. The set is stable: codes are added, never renamed.
 *
 * @public
 */
export type PlankitErrorCode =
  | ToolValidationCode
  | 'argument_invalid'
  | 'data_type_invalid'
  | 'tool_definition_invalid'
  | 'tool_execution_failed'
  | 'reducer_failed'
  | 'slice_unregistered'
  | 'snapshot_invalid'
  | 'snapshot_version_unknown'
  | 'value_invalid';

/**
 * The codes plankit's own tools give a {@link ToolValidationError}: input a model sent that a
 * tool refused. The model can read the message and correct the call. `'invalid'` is the
 * default when a tool names no code.
 *
 * @public
 */
export type ToolValidationCode =
  | 'invalid'
  | 'schema'
  | 'tool_unknown'
  | 'arguments_malformed'
  | 'plan_missing'
  | 'plan_not_active'
  | 'plan_abandoned'
  | 'step_unknown'
  | 'step_in_progress'
  | 'steps_empty'
  | 'update_empty'
  | 'status_invalid'
  | 'text_empty'
  | 'text_too_long'
  | 'text_not_ascii'
  | 'text_control_char'
  | 'text_untrimmed'
  | 'text_not_nfc'
  | 'text_bidi_control'
  | 'text_lone_surrogate'
  | 'text_noncharacter'
  | 'text_line_separator'
  | 'text_bom'
  | 'text_invisible'
  | 'step_ids_exhausted'
  | 'arguments_unstorable'
  | 'dependency_invalid'
  | 'dependency_cycle'
  | 'dependency_open'
  | 'batch_refused'
  | 'list_too_long'
  | 'list_duplicate';

/** Options shared by every plankit error. @public */
export interface PlankitErrorOptions {
  /** The input field the error is about, as a dotted path (`initial_steps[1].title`). */
  readonly field?: string | undefined;
  /** The underlying error, when one caused this one. */
  readonly cause?: unknown;
}

// Registry-wide keys, so `isInstance` works even when two copies of the package are loaded.
// `plankit.error` holds the error's own name (all that 0.1 copies stamp and read);
// `plankit.error.<name>` is set for its class and every class above it, so a subclass's
// instance also passes its parent's `isInstance`.
const brand = Symbol.for('plankit.error');
const markerOf = (name: string): symbol => Symbol.for(`plankit.error.${name}`);

function brandOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as Record<symbol, unknown>)[brand];
  return typeof tag === 'string' ? tag : undefined;
}

/**
 * The names of `target` and of each class above it, up to {@link PlankitError}: a class's own
 * `errorName` literal, else (a subclass that declares none) its runtime name, as before.
 */
function namesOf(target: unknown): string[] {
  const names: string[] = [];
  for (let at: unknown = target; typeof at === 'function'; at = Object.getPrototypeOf(at)) {
    const own: unknown = Object.hasOwn(at, 'errorName') ? Reflect.get(at, 'errorName') : undefined;
    names.push(typeof own === 'string' ? own : at.name);
    if (at === PlankitError) break;
  }
  return names;
}

/**
 * The base class of every error plankit reports, with a stable code: {@link PlankitErrorCode}
 * for the core, and each other package's own union for its errors.
 * Use {@link PlankitError.isInstance} rather than `instanceof` to test for it.
 *
 * Each class declares its name as a literal, {@link PlankitError.errorName}, and every
 * instance takes its `name` and its brand from it, never from the class's runtime name: a
 * minifier renames classes (`esbuild --minify`, as Next.js and edge builds run), and the
 * error must still read `ToolValidationError` and pass `ToolValidationError.isInstance`.
 *
 * @public
 */
export class PlankitError<C extends string = PlankitErrorCode> extends Error {
  /**
   * The class's name, as a literal a minifier leaves alone: instances take their `name` and
   * their brand from it. A subclass declares its own,
   * `static override readonly errorName: string = 'TicketError'`; one that declares none
   * falls back to its runtime name, which a minified bundle shortens.
   */
  static readonly errorName: string = 'PlankitError';

  /** The stable, machine-readable reason. */
  readonly code: C;
  /** The input field at fault, when there is one. */
  readonly field: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - a sentence a person (or a model) can act on
   * @param options - the field at fault and the cause
   */
  constructor(code: C, message: string, options: PlankitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.field = options.field;
    const names = namesOf(new.target);
    const own = names[0] ?? PlankitError.errorName;
    this.name = own;
    Object.defineProperty(this, brand, { value: own });
    for (const name of names) Object.defineProperty(this, markerOf(name), { value: true });
  }

  /** True for any plankit error, from this copy of the package or another one. */
  static isInstance(value: unknown): value is PlankitError<string> {
    return brandOf(value) !== undefined;
  }

  /**
   * True when `value` is an instance of the class whose {@link PlankitError.errorName} is
   * `name`, or of a class below it; subclasses build their own `isInstance` on it.
   */
  protected static hasBrand(value: unknown, name: string): boolean {
    if (typeof value !== 'object' || value === null) return false;
    // The second test reads errors from 0.1 copies, which stamp only their own name.
    return (value as Record<symbol, unknown>)[markerOf(name)] === true || brandOf(value) === name;
  }
}
