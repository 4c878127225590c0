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

/**
 * Renders a machine as a Mermaid `stateDiagram-v2`: the initial arrow, one edge per candidate
 * labelled with its outcome (and `[guard]` when guarded), descriptions, `(waits)` on wait
 * states, and an arrow out of each final state. Descriptions cannot reconfigure or break the
 * diagram: `%`, `#`, `<`, `>` and `"` are written as Mermaid entity codes. Deterministic, so
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
  const lines = ['stateDiagram-v2', `  [*] --> ${machine.initial}`];
  for (const name of machine.stateNames) {
    const state = machine.states[name];
    if (state === undefined) continue;
    if (state.description !== null || state.kind === 'wait') {
      const text = state.description === null ? name : label(state.description);
      lines.push(`  ${name}: ${text}${state.kind === 'wait' ? ' (waits)' : ''}`);
    }
    for (const outcome of state.outcomes) {
      for (const { target, guard } of state.on[outcome] ?? []) {
        lines.push(`  ${name} --> ${target}: ${outcome}${guard === null ? '' : ` [${guard}]`}`);
      }
    }
    if (state.kind === 'final') lines.push(`  ${name} --> [*]`);
  }
  return `${lines.join('\n')}\n`;
}
