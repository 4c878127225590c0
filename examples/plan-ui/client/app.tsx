import { type UIMessage, useChat } from '@ai-sdk/react';
import type { PlanDataTypes } from '@plankit/adapters/ai-sdk';
import { type PlanView, parsePlanView } from '@plankit/core/plan-view';
import { PlanChecklist, type PlanPartWarning, usePlan } from '@plankit/react';
import { type FormEvent, type ReactElement, useEffect, useState } from 'react';

/** The page's messages: any metadata, and `data-plan` parts holding a plan view. */
type ChatMessage = UIMessage<unknown, PlanDataTypes>;
type Part = ChatMessage['parts'][number];
type ToolPart = Extract<Part, { readonly type: `tool-${string}` }>;

const FIRST_MESSAGE = 'Plan and publish the 2.0 release notes.';

function reportWarning(warning: PlanPartWarning): void {
  console.warn(warning.message);
}

/** The plan the store holds for `chatId`, for a page (re)loaded before anything streams. */
function useStoredPlan(chatId: string): PlanView | null {
  const [plan, setPlan] = useState<PlanView | null>(null);
  useEffect(() => {
    let current = true;
    fetch(`/api/chats/${encodeURIComponent(chatId)}/plan`)
      .then((response) => response.json() as Promise<{ plan?: unknown }>)
      .then((body) => {
        if (!current || body.plan === null || body.plan === undefined) return;
        // The server's answer is data like any other: parsed, never trusted.
        const parsed = parsePlanView(body.plan);
        if (parsed.ok) setPlan(parsed.value);
        else console.warn(`Ignored the stored plan: ${parsed.error.message}`);
      })
      .catch((error: unknown) => console.warn(`Could not read the stored plan: ${String(error)}`));
    return () => {
      current = false;
    };
  }, [chatId]);
  return plan;
}

function ToolLine({ part }: { readonly part: ToolPart }): ReactElement {
  // A plankit tool's title trait reaches the UI as the part's title: "Mark a step".
  const name = part.title ?? part.type.slice('tool-'.length);
  const input = (part.input ?? {}) as { step_id?: unknown; status?: unknown; objective?: unknown };
  const what = [input.step_id, input.status, input.objective]
    .filter((value) => typeof value === 'string')
    .join(' ');
  switch (part.state) {
    case 'output-error':
      return (
        <p className="tool tool--refused">
          <span aria-hidden="true">{'\u26A0 '}</span>
          {name} {what}: refused. {part.errorText}
        </p>
      );
    case 'output-available':
      return (
        <p className="tool">
          <span aria-hidden="true">{'\u2713 '}</span>
          {name} {what}
        </p>
      );
    default:
      return (
        <p className="tool">
          {name} {what}: running
        </p>
      );
  }
}

function isToolPart(part: Part): part is ToolPart {
  return part.type.startsWith('tool-');
}

function Message({ message }: { readonly message: ChatMessage }): ReactElement {
  return (
    <li className={`message message--${message.role}`}>
      <span className="message__who">{message.role === 'user' ? 'You' : 'Agent'}</span>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        // Chat text may be in any language: each paragraph takes its own direction.
        if (part.type === 'text')
          return (
            <p key={key} dir="auto">
              {part.text}
            </p>
          );
        if (isToolPart(part)) return <ToolLine key={key} part={part} />;
        // The plan part is shown by the checklist beside the chat; other parts are not shown.
        return null;
      })}
    </li>
  );
}

/** The chat on the left, its live plan on the right. */
export function App({ chatId }: { readonly chatId: string }): ReactElement {
  const { messages, sendMessage, status } = useChat<ChatMessage>({ id: chatId });
  const live = usePlan(messages, { onWarning: reportWarning });
  const stored = useStoredPlan(chatId);
  const [input, setInput] = useState(FIRST_MESSAGE);
  const busy = status === 'submitted' || status === 'streaming';

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    void sendMessage({ text });
    setInput('');
  };

  return (
    <>
      <header className="app-header">
        <h1>plankit plan UI</h1>
        <p>
          A scripted agent (no network) plans in conversation <code>{chatId}</code>; its plan
          updates live beside the chat.
        </p>
      </header>
      <div className="layout">
        <main className="chat" aria-labelledby="chat-heading">
          <h2 id="chat-heading">Conversation</h2>
          <ol className="messages">
            {messages.map((message) => (
              <Message key={message.id} message={message} />
            ))}
          </ol>
          <p className="chat__status" role="status">
            {busy ? 'The agent is working' : status === 'error' ? 'The request failed' : 'Ready'}
          </p>
          <form className="composer" onSubmit={submit}>
            <label htmlFor="prompt">Message</label>
            <input
              id="prompt"
              dir="auto"
              value={input}
              onChange={(event) => setInput(event.target.value)}
              autoComplete="off"
            />
            <button type="submit" disabled={busy}>
              Send
            </button>
          </form>
        </main>
        <aside className="plan" aria-label="Plan">
          <PlanChecklist plan={live ?? stored} />
          {live === null && stored !== null ? (
            <p className="plan__source">Read back from the store.</p>
          ) : null}
        </aside>
      </div>
    </>
  );
}
