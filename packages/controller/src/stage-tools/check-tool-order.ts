import { checkOptionKeys, isRecord } from '@plankit/core/internal-unstable';
import { ControllerError } from '../controller-error.ts';
import { controllerArgument } from '../internal/checks.ts';
import { type AnyStageTool, isStageTool } from './define-stage-tool.ts';

/** A prerequisite no tool produces and the host does not supply. @public */
export interface MissingProducer {
  /** The tool that needs it. */
  readonly tool: string;
  /** The artifact. */
  readonly artifact: string;
}

/** What {@link checkToolOrder} found. @public */
export interface ToolOrderReport {
  /** True when every tool can run. */
  readonly ok: boolean;
  /** The tools that can run, in an order that respects their prerequisites (ties by name). */
  readonly order: readonly string[];
  /** Prerequisites no tool produces and that are not available. */
  readonly missing: readonly MissingProducer[];
  /** Groups of tools that wait on each other, each sorted by name. */
  readonly cycles: readonly (readonly string[])[];
  /** Every tool that can never run, sorted by name. */
  readonly blocked: readonly string[];
}

/** Options of {@link checkToolOrder}. @public */
export interface ToolOrderOptions {
  /** Artifacts present before any tool runs. */
  readonly available?: Iterable<string> | undefined;
}

const OPTION_KEYS: ReadonlySet<string> = new Set(['available']);

function argument(field: string, rule: string): ControllerError {
  return new ControllerError('argument_invalid', `checkToolOrder: ${field} ${rule}.`, { field });
}

/** Tarjan's strongly connected components of the blocked tools, over "waits for" edges. */
function cyclesAmong(
  blocked: readonly string[],
  waitsFor: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of waitsFor.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        group.push(member);
        if (member === node) break;
      }
      const selfLoop = group.length === 1 && (waitsFor.get(node) ?? []).includes(node);
      if (group.length > 1 || selfLoop) out.push(group.sort());
    }
  };
  for (const node of blocked) if (!index.has(node)) visit(node);
  return out.sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : 1));
}

/**
 * Checks that stage tools can run in some order: simulates them from the `available`
 * artifacts, a tool running once all its prerequisites are available and making its
 * `produces` available. Finds prerequisites nobody produces, tools that can never run, and the
 * cycles among them.
 *
 * @throws ControllerError `argument_invalid` for tools not made by `defineStageTool`, repeated
 *   names, or bad options
 * @example
 * ```ts
 * const report = checkToolOrder(tools, { available: ['plan_context'] });
 * if (!report.ok) console.log(report.missing, report.cycles);
 * ```
 * @public
 */
export function checkToolOrder(
  tools: readonly AnyStageTool[],
  options: ToolOrderOptions = {},
): ToolOrderReport {
  if (!Array.isArray(tools)) throw argument('tools', 'must be an array of stage tools');
  if (!isRecord(options)) throw argument('options', 'must be an object');
  checkOptionKeys('checkToolOrder', options, OPTION_KEYS, 'options.', controllerArgument);
  const byName = new Map<string, AnyStageTool>();
  for (const [position, tool] of tools.entries()) {
    if (!isStageTool(tool)) throw argument(`tools[${position}]`, 'must be made by defineStageTool');
    if (byName.has(tool.name))
      throw argument(`tools[${position}]`, `repeats the name ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const available = new Set<string>();
  for (const name of options.available ?? []) {
    if (typeof name !== 'string') throw argument('options.available', 'must hold strings only');
    available.add(name);
  }
  const initial = new Set(available);
  const producers = new Map<string, string[]>();
  for (const tool of byName.values()) {
    for (const artifact of tool.produces)
      producers.set(artifact, [...(producers.get(artifact) ?? []), tool.name]);
  }

  const remaining = [...byName.keys()].sort();
  const order: string[] = [];
  for (;;) {
    const next = remaining.findIndex((name) =>
      byName.get(name)?.prerequisites.every((p) => available.has(p)),
    );
    if (next === -1) break;
    const [name] = remaining.splice(next, 1);
    if (name === undefined) break;
    order.push(name);
    for (const artifact of byName.get(name)?.produces ?? []) available.add(artifact);
  }

  const missing: MissingProducer[] = [];
  for (const name of [...byName.keys()].sort()) {
    for (const artifact of byName.get(name)?.prerequisites ?? []) {
      if (!initial.has(artifact) && !producers.has(artifact))
        missing.push(Object.freeze({ tool: name, artifact }));
    }
  }
  const blockedSet = new Set(remaining);
  const waitsFor = new Map<string, string[]>();
  for (const name of remaining) {
    const edges = new Set<string>();
    for (const artifact of byName.get(name)?.prerequisites ?? []) {
      if (available.has(artifact)) continue;
      for (const producer of producers.get(artifact) ?? [])
        if (blockedSet.has(producer)) edges.add(producer);
    }
    waitsFor.set(name, [...edges].sort());
  }
  const cycles = cyclesAmong(remaining, waitsFor).map((group) => Object.freeze(group));
  return Object.freeze({
    ok: remaining.length === 0,
    order: Object.freeze(order),
    missing: Object.freeze(missing),
    cycles: Object.freeze(cycles),
    blocked: Object.freeze(remaining),
  });
}
