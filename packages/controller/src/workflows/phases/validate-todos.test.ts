import { describe, expect, it } from 'vitest';
import { WorkflowError } from '../workflow-error.ts';
import { validateTodos } from './validate-todos.ts';

function yaml(count: number, extra = ''): string {
  const items = Array.from(
    { length: count },
    (_, i) => `  - id: ${i + 1}\n    content: "Step ${i + 1}"`,
  );
  return `phase: "Phase 1: Extract"\ndescription: Extract the requirements.\n${extra}todos:\n${items.join('\n')}\n`;
}

function refusal(
  source: Parameters<typeof validateTodos>[0],
  options?: Parameters<typeof validateTodos>[1],
) {
  const result = validateTodos(source, options);
  if (result.ok) throw new Error('expected a refusal');
  expect(WorkflowError.isInstance(result.error)).toBe(true);
  return result.error;
}

describe('validateTodos', () => {
  it("accepts the seed's example document and keeps phase and description", () => {
    const result = validateTodos(yaml(5));
    expect(result).toEqual({
      ok: true,
      value: {
        phase: 'Phase 1: Extract',
        description: 'Extract the requirements.',
        todos: [1, 2, 3, 4, 5].map((id) => ({ id, content: `Step ${id}` })),
      },
    });
    expect(result.ok && Object.isFrozen(result.value.todos[0])).toBe(true);
  });

  it('rule 1: a missing document', () => {
    const error = refusal(null);
    expect(error.code).toBe('todos_missing');
    expect(error.message).toBe('todos.yaml not found. Create it with todo_write.');
  });

  it('rule 2: a 10 MB document is refused by size and never parsed', () => {
    // Invalid YAML: had it been parsed, the reason would be the parser's.
    const huge = `todos: [${'x'.repeat(10 * 1024 * 1024)}`;
    const error = refusal(huge);
    expect(error.code).toBe('todos_too_large');
    expect(error.message).toBe(`todos.yaml is ${huge.length} bytes; the limit is 65536 bytes.`);
    expect(refusal({ kind: 'oversized', bytes: 10_485_760 }).message).toBe(
      'todos.yaml is 10485760 bytes; the limit is 65536 bytes.',
    );
  });

  it('rule 2 counts UTF-8 bytes, not characters', () => {
    const text = yaml(5, `note: "${'é'.repeat(40)}"\n`);
    expect(validateTodos(text, { maxBytes: text.length + 10 }).ok).toBe(false);
    expect(validateTodos(text, { maxBytes: text.length + 40 }).ok).toBe(true);
    const emoji = yaml(5, `note: "${'\u{1F600}'.repeat(10)}"\n`);
    expect(refusal(emoji, { maxBytes: emoji.length }).message).toContain(
      `${emoji.length + 20} bytes`,
    );
  });

  it("rule 3: invalid YAML, with the parser's error", () => {
    const error = refusal('todos: [1,\n  - id: 2');
    expect(error.code).toBe('todos_yaml_invalid');
    expect(error.message).toMatch(/^Invalid YAML: .+ at line \d+, column \d+/);
  });

  it('rule 3: duplicate keys and several documents are invalid YAML', () => {
    expect(refusal(`${yaml(5)}todos: []\n`).message).toMatch(/Map keys must be unique/);
    expect(refusal(`${yaml(5)}---\n${yaml(5)}`).message).toMatch(/multiple documents/);
  });

  it('rule 3: the error message is clipped', () => {
    const error = refusal(`todos: [${'a, '.repeat(2000)}\n- x`);
    expect(error.message.length).toBeLessThanOrEqual('Invalid YAML: '.length + 1000);
  });

  it('rule 3: refuses documents nested deeper than a todos list can be, before parsing them', () => {
    // Each of these overflows the parser's recursion; in one process, that can abort it.
    const deep = [
      '['.repeat(60_000),
      '- '.repeat(30_000),
      `${'- '.repeat(2000)}x`,
      '{'.repeat(20_000),
      '- ['.repeat(5000),
    ];
    for (const text of deep) {
      expect(refusal(text, { maxBytes: 100_000 }).message).toBe(
        'Invalid YAML: todos.yaml line 1 nests more than 64 levels.',
      );
    }
    const wide = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}- `).join('\n');
    expect(refusal(wide, { maxBytes: 100_000 }).message).toBe(
      'Invalid YAML: todos.yaml line 257 is indented more than 256 spaces.',
    );
    // Brackets in quoted text, comments and balanced plain text are not nesting.
    const brackets = [
      'todos:',
      '  - id: 1',
      `    content: "${'['.repeat(70)} \\" still quoted"`,
      '  - id: 2',
      `    content: '${'{'.repeat(70)} it''s quoted'`,
      '  - id: 3',
      `    content: plain ${'[x]'.repeat(70)}`,
      '  - id: 4',
      `    content: commented # ${'['.repeat(70)}`,
      '  - id: 5',
      '    content: last',
    ].join('\n');
    expect(validateTodos(brackets).ok).toBe(true);
  });

  it("rule 4: no 'todos' list", () => {
    for (const text of [
      '',
      '# nothing',
      'phase: x',
      'todos: 5',
      'todos:\n  a: 1',
      '- id: 1',
      '42',
    ]) {
      const error = refusal(text);
      expect(error.code).toBe('todos_list_missing');
      expect(error.message).toBe("todos.yaml must have a 'todos' list.");
    }
  });

  it('rule 5: the count, with the exact message', () => {
    expect(refusal(yaml(4)).message).toBe('Expected 5-20 todos, got 4.');
    expect(refusal(yaml(21)).message).toBe('Expected 5-20 todos, got 21.');
    expect(refusal('todos: []').message).toBe('Expected 5-20 todos, got 0.');
    expect(refusal(yaml(2), { range: { min: 3, max: 8 } }).message).toBe(
      'Expected 3-8 todos, got 2.',
    );
    expect(validateTodos(yaml(20)).ok).toBe(true);
  });

  it('rule 5 comes before the items: a short list of bad items is a count problem', () => {
    expect(refusal('todos:\n  - id: "1"').code).toBe('todos_count');
  });

  it('rule 6: ids as strings are not ids', () => {
    const text = yaml(5).replace('id: 3', 'id: "3"');
    const error = refusal(text);
    expect(error.code).toBe('todo_invalid');
    expect(error.field).toBe('todos[2].id');
    expect(error.message).toBe('todos[2].id must be an integer, got "3" (a string).');
  });

  it('rule 6: every other bad item, naming the field', () => {
    const cases: [string, string, string][] = [
      ['id: 2', 'id: 2.5', 'todos[1].id must be an integer, got 2.5 (a number).'],
      [
        'id: 2',
        'id: 99999999999999999999',
        'todos[1].id must be an integer, got 100000000000000000000 (a number).',
      ],
      [
        '    content: "Step 2"',
        '    content: 42',
        'todos[1].content must be a non-empty string, got 42 (a number).',
      ],
      [
        '    content: "Step 2"',
        '    content: "  "',
        'todos[1].content must be a non-empty string, got a blank string.',
      ],
      [
        '    content: "Step 2"',
        '    text: "Step 2"',
        'todos[1].content must be a non-empty string, got no content.',
      ],
      ['  - id: 2\n', '  - ident: 2\n', 'todos[1].id must be an integer, got no id.'],
    ];
    for (const [from, to, message] of cases)
      expect(refusal(yaml(5).replace(from, to)).message).toBe(message);
    const scalar = yaml(5).replace('  - id: 2\n    content: "Step 2"', '  - just text');
    expect(refusal(scalar).message).toBe(
      "todos[1] must be a mapping with an integer 'id' and a string 'content', got a string.",
    );
  });

  it('rule 7: ids must be unique', () => {
    const error = refusal(yaml(5).replace('id: 4', 'id: 2'));
    expect(error.code).toBe('todo_id_duplicate');
    expect(error.message).toBe('todos[3].id repeats id 2 of todos[1]; ids must be unique.');
  });

  it('ignores unknown keys, and metadata that is not a string', () => {
    const text = yaml(5, 'owner: me\n')
      .replace('phase: "Phase 1: Extract"', 'phase: 7')
      .replace('id: 1', 'id: 1\n    status: done');
    const result = validateTodos(text);
    expect(result.ok && result.value.phase).toBe(null);
    expect(result.ok && result.value.todos[0]).toEqual({ id: 1, content: 'Step 1' });
  });

  it('reads __proto__ as a plain key and aliases as values', () => {
    const result = validateTodos(`__proto__: { polluted: true }\n${yaml(5)}`);
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const aliased = validateTodos(
      `base: &t { id: 1, content: a }\ntodos: [*t, {id: 2, content: b}, {id: 3, content: c}, {id: 4, content: d}, {id: 5, content: e}]`,
    );
    expect(aliased.ok && aliased.value.todos[0]).toEqual({ id: 1, content: 'a' });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const name = String.fromCharCode(98 + i);
        return `${name}: &${name} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`;
      }),
      'todos: *i',
    ].join('\n');
    expect(refusal(bomb).code).toBe('todos_yaml_invalid');
  });

  it('throws on bad options and sources: programmer errors', () => {
    expect(() => validateTodos(yaml(5), { range: { min: 0, max: 3 } })).toThrow(/options.range/);
    expect(() => validateTodos(yaml(5), { maxBytes: 0 })).toThrow(/options.maxBytes/);
    expect(() => validateTodos(yaml(5), { strict: true } as never)).toThrow(
      /options.strict is not an option/,
    );
    expect(() => validateTodos(42 as never)).toThrow(/source must be/);
  });

  it('names an unknown option key of any length quoted, clipped and on one line', () => {
    const key = `k\n${'x'.repeat(1 << 20)}`;
    let thrown: unknown;
    try {
      validateTodos(yaml(5), { [key]: true } as never);
    } catch (error) {
      thrown = error;
    }
    const { message, field } = thrown as { message: string; field: string };
    expect(message).toMatch(/^validateTodos: options\."k\\nxxx.*\.\.\." is not an option\.$/);
    expect(message.length).toBeLessThan(200);
    expect(field.length).toBeLessThan(100);
  });
});
