// Types for scripts/compile-hints.mjs (a plain ES module the build runs with Node).
export declare const COMPILE_HINT: string;
export declare function firstLoadChunks(nextDir: string, route?: string): string[];
export declare function markFirstLoadChunks(nextDir: string, route?: string): string[];
