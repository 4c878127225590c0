import type { PlanView } from '@plankit/core/plan-view';
import { useEffect, useMemo, useRef } from 'react';
import { latestPlan, type PlanMessage } from './latest-plan.ts';
import type { PlanPartWarning } from './plan-part-warning.ts';

/** Options of {@link usePlan}. @public */
export interface UsePlanOptions {
  /**
   * Called once per ignored `data-plan` part (foreign or malformed), after render, so the app
   * can log or report it; the plan shown stays the last valid one.
   */
  readonly onWarning?: ((warning: PlanPartWarning) => void) | undefined;
}

/**
 * The latest valid plan in `useChat` messages, for {@link PlanChecklist}: the newest
 * `data-plan` part that parses as a plan view, or `null` before the agent makes a plan. A
 * foreign or malformed part never shows and never throws: it is skipped, and `onWarning` hears
 * of it once. The result keeps its identity while the plan part is unchanged, so streaming text
 * does not re-render the checklist.
 *
 * @example
 * ```tsx
 * const { messages } = useChat();
 * const plan = usePlan(messages, { onWarning: (warning) => console.warn(warning.message) });
 * ```
 *
 * @public
 */
export function usePlan(
  messages: readonly PlanMessage[],
  options: UsePlanOptions = {},
): PlanView | null {
  const reading = useMemo(() => latestPlan(messages), [messages]);
  const reported = useRef(new Set<string>());
  const { onWarning } = options;
  useEffect(() => {
    if (onWarning === undefined) return;
    for (const warning of reading.warnings) {
      // A streaming message is replaced on every chunk; its bad part is reported once.
      const key = `${warning.messageId}\u0000${warning.partIndex}\u0000${warning.message}`;
      if (reported.current.has(key)) continue;
      reported.current.add(key);
      onWarning(warning);
    }
  }, [reading, onWarning]);
  return reading.plan;
}
