import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionPool } from '@plankit/adapters/sessions';
import { FileStore } from '@plankit/adapters/stores';
import type { TextMode } from '@plankit/core';
import { registerPlanModelReducers } from '@plankit/core/plan-model';
import type { MockLanguageModelV3 } from 'ai/test';
import { buildClient } from './build-client.ts';
import { createPlanUiServer } from './plan-ui-server.ts';
import { JAPANESE_RUN, LATER_REPLY, RELEASE_NOTES_RUN } from './script.ts';
import { scriptedModel } from './scripted-model.ts';

/** Options of {@link startPlanUi}. */
export interface StartPlanUiOptions {
  /** Where the embedded file store keeps the conversations (`.plankit` in the demo). */
  readonly storeDirectory: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number | undefined;
  /** How long each scripted model step takes, in ms, so the plan visibly advances. */
  readonly stepDelayMs?: number | undefined;
  /** A page built before (by {@link buildClient}); built now into a temporary folder if absent. */
  readonly clientDirectory?: string | undefined;
  /**
   * `'unicode'` puts the tools in Unicode mode and has the agent plan in Japanese with emoji
   * ({@link JAPANESE_RUN}); `'ascii'` (the default) is the reference and the English run.
   */
  readonly text?: TextMode | undefined;
}

/** A running plan UI. */
export interface PlanUi {
  /** The page's address, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Stops the server, closes the pool and the store, and removes a page built for it. */
  close(): Promise<void>;
}

/**
 * Builds the page (unless given one) and serves it with the chat server on 127.0.0.1: each
 * conversation gets its own scripted model, which runs {@link RELEASE_NOTES_RUN} (or, with
 * `text: 'unicode'`, {@link JAPANESE_RUN}) for its first message, and its own pooled session
 * saved to a `FileStore` in `storeDirectory`.
 */
export async function startPlanUi(options: StartPlanUiOptions): Promise<PlanUi> {
  const built =
    options.clientDirectory === undefined
      ? await mkdtemp(join(tmpdir(), 'plankit-plan-ui-'))
      : undefined;
  const clientDirectory = options.clientDirectory ?? (built as string);
  if (built !== undefined) await buildClient(built);
  const store = new FileStore({ directory: options.storeDirectory });
  const pool = createSessionPool({ store, max: 100, setup: registerPlanModelReducers });
  const models = new Map<string, MockLanguageModelV3>();
  const run = options.text === 'unicode' ? JAPANESE_RUN : RELEASE_NOTES_RUN;
  const server = createPlanUiServer({
    pool,
    clientDirectory,
    text: options.text,
    modelFor: (chatId) => {
      let model = models.get(chatId);
      if (model === undefined) {
        model = scriptedModel(run, LATER_REPLY, { stepDelayMs: options.stepDelayMs });
        models.set(chatId, model);
      }
      return model;
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.close();
      await store.close();
      if (built !== undefined) await rm(built, { recursive: true, force: true });
    },
  };
}
