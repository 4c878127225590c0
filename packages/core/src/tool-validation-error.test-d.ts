import { describe, expectTypeOf, it } from 'vitest';
import type { ToolValidationCode } from './plankit-error.ts';
import {
  ToolValidationError,
  type ToolValidationErrorCode,
  type ToolValidationErrorOptions,
} from './tool-validation-error.ts';

describe('ToolValidationError types', () => {
  it('accepts the known codes and any other string', () => {
    expectTypeOf<ToolValidationCode>().toExtend<ToolValidationErrorCode>();
    expectTypeOf<'ticket_unknown'>().toExtend<ToolValidationErrorCode>();
    expectTypeOf<ToolValidationErrorOptions['code']>().toEqualTypeOf<
      ToolValidationErrorCode | undefined
    >();
    expectTypeOf(new ToolValidationError('m').code).toEqualTypeOf<ToolValidationErrorCode>();
  });

  it('takes a message and optional options', () => {
    expectTypeOf(ToolValidationError).toBeConstructibleWith('m');
    expectTypeOf(ToolValidationError).toBeConstructibleWith('m', { code: 'custom', field: 'f' });
    // @ts-expect-error the code is a string, not a number
    new ToolValidationError('m', { code: 1 });
  });
});
