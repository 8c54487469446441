import { SandboxBench } from "@/components/bench/SandboxBench";
import { TimelineBench } from "@/components/bench/TimelineBench";

export const metadata = { title: "Sandbox benchmarks · Code Mode Playground" };

export default function BenchPage() {
  return (
    <>
      <SandboxBench />
      <div style={{ maxWidth: 900, margin: "0 auto", padding: 24 }}>
        <TimelineBench />
      </div>
    </>
  );
}
