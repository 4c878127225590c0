/** The lines {@link renderPlanReminder} always writes, in order (the rest vary with the plan). */
const OPEN_TAG = '<plan-reminder>';
const CLOSE_TAG = '</plan-reminder>';
const CLOSING_LINE = 'Keep the plan current with planning_mark_step.';
const OBJECTIVE = /^Objective: /;
const DONE = /^Done: \d+ of \d+ steps$/;
const STEP = /^\S+ \[[a-z_]+\] /;
const DEPENDENCY = /^(?:Ready|Blocked): /;
const GOAL = /^Goal \([a-z_]+\): /;

/**
 * Whether `text` is exactly a reminder {@link renderPlanReminder} writes: the tags, the
 * objective, the count, at least one open step, the optional `Ready:`/`Blocked:` lines and the
 * closing instruction. The renderer escapes control characters, so no plan text adds a line.
 */
function isReminderText(text: string): boolean {
  if (!text.startsWith(OPEN_TAG) || !text.endsWith(CLOSE_TAG)) return false;
  const lines = text.split('\n');
  const count = lines.length;
  if (count < 7) return false;
  if (lines[0] !== OPEN_TAG || lines[count - 1] !== CLOSE_TAG) return false;
  if (lines[count - 2] !== CLOSING_LINE) return false;
  if (!OBJECTIVE.test(lines[1] ?? '') || !DONE.test(lines[2] ?? '') || lines[3] !== 'Open:')
    return false;
  let index = 4;
  while (index < count - 2 && STEP.test(lines[index] ?? '')) index++;
  if (index === 4) return false;
  while (index < count - 2 && DEPENDENCY.test(lines[index] ?? '')) index++;
  if (index === count - 3 && GOAL.test(lines[index] ?? '')) index++;
  return index === count - 2;
}

/** The fields read from message objects of the hosts plankit feeds (typed loosely, not imported). */
interface MessageFields {
  readonly role?: unknown;
  readonly type?: unknown;
  readonly content?: unknown;
  readonly lc?: unknown;
  readonly id?: unknown;
  readonly kwargs?: unknown;
}

/** The text of string content, or of content that is one text part (AI SDK, OpenAI, Anthropic). */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  const part: unknown = content[0];
  if (typeof part !== 'object' || part === null) return undefined;
  const { type, text } = part as { type?: unknown; text?: unknown };
  return (type === 'text' || type === 'input_text') && typeof text === 'string' ? text : undefined;
}

/** The text of a user message in one of the shapes plankit's hosts use, or `undefined`. */
function userText(message: unknown): string | undefined {
  if (typeof message === 'string') return message;
  if (typeof message !== 'object' || message === null) return undefined;
  const fields = message as MessageFields;
  // A LangChain message as `JSON.stringify` writes it (traces, logs).
  if (fields.lc === 1 && fields.type === 'constructor') {
    const id = fields.id;
    const kwargs = fields.kwargs;
    if (!Array.isArray(id) || id.at(-1) !== 'HumanMessage') return undefined;
    if (typeof kwargs !== 'object' || kwargs === null) return undefined;
    return contentText((kwargs as MessageFields).content);
  }
  // `{ role: 'user' }` (AI SDK, OpenAI Chat Completions and Responses, Anthropic), or a
  // LangChain `HumanMessage` (`type: 'human'`).
  const user =
    fields.role === 'user'
      ? fields.type === undefined || fields.type === 'message'
      : fields.role === undefined && fields.type === 'human';
  return user ? contentText(fields.content) : undefined;
}

/**
 * Whether a message is a plan reminder {@link renderPlanReminder} wrote. The reminder goes
 * LAST in each request as a user message, by design (the cached prefix never changes with
 * the plan), so a scripted model that reads "the last user message", or a log reader showing
 * what the user said, should skip it: filter with `isPlanReminder`.
 *
 * Recognised in the shapes plankit's hosts carry it: the text itself; `{ role: 'user', content }`
 * with string content or one text part (`{ type: 'text' }` of the AI SDK, OpenAI Chat
 * Completions and Anthropic, `{ type: 'input_text' }` of OpenAI Responses, also as a
 * `type: 'message'` item); a LangChain `HumanMessage`, live or as `JSON.stringify` writes it.
 * Only the exact reminder text matches (tags, objective, count, open steps, closing line): a
 * message quoting one among other text does not, and other roles never do. A reminder from
 * your own `render` function is not recognised unless it has the same form. The check reads
 * the text alone, so a user who types a reminder's exact form is taken for one.
 *
 * @example
 * ```ts
 * const said = messages.filter((message) => !isPlanReminder(message));
 * ```
 * @param message - a message of any host, or its text
 * @returns `true` when it is a plan reminder
 * @public
 */
export function isPlanReminder(message: unknown): boolean {
  const text = userText(message);
  return text !== undefined && isReminderText(text);
}
