// Types of next.config.js, for the tests that read it (tests/unit/build/browser-bundle.test.ts).
import type { NextConfig } from "next";

export declare const SANDBOX_WORKER_CSP: string;
declare const nextConfig: NextConfig;
export default nextConfig;
