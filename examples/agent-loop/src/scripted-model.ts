import { SCRIPT, type ScriptedReply } from './script.ts';

/** Hands out the scripted replies of each stage in order, for hosts without a recorded transcript. */
export class ScriptedModel {
  #stage = '';
  readonly #next = new Map<string, number>();

  /** Starts the stage named in a job instruction (`Stage DRAFT_OUTLINE: ...`). */
  begin(instruction: string): void {
    const stage = /^Stage ([A-Z_]+):/.exec(instruction)?.[1];
    if (stage === undefined)
      throw new Error(`Not a stage instruction: ${instruction.slice(0, 40)}`);
    this.#stage = stage;
  }

  /** The next reply of the current stage. */
  reply(): ScriptedReply {
    const index = this.#next.get(this.#stage) ?? 0;
    const reply = SCRIPT[this.#stage]?.[index];
    if (reply === undefined)
      throw new Error(`The script has no reply ${index + 1} for ${this.#stage}.`);
    this.#next.set(this.#stage, index + 1);
    return reply;
  }

  /** Replies not yet given, over all stages. */
  remaining(): number {
    let left = 0;
    for (const [stage, replies] of Object.entries(SCRIPT))
      left += replies.length - (this.#next.get(stage) ?? 0);
    return left;
  }
}
