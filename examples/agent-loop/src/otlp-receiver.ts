import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute value as the receiver decoded it. */
export type DecodedValue = string | number | boolean | DecodedValue[] | null;

/** A span as an OTLP collector receives it: its name and attributes. */
export interface DecodedSpan {
  readonly name: string;
  readonly attributes: Readonly<Record<string, DecodedValue>>;
}

/** A local OTLP/HTTP traces endpoint for tests: it decodes every export it receives. */
export interface OtlpReceiver {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  /** Every span received so far, in arrival order. */
  readonly spans: DecodedSpan[];
  /** The content types of the requests received. */
  readonly contentTypes: string[];
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Listens on 127.0.0.1 (a free port) for `POST /v1/traces`, in OTLP/HTTP JSON or protobuf,
 * decodes each request's spans and answers as a collector does.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: DecodedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    void body(request).then((data) => {
      const type = request.headers['content-type'] ?? '';
      contentTypes.push(type);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (type.startsWith('application/json')) {
        spans.push(...decodeOtlpJson(JSON.parse(data.toString('utf8'))));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        spans.push(...decodeOtlpProtobuf(data));
        // An empty ExportTraceServiceResponse.
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface JsonValue {
  readonly stringValue?: string;
  readonly boolValue?: boolean;
  readonly intValue?: number | string;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values?: readonly JsonValue[] };
}

function jsonValue(value: JsonValue | undefined): DecodedValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return null;
}

/** The spans of an OTLP/JSON `ExportTraceServiceRequest`. */
export function decodeOtlpJson(request: {
  readonly resourceSpans?: readonly {
    readonly scopeSpans?: readonly {
      readonly spans?: readonly {
        readonly name: string;
        readonly attributes?: readonly { readonly key: string; readonly value?: JsonValue }[];
      }[];
    }[];
  }[];
}): DecodedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resource) =>
    (resource.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        attributes: Object.fromEntries(
          (span.attributes ?? []).map(({ key, value }) => [key, jsonValue(value)]),
        ),
      })),
    ),
  );
}

/** The fields of one protobuf message: field number -> raw values, in order. */
type Fields = Map<number, (bigint | Buffer)[]>;

function readVarint(data: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = data[at.offset++];
    if (byte === undefined) throw new Error('truncated varint');
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

// The protobuf wire format, enough for OTLP traces: varints, 64-bit, length-delimited, 32-bit.
function fields(data: Buffer): Fields {
  const out: Fields = new Map();
  const at = { offset: 0 };
  while (at.offset < data.length) {
    const key = readVarint(data, at);
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: bigint | Buffer;
    if (wire === 0) value = readVarint(data, at);
    else if (wire === 1) {
      value = data.subarray(at.offset, at.offset + 8);
      at.offset += 8;
    } else if (wire === 2) {
      const length = Number(readVarint(data, at));
      value = data.subarray(at.offset, at.offset + length);
      at.offset += length;
    } else if (wire === 5) {
      value = data.subarray(at.offset, at.offset + 4);
      at.offset += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
    const list = out.get(field) ?? [];
    list.push(value);
    out.set(field, list);
  }
  return out;
}

const messages = (of: Fields, field: number): Buffer[] =>
  (of.get(field) ?? []).filter((value): value is Buffer => Buffer.isBuffer(value));

function anyValue(data: Buffer): DecodedValue {
  const value = fields(data);
  const [text] = messages(value, 1);
  if (text !== undefined) return text.toString('utf8');
  const [flag] = value.get(2) ?? [];
  if (typeof flag === 'bigint') return flag !== 0n;
  const [integer] = value.get(3) ?? [];
  if (typeof integer === 'bigint') return Number(BigInt.asIntN(64, integer));
  const [double] = messages(value, 4);
  if (double !== undefined) return double.readDoubleLE(0);
  const [array] = messages(value, 5);
  if (array !== undefined) return messages(fields(array), 1).map(anyValue);
  return null;
}

/** The spans of an OTLP/protobuf `ExportTraceServiceRequest`. */
export function decodeOtlpProtobuf(data: Buffer): DecodedSpan[] {
  // ExportTraceServiceRequest.resource_spans = 1; ResourceSpans.scope_spans = 2;
  // ScopeSpans.spans = 2; Span.name = 5, Span.attributes = 9; KeyValue.key = 1, value = 2.
  return messages(fields(data), 1).flatMap((resource) =>
    messages(fields(resource), 2).flatMap((scope) =>
      messages(fields(scope), 2).map((raw) => {
        const span = fields(raw);
        const attributes: Record<string, DecodedValue> = {};
        for (const pair of messages(span, 9)) {
          const keyValue = fields(pair);
          const [key] = messages(keyValue, 1);
          const [value] = messages(keyValue, 2);
          if (key !== undefined) attributes[key.toString('utf8')] = value ? anyValue(value) : null;
        }
        return { name: messages(span, 5)[0]?.toString('utf8') ?? '', attributes };
      }),
    ),
  );
}
