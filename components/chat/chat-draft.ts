/**
 * Text other parts of the page put into the chat's message box (a server's prompt, from its
 * card), for the person to read, edit and send. One per page; the composer subscribes.
 */
export class ChatDraft {
  private readonly listeners = new Set<(text: string) => void>();

  /** Puts `text` into the message box (replacing what is there) and focuses it. */
  insert(text: string): void {
    for (const listener of [...this.listeners]) listener(text);
  }

  subscribe(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
