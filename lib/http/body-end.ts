/**
 * Runs a callback once a response's body has been read to its end, failed or been cancelled by
 * the reader (the client went away): for work that must outlive the handler as long as a stream
 * is open, and end with it. Framework-free: any Fetch `Response`.
 */

/** The same response, whose body calls `done` once when it ends in any way; at once without a body. */
export function onBodyEnd(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let finished = false;
  const finish = () => {
    if (!finished) {
      finished = true;
      done();
    }
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          controller.close();
          finish();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
