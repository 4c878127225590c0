import type { Plan, PlanStep } from '../plan.ts';

// Mermaid labels sit inside double quotes; `#quot;` and friends are its entity escapes. A `%`
// before another is written `#37;`: Mermaid reads `%%{...}%%` anywhere in the text, quoted
// labels included, as a config directive, so no label may hold `%%`. A lone `%` is unchanged.
function label(text: string): string {
  let out = '';
  let index = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    index += char.length;
    if (char === '"') out += '#quot;';
    else if (char === '%') out += text.charCodeAt(index) === 0x25 ? '#37;' : '%';
    else if (char === '#') out += '#35;';
    else if (char === '<') out += '#lt;';
    else if (char === '>') out += '#gt;';
    else if (
      code < 0x20 ||
      code === 0x7f ||
      (code >= 0x80 && code <= 0x9f) ||
      code === 0x2028 ||
      code === 0x2029
    )
      out += ' ';
    else out += char;
  }
  return out;
}

/**
 * A plan's dependency graph as a Mermaid flowchart (`flowchart TD`): one node per step,
 * labelled `<id> [<status>] <title>`, an arrow from each dependency to the step that waits
 * for it, and a class per status (`done`, `in_progress`, `blocked`, `pending`) for styling.
 * Node names are `n0`, `n1`, ... so any step id is safe; quotes, `#`, angle brackets and
 * control characters in titles are escaped, and so is a `%` before another (`%%` would open a
 * Mermaid directive such as `%%{init: ...}%%`), so a title cannot restyle or reconfigure the
 * chart.
 *
 * @example
 * ```ts
 * const text = renderPlanMermaid(plan); // paste into a ```mermaid block
 * ```
 * @public
 */
export function renderPlanMermaid(plan: Plan): string {
  const steps = plan.steps;
  const node = new Map<string, string>();
  const lines = ['flowchart TD'];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as PlanStep;
    if (!node.has(step.step_id)) node.set(step.step_id, `n${i}`);
    lines.push(
      `  n${i}["${label(`${step.step_id} [${step.status}] ${step.title}`)}"]:::${step.status}`,
    );
  }
  for (let i = 0; i < steps.length; i++) {
    const list = (steps[i] as PlanStep).depends_on;
    if (list === undefined) continue;
    for (const id of list) {
      const from = node.get(id);
      if (from !== undefined) lines.push(`  ${from} --> n${i}`);
    }
  }
  lines.push(
    '  classDef done fill:#d4edda,stroke:#2e7d32',
    '  classDef in_progress fill:#fff3cd,stroke:#b8860b',
    '  classDef blocked fill:#f8d7da,stroke:#c62828',
    '  classDef pending fill:#ffffff,stroke:#607d8b',
  );
  return lines.join('\n');
}
