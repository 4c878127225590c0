import { ControllerError } from '../controller-error.ts';

/** The one explicit call to action of an approval request. @public */
export const APPROVAL_CTA = "Reply 'approve' or 'propose changes: ...'";

/**
 * A person's reply to {@link APPROVAL_CTA}, as an outcome of `SEEK_APPROVAL`.
 *
 * @public
 */
export type ApprovalReply =
  | {
      /** The plan is approved. */
      readonly outcome: 'approved';
    }
  | {
      /** The plan goes back for changes. */
      readonly outcome: 'rejected';
      /** The changes asked for, trimmed. */
      readonly changes: string;
    }
  | {
      /** No usable reply: ask again. */
      readonly outcome: 'no_response';
      /** `empty`: nothing was said; `unrecognized`: the reply follows neither form. */
      readonly reason: 'empty' | 'unrecognized';
    };

const QUOTES: Readonly<Record<string, string>> = {
  "'": "'",
  '"': '"',
  '`': '`',
  '\u2018': '\u2019',
  '\u201c': '\u201d',
};
const CHANGES = /^propose\s+changes\s*:\s*([\s\S]*)$/i;

/** `text` without its final run of `.` and `!`: a loop, since `/[.!]+$/` is quadratic on a long run. */
function trimFinalStops(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x21)) end--;
  return text.slice(0, end);
}

function unquote(text: string): string {
  const close = QUOTES[text.charAt(0)];
  return close !== undefined && text.length >= 2 && text.endsWith(close)
    ? text.slice(1, -1).trim()
    : text;
}

/**
 * Maps a reply to the approval request: `approve` or `approved` (any case; quotes and a final
 * `.` or `!` ignored) approves; `propose changes: <text>` rejects with the changes; anything
 * else, including an empty reply, is `no_response`. An ambiguous reply never approves and never
 * discards the plan.
 *
 * @throws ControllerError `argument_invalid` for a value that is not a string, null or undefined
 * @example
 * ```ts
 * parseApprovalReply('Approve.'); // { outcome: 'approved' }
 * parseApprovalReply('propose changes: move the launch to May'); // { outcome: 'rejected', changes: 'move the launch to May' }
 * parseApprovalReply('looks good?'); // { outcome: 'no_response', reason: 'unrecognized' }
 * ```
 * @public
 */
export function parseApprovalReply(text: string | null | undefined): ApprovalReply {
  if (text === null || text === undefined)
    return Object.freeze({ outcome: 'no_response', reason: 'empty' });
  if (typeof text !== 'string') {
    throw new ControllerError(
      'argument_invalid',
      'parseApprovalReply: text must be a string, null or undefined.',
      {
        field: 'text',
      },
    );
  }
  const reply = unquote(text.trim());
  if (reply === '') return Object.freeze({ outcome: 'no_response', reason: 'empty' });
  const word = unquote(trimFinalStops(reply).trim()).toLowerCase();
  if (word === 'approve' || word === 'approved') return Object.freeze({ outcome: 'approved' });
  const changes = CHANGES.exec(reply)?.[1]?.trim();
  if (changes !== undefined && changes !== '')
    return Object.freeze({ outcome: 'rejected', changes });
  return Object.freeze({ outcome: 'no_response', reason: 'unrecognized' });
}
