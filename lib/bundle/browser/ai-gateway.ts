/**
 * Stands in for `@ai-sdk/gateway` in the page's bundle (next.config.js, docs/speed.md,
 * "The page's start"). The `ai` package imports it for string model ids, which resolve through
 * the AI Gateway; the page only ever passes model objects, and the gateway provider is made on
 * the server (lib/model/server/provider-registry.ts). `ai` asks `isInstance` of every error it
 * wraps: no gateway error can exist here, so the answer is no.
 */
const absent = (): never => {
  throw new Error("The AI Gateway provider is not in the page's bundle: the server makes it (see docs/ARCHITECTURE.md, \"The page's start\").");
};

export class GatewayError extends Error {
  static isInstance(error: unknown): error is GatewayError {
    void error;
    return false;
  }
}

export class GatewayAuthenticationError extends GatewayError {}

export const createGateway = absent;
export const gateway = absent;
