import { POOL_CHANNEL, type PoolEvent, publishDiagnostics } from '@plankit/core/diagnostics';

/**
 * Publishes a session pool event on `plankit:pool` while someone subscribes; `build` runs
 * only then.
 */
export function publishPoolEvent(build: () => PoolEvent): void {
  publishDiagnostics(POOL_CHANNEL, build);
}
