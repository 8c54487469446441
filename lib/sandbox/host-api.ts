import type { CallHost } from "./call-scheduler";
import type { HostFunctions } from "./types";

/** The tool names by namespace that the guest is given, read off the host functions. */
export function hostApiOf(host: HostFunctions): Record<string, string[]> {
  const api: Record<string, string[]> = {};
  for (const [namespace, tools] of Object.entries(host)) api[namespace] = Object.keys(tools);
  return api;
}

/** A CallHost that dispatches to host functions, rejecting names that are not there. */
export function callHostFor(host: HostFunctions): CallHost {
  return async (namespace, name, args, signal, callId, suspendClock) => {
    const tools = Object.hasOwn(host, namespace) ? host[namespace] : undefined;
    const fn = tools && Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (!fn) throw new Error(`Unknown tool ${namespace}.${name}`);
    return fn(args, signal, { callId, suspendClock });
  };
}
