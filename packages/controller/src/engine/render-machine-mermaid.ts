import { compiledOf } from './internal/compiled-machine.ts';
import type { Machine } from './machine.ts';

/**
 * Description text with Mermaid's entity codes for the characters Mermaid reads as syntax:
 * `%` (a `%%{init}%%` directive anywhere reconfigures the diagram), `#` (entity codes), and
 * the markup characters `<`, `>` and `"`.
 */
function label(text: string): string {
  return text.replace(/[#%<>"]/g, (char) => `#${char.charCodeAt(0)};`);
}

// Words Mermaid's state diagram reads as syntax at the start of a line, in any case (its lexer
// ignores case): a state of one of these names must not be written bare.
const MERMAID_WORDS: ReadonlySet<string> = new Set([
  'accdescr',
  'acctitle',
  'as',
  'choice',
  'class',
  'classdef',
  'click',
  'direction',
  'end',
  'fork',
  'hide',
  'href',
  'join',
  'left',
  'note',
  'of',
  'right',
  'scale',
  'state',
  'style',
]);

/**
 * The id each state is written as: its name, or for a Mermaid word a fresh `state_<name>`
 * (suffixed until no state has it), declared with the name as its label.
 */
function stateIds(names: readonly string[]): Map<string, string> {
  const taken = new Set(names);
  const ids = new Map<string, string>();
  for (const name of names) {
    if (!MERMAID_WORDS.has(name.toLowerCase())) {
      ids.set(name, name);
      continue;
    }
    let id = `state_${name}`;
    for (let n = 2; taken.has(id); n++) id = `state_${name}_${n}`;
    taken.add(id);
    ids.set(name, id);
  }
  return ids;
}

/**
 * Renders a machine as a Mermaid `stateDiagram-v2`: the initial arrow, one edge per candidate
 * labelled with its outcome (and `[guard]` when guarded), descriptions, `(waits)` on wait
 * states, and an arrow out of each final state. Descriptions cannot reconfigure or break the
 * diagram: `%`, `#`, `<`, `>` and `"` are written as Mermaid entity codes. A state named like
 * a Mermaid keyword (`end`, `state`, `note`, `class`, ... in any case) is written as the id
 * `state_<name>`, declared first with its name as the label (`state "end" as state_end`), so it
 * cannot break the diagram. Deterministic, so
 * it can be snapshot-tested and pasted into docs.
 *
 * @throws ControllerError `argument_invalid` for a machine not made by `defineMachine`
 * @example
 * ```ts
 * const planningMachine = createPlanningController();
 * console.log(renderMachineMermaid(planningMachine));
 * // stateDiagram-v2
 * //   [*] --> COLLECT_CONTEXT
 * //   COLLECT_CONTEXT --> DRAFT_OUTLINE: sufficient_context
 * //   ...
 * ```
 * @public
 */
export function renderMachineMermaid(machine: Machine): string {
  compiledOf(machine, 'renderMachineMermaid');
  const ids = stateIds(machine.stateNames);
  const id = (name: string): string => ids.get(name) ?? name;
  const lines = ['stateDiagram-v2'];
  for (const [name, written] of ids) {
    if (written !== name) lines.push(`  state "${name}" as ${written}`);
  }
  lines.push(`  [*] --> ${id(machine.initial)}`);
  for (const name of machine.stateNames) {
    const state = machine.states[name];
    if (state === undefined) continue;
    if (state.description !== null || state.kind === 'wait') {
      const text = state.description === null ? name : label(state.description);
      lines.push(`  ${id(name)}: ${text}${state.kind === 'wait' ? ' (waits)' : ''}`);
    }
    for (const outcome of state.outcomes) {
      for (const { target, guard } of state.on[outcome] ?? []) {
        lines.push(
          `  ${id(name)} --> ${id(target)}: ${outcome}${guard === null ? '' : ` [${guard}]`}`,
        );
      }
    }
    if (state.kind === 'final') lines.push(`  ${id(name)} --> [*]`);
  }
  return `${lines.join('\n')}\n`;
}
