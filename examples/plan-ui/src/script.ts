/** One tool call the scripted model makes. */
export interface ScriptedCall {
  readonly toolName: string;
  readonly input: object;
}

/** One model step of the script: its tool calls, or its final text. */
export type ScriptedStep = readonly ScriptedCall[] | string;

const mark = (step_id: string, status: string, note: string | null = null): ScriptedCall => ({
  toolName: 'planning_mark_step',
  input: { step_id, status, note, explanation: null },
});

/**
 * The agent's run for the first message: it plans four dependent steps, works through two,
 * tries to start publishing before legal has signed off (the tools refuse: S004 waits on S003),
 * then marks the sign-off blocked and says why. Every status shows on the way: pending,
 * in progress, done, blocked, and a step waiting on another.
 */
export const RELEASE_NOTES_RUN: readonly ScriptedStep[] = [
  [
    {
      toolName: 'planning_setup_plan',
      input: {
        objective: 'Publish the 2.0 release notes',
        initial_steps: [
          { title: 'Collect the merged changes', details: null, depends_on: [] },
          { title: 'Draft the notes', details: null, depends_on: ['S001'] },
          { title: 'Get sign-off from legal', details: null, depends_on: ['S002'] },
          { title: 'Publish the notes', details: null, depends_on: ['S003'] },
        ],
        explanation: 'A release needs its notes.',
      },
    },
  ],
  [mark('S001', 'in_progress')],
  [mark('S001', 'done', '42 pull requests merged since 1.9')],
  [mark('S002', 'in_progress')],
  [mark('S002', 'done', 'Draft in docs/release-2.0.md')],
  // Refused by the tools: S004 depends on S003, which is not done.
  [mark('S004', 'in_progress')],
  [mark('S003', 'blocked', 'Legal is out until Monday')],
  'The notes are drafted (S002). Publishing (S004) waits on the sign-off from legal (S003), which is blocked until Monday, so I stopped there.',
];

/** What the scripted model says to any later message. */
export const LATER_REPLY =
  'This scripted agent plans once per conversation: the plan beside the chat is where it stopped.';

/**
 * The same run in Japanese with emoji, for the page in Unicode mode (`text: 'unicode'`): the
 * same four dependent steps, the same refusal and the same stop. The third title spells `Café`
 * with a combining accent (`e` + U+0301), as some keyboards type it: the tools store it
 * precomposed (NFC), so the checklist shows `Café`.
 */
export const JAPANESE_RUN: readonly ScriptedStep[] = [
  [
    {
      toolName: 'planning_setup_plan',
      input: {
        objective: '2.0 のリリースノートを公開する 🚀',
        initial_steps: [
          { title: 'マージされた変更を集める', details: null, depends_on: [] },
          { title: 'ノートの下書きを書く ✍️', details: null, depends_on: ['S001'] },
          {
            title: '法務の承認を得る（Cafe\u0301 で打ち合わせ）',
            details: null,
            depends_on: ['S002'],
          },
          { title: 'ノートを公開する 📣', details: null, depends_on: ['S003'] },
        ],
        explanation: 'リリースにはノートが必要です。',
      },
    },
  ],
  [mark('S001', 'in_progress')],
  [mark('S001', 'done', '1.9 以降にマージされたプルリクエストは 42 件')],
  [mark('S002', 'in_progress')],
  [mark('S002', 'done', '下書きは docs/release-2.0.ja.md に 📄')],
  // Refused by the tools: S004 depends on S003, which is not done.
  [mark('S004', 'in_progress')],
  [mark('S003', 'blocked', '法務は月曜まで不在 🏖️')],
  'ノートの下書きはできました（S002）。公開（S004）は法務の承認（S003）待ちで、承認は月曜まで止まっているので、ここで止めました。',
];
