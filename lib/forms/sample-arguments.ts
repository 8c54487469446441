/**
 * Plausible sample arguments from a tool's input schema, for a first call that shows what a
 * tool answers (the "Explore this server" program): defaults first, then the
 * first enum option, a value inside numeric bounds, a string shaped by its format and lengths;
 * required fields only, arrays at their minimum length. Built on the form model, so it reads
 * schemas exactly as the test-call form does. Pure.
 */
import { buildFormModel } from "./schema-form";
import type { FormNode } from "./form-model";
import { isRecord } from "../text/json-value";

const FORMAT_SAMPLES: Record<string, string> = {
  "date-time": "2026-01-01T12:00:00Z",
  date: "2026-01-01",
  time: "12:00:00",
  email: "person@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};

function sampleString(node: Extract<FormNode, { kind: "string" }>, key: string): string {
  const format = node.format ? FORMAT_SAMPLES[node.format] : undefined;
  if (format) return format;
  let text = /name|title/i.test(key) ? "Example" : "example";
  const min = node.minLength ?? 0;
  while (text.length < min) text += " example";
  return node.maxLength !== undefined ? text.slice(0, Math.max(node.maxLength, 0)) : text;
}

function sampleNumber(node: Extract<FormNode, { kind: "number" }>): number {
  const low = node.min === undefined ? undefined : node.exclusiveMin ? node.min + (node.integer ? 1 : 0.5) : node.min;
  const high = node.max === undefined ? undefined : node.exclusiveMax ? node.max - (node.integer ? 1 : 0.5) : node.max;
  let value = low ?? (high !== undefined ? Math.min(1, high) : 1);
  if (high !== undefined && value > high) value = high;
  return node.integer ? Math.ceil(value) : value;
}

/** A sample value for one node; `key` is the property name, a hint for strings. */
export function sampleValue(node: FormNode, key = ""): unknown {
  if (node.default !== undefined) return node.default;
  switch (node.kind) {
    case "string":
      return sampleString(node, key);
    case "number":
      return sampleNumber(node);
    case "boolean":
      return false;
    case "enum":
      return node.options[0]?.value ?? null;
    case "object":
      return Object.fromEntries(node.fields.filter((f) => f.required).map((f) => [f.key, sampleValue(f.node, f.key)]));
    case "array":
      return Array.from({ length: Math.min(node.minItems ?? 0, 5) }, () => sampleValue(node.item, key));
    case "json":
      return null;
  }
}

/** Sample arguments for a tool's input schema (an object; `{}` when the schema says nothing usable). */
export function sampleArguments(inputSchema: unknown): Record<string, unknown> {
  const value = sampleValue(buildFormModel(inputSchema));
  return isRecord(value) ? value : {};
}
