/**
 * The message of anything a `catch` or a rejection hands over, for a person or a log: an Error's
 * message (its name when the message is empty), anything else as `String` gives it. The one
 * place this is said (docs/ARCHITECTURE.md, "Where each concept lives").
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
