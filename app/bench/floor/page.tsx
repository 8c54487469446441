import { FloorProbe } from "@/components/bench/FloorProbe";

export const metadata = { title: "Page-start floor · Code Mode Playground" };

/** The stack's floor for the peers bench: the root layout and one hydrated button, nothing else. */
export default function FloorPage() {
  return <FloorProbe />;
}
