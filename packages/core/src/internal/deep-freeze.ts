/**
 * Deeply freezes plain data in place. A frozen object is taken as already deeply frozen (every
 * plankit value is frozen bottom-up), so shared parts of a new snapshot cost nothing. Walks an
 * explicit stack instead of recursing, so no depth of nesting overflows the call stack.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  // Typed arrays cannot be frozen; they stay as they are.
  if (ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  // The common case, a flat record or array of primitives, never allocates the stack.
  let stack: object[] | undefined;
  let current: object | undefined = value;
  while (current !== undefined) {
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (typeof child !== 'object' || child === null || Object.isFrozen(child)) continue;
        if (ArrayBuffer.isView(child)) continue;
        // Frozen when pushed, so a cycle or a shared child is walked once.
        Object.freeze(child);
        if (stack === undefined) stack = [child];
        else stack.push(child);
      }
    } else {
      for (const key of Object.keys(current)) {
        const child: unknown = (current as Record<string, unknown>)[key];
        if (typeof child !== 'object' || child === null || Object.isFrozen(child)) continue;
        if (ArrayBuffer.isView(child)) continue;
        Object.freeze(child);
        if (stack === undefined) stack = [child];
        else stack.push(child);
      }
    }
    current = stack?.pop();
  }
  return value;
}
