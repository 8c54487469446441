/**
 * JSDoc text for tools and properties: descriptions, defaults, formats, notes. Kept apart
 * from the type conversion because what a model is told about a value is its own decision.
 */
import type { JsonSchema } from "./types";
import { isSchemaObject, resolveRef } from "./schema-ref";

/** Limits that shape doc text. */
export interface DocLimits {
  maxEnumMembers: number;
}

const MAX_DEFAULT_CHARS = 60;

/**
 * Makes free text safe and compact inside `/** … *\/`: `*\/` can no longer close the
 * comment, line endings are LF, trailing spaces and runs of blank lines go.
 */
export function docText(text: string): string {
  // Most descriptions are one clean line: skip the regex passes for them.
  if (!/[\r\n]|\*\/|^\s|\s$/.test(text)) return text;
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .replace(/\*\//g, "*\\/");
}

function join(doc: string, part: string): string {
  return doc === "" ? part : `${doc} ${part}`;
}

function truncate(text: string): string {
  return text.length > MAX_DEFAULT_CHARS ? `${text.slice(0, MAX_DEFAULT_CHARS - 1)}…` : text;
}

/**
 * A property's JSDoc: its description, then `@default`, `@format` and `@deprecated`, then a
 * note when its enum was too long to print. A `$ref`'d property falls back to the target's
 * description, so a shared definition's text is not lost.
 */
export function propertyDoc(property: unknown, root: JsonSchema, limits: DocLimits): string {
  if (!isSchemaObject(property)) return "";
  const ref = typeof property.$ref === "string" ? resolveRef(root, property.$ref) : undefined;
  const target = isSchemaObject(ref) ? ref : undefined;
  // Built as one string, not an array of parts: this runs for every property of every tool.
  let doc = "";
  const description = property.description ?? target?.description;
  if (typeof description === "string" && description.trim() !== "") doc = description;
  if ("default" in property) doc = join(doc, `@default ${truncate(JSON.stringify(property.default) ?? "")}`);
  const format = property.format ?? target?.format;
  if (typeof format === "string" && format !== "") doc = join(doc, `@format ${format}`);
  if ((property.deprecated ?? target?.deprecated) === true) doc = join(doc, "@deprecated");
  const values = property.enum ?? target?.enum;
  if (Array.isArray(values) && values.length > limits.maxEnumMembers) {
    const sample = values
      .slice(0, 3)
      .map((v) => truncate(JSON.stringify(v) ?? ""))
      .join(", ");
    doc = join(doc, `One of ${values.length} values, e.g. ${sample}.`);
  }
  return doc === "" ? "" : docText(doc);
}

/** The note on a tool without outputSchema: its result is whatever the unwrapping gives. */
export const NO_OUTPUT_SCHEMA_NOTE = "@returns No output schema: inspect the value before relying on its shape.";

/** The mark on a tool with an MCP App (docs/mcp-apps.md, "MCP Apps"). */
export const APP_NOTE = "@app Calling it shows the person its UI.";

/** A tool's JSDoc: its description (or title), then the no-output-schema note and the app mark when due. */
export function toolDoc(description: unknown, title: unknown, hasOutputSchema: boolean, hasApp = false): string {
  // Typed as unknown: a server can send anything, and a number here must not crash the API.
  const usable = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
  const text = usable(description) ? description : usable(title) ? title : "";
  const parts = text ? [docText(text)] : [];
  if (!hasOutputSchema) parts.push(NO_OUTPUT_SCHEMA_NOTE);
  if (hasApp) parts.push(APP_NOTE);
  return parts.join("\n");
}
