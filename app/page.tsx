import { Playground } from "@/components/playground/Playground";

export default function Page() {
  return <Playground />;
}
