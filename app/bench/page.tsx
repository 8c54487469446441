import { SandboxBench } from "@/components/bench/SandboxBench";

export const metadata = { title: "Sandbox benchmarks · Code Mode Playground" };

export default function BenchPage() {
  return <SandboxBench />;
}
