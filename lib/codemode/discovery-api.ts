/**
 * What a program can call to discover tools while it runs (`tools.search`, `tools.describe`;
 * lib/mcp/tool-discovery.ts answers them): the namespace, reserved so no server takes it, and its
 * declaration for the editor and the prompt. Pure text.
 */

/** The namespace programs discover through. */
export const DISCOVERY_NAMESPACE = "tools";

/** Most matches one search returns. */
export const DISCOVERY_MAX_LIMIT = 20;

/** The declaration of the `tools` namespace. */
export const DISCOVERY_DECLARATION = `declare namespace ${DISCOVERY_NAMESPACE}{
/** The connected servers' functions that best match a query (default 5, at most ${DISCOVERY_MAX_LIMIT}), with their declarations. */
function search(query:string|{query:string;limit?:number}):Promise<Array<{name:string;server:string;tool:string;declaration:string}>>;
/** One function's declaration, by its name as called ("namespace.function"). */
function describe(name:string):Promise<{name:string;server:string;tool:string;declaration:string}>;
}`;
