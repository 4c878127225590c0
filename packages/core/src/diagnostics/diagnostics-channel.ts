import { DIAGNOSTICS_CHANNELS, type DiagnosticsChannelName } from './diagnostics-channels.ts';

/**
 * What plankit needs of a `node:diagnostics_channel` channel: whether anyone listens, and a
 * way to publish. Where the module does not exist (a browser) it is a channel nobody listens to.
 *
 * @public
 */
export interface DiagnosticsChannel {
  /** True while at least one subscriber listens: build a payload only then. */
  readonly hasSubscribers: boolean;
  /** Hands `message` to every subscriber, synchronously. */
  publish(message: unknown): void;
}

/** The part of `node:diagnostics_channel` plankit uses. */
interface ChannelModule {
  channel(name: string): DiagnosticsChannel;
}

/** Reads a Node builtin without a static import (`process.getBuiltinModule`, Node >= 20.16). */
export type BuiltinLoader = (id: string) => unknown;

const SILENT: DiagnosticsChannel = Object.freeze({
  hasSubscribers: false,
  publish(): void {},
});

// Looked up once, on the first publish attempt: core runs in browsers and bundlers must not
// see an import of a Node builtin, so the module is reached through process at run time.
let loader: BuiltinLoader | null | undefined;
let channels: Map<string, DiagnosticsChannel> | undefined;

function defaultLoader(): BuiltinLoader | null {
  const process = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const get = process?.getBuiltinModule;
  return typeof get === 'function' ? (get.bind(process) as BuiltinLoader) : null;
}

function openChannels(): Map<string, DiagnosticsChannel> {
  if (loader === undefined) loader = defaultLoader();
  let module: ChannelModule | undefined;
  try {
    const loaded = loader?.('node:diagnostics_channel') as ChannelModule | undefined;
    if (typeof loaded?.channel === 'function') module = loaded;
  } catch {
    // A runtime that has getBuiltinModule but not this module: publish nowhere.
  }
  const opened = new Map<string, DiagnosticsChannel>();
  // Held here for the life of the process: Node keeps a channel's subscribers on the channel
  // object, which it would otherwise let go while nobody listens.
  for (const name of DIAGNOSTICS_CHANNELS) opened.set(name, module?.channel(name) ?? SILENT);
  return opened;
}

/**
 * The `node:diagnostics_channel` channel of one of plankit's names, or one nobody listens to
 * where that module does not exist. Publishers check `hasSubscribers` first, so nothing is
 * built while nobody listens.
 *
 * @param name - a name of {@link DIAGNOSTICS_CHANNELS}
 * @example
 * ```ts
 * const channel = diagnosticsChannel(POOL_CHANNEL);
 * if (channel.hasSubscribers) {
 *   channel.publish(Object.freeze({ type: 'pool-full', conversationId: id, live, waiting }));
 * }
 * ```
 * @public
 */
export function diagnosticsChannel(name: DiagnosticsChannelName): DiagnosticsChannel {
  if (channels === undefined) channels = openChannels();
  return channels.get(name) ?? SILENT;
}

/**
 * Publishes `build()`'s payload, frozen, on the channel `name` when someone listens; builds
 * nothing otherwise. A subscriber that throws does not reach the caller:
 * `node:diagnostics_channel` reports its error as an uncaught exception on the next tick.
 *
 * @param name - a name of {@link DIAGNOSTICS_CHANNELS}
 * @param build - makes the payload; called only when the channel has subscribers
 * @public
 */
export function publishDiagnostics<T extends object>(
  name: DiagnosticsChannelName,
  build: () => T,
): void {
  const channel = diagnosticsChannel(name);
  if (channel.hasSubscribers) channel.publish(Object.freeze(build()));
}

/**
 * Where the next publish looks for `node:diagnostics_channel`: `loader`, or
 * `process.getBuiltinModule` when `undefined`; `null` for nowhere (a browser). For tests and
 * the bench; it also restarts the generated call ids at `plankit-call-1`.
 */
export function resetDiagnostics(source?: BuiltinLoader | null): void {
  loader = source;
  channels = undefined;
  callCount = 0;
}

let callCount = 0;

/** A call id unique in this process, for a tool call whose caller gave none. */
export function nextCallId(): string {
  callCount++;
  return `plankit-call-${callCount}`;
}
