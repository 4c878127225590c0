// The keyword tables the strict-schema converter reads: which keywords annotate, which belong
// to a type, which hold schemas.

/**
 * Levels of nesting, counted as openai-agents-js counts them: the root is level 1, and each
 * property, item, branch and `$ref` hop is one more. Deeper is refused, as there.
 */
export const MAX_DEPTH = 100;

/**
 * Text annotations, kept as openai-node keeps them (with `examples`, copied as JSON data).
 */
export const TEXT_ANNOTATIONS: readonly string[] = ['description', 'title', '$comment'];

// The other annotations are dropped: they constrain nothing, and a `default` would read as a
// value the model may omit.
const ANNOTATIONS: ReadonlySet<string> = new Set([
  ...TEXT_ANNOTATIONS,
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** Whether a keyword only annotates (it constrains no value). */
export const isAnnotation = (key: string): boolean => ANNOTATIONS.has(key);

/** What a root keeps of a JSON Schema resource: its dialect and its base URI, as openai-node. */
export const ROOT_METADATA: readonly string[] = ['$schema', '$id'];

/** Keywords that constrain strings. */
export const STRING_KEYWORDS: readonly string[] = ['minLength', 'maxLength', 'pattern', 'format'];
/** Keywords that constrain numbers. */
export const NUMBER_KEYWORDS: readonly string[] = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];
/** Keywords that constrain arrays. */
export const ARRAY_KEYWORDS: readonly string[] = ['items', 'minItems', 'maxItems'];
/** Keywords that constrain objects. */
export const OBJECT_KEYWORDS: readonly string[] = [
  'properties',
  'required',
  'additionalProperties',
];
/** Every type-specific keyword strict mode keeps. */
export const TYPE_KEYWORDS: ReadonlySet<string> = new Set([
  ...STRING_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...OBJECT_KEYWORDS,
]);
/** The JSON Schema types. */
export const TYPES: ReadonlySet<string> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'null',
  'object',
  'array',
]);

/** Keywords that only make sense with a sibling: merged schemas that split them change meaning. */
export const COUPLED: readonly (readonly [string, string])[] = [
  ['properties', 'additionalProperties'],
  ['items', 'additionalItems'],
];

/** Bounds, by the side they bound: two of one kind merge into the tighter. */
export const BOUNDS: ReadonlyMap<string, 'min' | 'max'> = new Map([
  ['minimum', 'min'],
  ['exclusiveMinimum', 'min'],
  ['minLength', 'min'],
  ['minItems', 'min'],
  ['maximum', 'max'],
  ['exclusiveMaximum', 'max'],
  ['maxLength', 'max'],
  ['maxItems', 'max'],
]);

// Keywords whose values are schemas, by shape: a `$ref` may point through these and no other
// (not into `default`, `enum` or other literal payloads).
/** Keywords whose value is a map of schemas. */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependencies',
]);
/** Keywords whose value is a list of schemas. */
export const SCHEMA_LISTS: ReadonlySet<string> = new Set([
  'anyOf',
  'allOf',
  'oneOf',
  'items',
  'prefixItems',
]);
/** Keywords whose value is one schema. */
export const SCHEMA_SINGLES: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);

/** The keywords that hold definitions. */
export const DEFINITION_KEYWORDS: readonly ('$defs' | 'definitions')[] = ['$defs', 'definitions'];
