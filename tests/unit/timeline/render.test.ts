import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RecordedTimeline } from "@/components/timeline/RecordedTimeline";
import { TimelineList } from "@/components/timeline/TimelineList";
import { JsonView } from "@/components/timeline/JsonView";
import { EMPTY_CALL_RECORDS } from "@/lib/timeline/call-records";
import { syntheticRun } from "@/lib/timeline/synthetic-run";

describe("timeline components (server render)", () => {
  it("renders a recorded run's waterfall: summary, first rows, statuses", () => {
    const html = renderToString(createElement(RecordedTimeline, { record: syntheticRun(10_000) }));
    expect(html).toContain("calls <b>10000</b>");
    expect(html.match(/data-testid="timeline-row"/g)?.length ?? 0).toBeGreaterThan(10);
    expect(html.match(/data-testid="timeline-row"/g)?.length ?? 0).toBeLessThan(100);
    expect(html).toContain("shipping.list_carriers");
  });

  it("shows the empty state before any call", () => {
    expect(renderToString(createElement(TimelineList, { calls: EMPTY_CALL_RECORDS }))).toContain("No tool calls yet");
  });

  it("renders server-sent text as text, never as HTML", () => {
    const html = renderToString(createElement(JsonView, { value: { name: "<img src=x onerror=alert(1)>" } }));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
  });
});
