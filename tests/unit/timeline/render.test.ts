import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RecordedTimeline } from "@/components/timeline/RecordedTimeline";
import { TimelineList } from "@/components/timeline/TimelineList";
import { JsonView } from "@/components/timeline/JsonView";
import { Waterfall } from "@/components/timeline/Waterfall";
import { EMPTY_CALL_RECORDS } from "@/lib/timeline/call-records";
import { syntheticRun } from "@/lib/timeline/synthetic-run";
import { buildWaterfall } from "@/lib/timeline/waterfall";

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

  it("keeps the waterfall mounted, and says so, once a run has started without calls", () => {
    const running = renderToString(createElement(TimelineList, { calls: EMPTY_CALL_RECORDS, started: true }));
    expect(running).not.toContain("No tool calls yet</h3>");
    expect(running).toContain("calls <b>0</b>");
    expect(running).toContain('role="list"');
    expect(running).toContain("No tool calls yet in this run");
    const ended = renderToString(createElement(TimelineList, { calls: EMPTY_CALL_RECORDS, started: true, endMs: 12 }));
    expect(ended).toContain("This run made no tool calls.");
  });

  it("says why a waterfall with calls shows no rows", () => {
    const model = buildWaterfall([], {});
    const html = renderToString(
      createElement(Waterfall, {
        model: { ...model, total: 3 },
        selected: undefined,
        onSelect: () => {},
        approvals: new Map(),
        emptyText: "No calls match the filters.",
      }),
    );
    expect(html).toContain("No calls match the filters.");
    expect(html).not.toContain('data-testid="timeline-row"');
  });

  it("renders server-sent text as text, never as HTML", () => {
    const html = renderToString(createElement(JsonView, { value: { name: "<img src=x onerror=alert(1)>" } }));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
  });
});
