import { RouteError } from "@/lib/http/route-error";
import { APICallError, LoadAPIKeyError } from "ai";
import { describe, expect, it } from "vitest";
import { chatErrorText } from "@/lib/model/chat-errors";
import { describeModelError, redact } from "@/lib/model/model-errors";

const ctx = { providerLabel: "OpenAI", secrets: ["sk-live-abcdefghijkl"], keyHint: "Check the key in the chat settings, or OPENAI_API_KEY on the server." };
const apiError = (statusCode: number | undefined, responseBody?: string) =>
  new APICallError({
    message: "failed",
    url: "https://api.example/v1",
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(responseBody ? { responseBody } : {}),
    cause: new Error("connect ECONNREFUSED"),
  });

describe("describeModelError", () => {
  it("words each HTTP failure for a person, with the provider's own message", () => {
    expect(describeModelError(apiError(401, '{"error":{"message":"Incorrect API key provided: sk-live-abcdefghijkl"}}'), ctx)).toEqual({
      code: "auth",
      status: 401,
      message:
        "OpenAI rejected the API key (HTTP 401). Check the key in the chat settings, or OPENAI_API_KEY on the server. The provider said: Incorrect API key provided: [redacted]",
    });
    expect(describeModelError(apiError(429), ctx)).toMatchObject({
      code: "rate_limit",
      message: "OpenAI is rate-limiting requests (HTTP 429). Wait a moment, then press Retry.",
    });
    expect(describeModelError(apiError(503, "upstream down"), ctx)).toMatchObject({
      code: "provider",
      message: expect.stringContaining("server error (HTTP 503)") as string,
    });
    expect(describeModelError(apiError(404, '{"message":"model not found"}'), ctx)).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("model not found") as string,
    });
  });

  it("says when the provider cannot be reached, or the key is missing", () => {
    expect(describeModelError(apiError(undefined), ctx)).toMatchObject({
      code: "unreachable",
      message: "Could not reach OpenAI: connect ECONNREFUSED. Is it running, and is the base URL right?",
    });
    expect(describeModelError(new LoadAPIKeyError({ message: "missing" }), ctx)).toMatchObject({ code: "missing_key" });
  });

  it("never lets a key through", () => {
    expect(redact("key sk-live-abcdefghijkl and sk-other-1234567890 and Bearer abcdefgh12345", ["sk-live-abcdefghijkl"])).toBe(
      "key [redacted] and [redacted] and [redacted]",
    );
    expect(describeModelError(new Error("boom with sk-live-abcdefghijkl"), ctx).message).toBe("The model call failed: boom with [redacted]");
  });
});

describe("chat route errors", () => {
  it("answers JSON with a stable code, which the browser turns back into the sentence", async () => {
    const response = new RouteError("refused:chat", "No.").toResponse();
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ error: { code: "refused:chat", message: "No." } });
    expect(chatErrorText(new Error(body))).toBe("No.");
    expect(chatErrorText(new Error("OpenAI is rate-limiting requests (HTTP 429)."))).toBe("OpenAI is rate-limiting requests (HTTP 429).");
    expect(chatErrorText(new TypeError("Failed to fetch"))).toMatch(/network error/);
  });
});
