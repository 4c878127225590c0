import { describe, expect, it } from 'vitest';
import { SchemaReferences } from './schema-references.ts';

describe('SchemaReferences', () => {
  const document = {
    type: 'object',
    properties: { x: { type: 'string' }, y: { anyOf: [{ type: 'number' }] } },
    $defs: { A: { type: 'string' }, __openai_strict_ref_0: { type: 'number' } },
    definitions: { __openai_strict_ref_1: { type: 'boolean' }, 'a/b': { type: 'null' } },
  };

  it('reads a $ref of the output back through the table that named it', () => {
    const refs = new SchemaReferences(document);
    const x = refs.refName('#/properties/x', 'p');
    // Both root definitions' maps hold names a hoisted target would take: it takes the next.
    expect(refs.hoistedName(x)).toBe('__openai_strict_ref_2');
    expect(refs.hoistedName(x)).toBe('__openai_strict_ref_2');
    expect(refs.outputTarget('#/$defs/__openai_strict_ref_2')).toBe('/properties/x');
    expect(refs.outputTarget('#/$defs/__openai_strict_ref_0')).toBe('/$defs/__openai_strict_ref_0');
    expect(refs.outputTarget('#/definitions/a~1b')).toBe('/definitions/a~1b');
    expect(refs.outputTarget('#/definitions/a~1b')).toBe(refs.outputTarget('#/definitions/a%7E1b'));
    expect(refs.outputTarget('#')).toBe('');
    // A pointer the output never writes names nothing, however the document reads there.
    expect(refs.outputTarget('#/properties/x')).toBeUndefined();
    expect(refs.outputTarget('#/definitions/__openai_strict_ref_2')).toBeUndefined();
  });

  it('names targets through an allOf apart, and each target once', () => {
    const refs = new SchemaReferences({
      type: 'object',
      properties: { v: { allOf: [{ type: 'string' }] }, w: { type: 'string' } },
    });
    const v = refs.refName('#/properties/v/allOf/0', 'p');
    const w = refs.refName('#/properties/w', 'p');
    expect([refs.hoistedName(v), refs.hoistedName(w), refs.hoistedName(v)]).toEqual([
      '__openai_strict_allOf_ref_0',
      '__openai_strict_ref_0',
      '__openai_strict_allOf_ref_0',
    ]);
  });
});
