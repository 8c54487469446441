/** Small helpers over HostFunctions tables, shared by the replay, mock and approval wrappers. Pure. */
import type { HostFunction, HostFunctions } from "../sandbox/types";

/** The host function at namespace.name, own properties only ("constructor" is not a tool). */
export function ownFunction(host: HostFunctions | undefined, namespace: string, name: string): HostFunction | undefined {
  const fns = host && Object.hasOwn(host, namespace) ? host[namespace] : undefined;
  return fns && Object.hasOwn(fns, name) ? fns[name] : undefined;
}

/** Sets an own data property, even for "__proto__" (as buildHostFunctions gets from fromEntries). */
export function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Reports to an observer without letting its bugs change what the guest sees. */
export function safely<A extends unknown[]>(observer: ((...args: A) => void) | undefined, ...args: A): void {
  try {
    observer?.(...args);
  } catch {
    // A broken observer must not change what the code sees.
  }
}

/** Builds a new table with every function of `host` wrapped by `wrap` (namespace and name given). */
export function mapHost(host: HostFunctions, wrap: (fn: HostFunction, namespace: string, name: string) => HostFunction): HostFunctions {
  const out: HostFunctions = {};
  for (const [namespace, fns] of Object.entries(host)) {
    const wrapped: Record<string, HostFunction> = {};
    for (const [name, fn] of Object.entries(fns)) define(wrapped, name, wrap(fn, namespace, name));
    define(out, namespace, wrapped);
  }
  return out;
}
