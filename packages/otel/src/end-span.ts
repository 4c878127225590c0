import { diag, type Span } from '@opentelemetry/api';

/**
 * Ends `span`, reporting an error a span processor throws to OpenTelemetry's `diag` logger
 * instead of throwing it: where plankit ends several spans in a row (stopping, or replacing a
 * call), one processor's failure must not leave the others open or reach the caller.
 */
export function endSpan(span: Span): void {
  try {
    span.end();
  } catch (error) {
    diag.error('@plankit/otel: a span could not be ended', error);
  }
}
