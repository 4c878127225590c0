import type { Result } from '@plankit/core';

/** The value of a successful result; throws the error of a failed one. */
export function unwrap<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** The error of a failed result; throws when it succeeded. */
export function refusal<E>(result: Result<unknown, E>): E {
  if (result.ok) throw new Error('expected the step to be refused');
  return result.error;
}

/** A todos document of `count` todos with ids from 1. */
export function todosYaml(count: number, title = 'Phase: build'): string {
  const items = Array.from(
    { length: count },
    (_, i) => `  - id: ${i + 1}\n    content: Task ${i + 1}`,
  );
  return `phase: "${title}"\ntodos:\n${items.join('\n')}\n`;
}
