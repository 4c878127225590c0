import { PlankitError } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { WorkflowError } from './workflow-error.ts';

describe('WorkflowError', () => {
  it('is a branded PlankitError with a code and a field', () => {
    const error = new WorkflowError('todos_count', 'Expected 5-20 todos, got 4.', {
      field: 'todos',
    });
    expect(error).toMatchObject({ name: 'WorkflowError', code: 'todos_count', field: 'todos' });
    expect(WorkflowError.isInstance(error)).toBe(true);
    expect(PlankitError.isInstance(error)).toBe(true);
    expect(WorkflowError.isInstance(new PlankitError('argument_invalid', 'x'))).toBe(false);
    expect(WorkflowError.isInstance({ code: 'todos_count' })).toBe(false);
  });
});
