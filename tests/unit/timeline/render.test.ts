import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RecordedTimeline } from "@/components/timeline/RecordedTimeline";
import { TimelineList } from "@/components/timeline/TimelineList";
import { JsonView } from "@/components/timeline/JsonView";
import { Waterfall } from "@/components/timeline/Waterfall";
import { sameRowProps } from "@/components/timeline/WaterfallRow";
import { EMPTY_CALL_RECORDS, listCallRecords, reduceCallRecords, type CallRecordsAction } from "@/lib/timeline/call-records";
import { recordView } from "@/lib/timeline/record-view";
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

  it("draws one set of gridlines for the list and places bars by their times in ms against the list's scale", () => {
    const view = recordView(syntheticRun(40));
    const model = buildWaterfall(listCallRecords(view.calls), { endMs: 400 });
    const html = renderToString(createElement(Waterfall, { model, selected: undefined, onSelect: () => {}, approvals: new Map() }));
    // One gridline per tick, however many rows.
    expect(html.match(/class="[^"]*gridline/g)?.length).toBe(model.ticks.length);
    expect(html).toContain("--from:0;--scale:calc(100% / 400)");
    const first = model.rows.find((row) => row.kind === "call");
    expect(first?.kind === "call" && html.includes(`--start:${first.startMs};--end:${first.endMs}`)).toBe(true);
  });

  it("renders server-sent text as text, never as HTML", () => {
    const html = renderToString(createElement(JsonView, { value: { name: "<img src=x onerror=alert(1)>" } }));
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
  });
});

describe("a waterfall row's memo", () => {
  const actions: CallRecordsAction[] = [
    { type: "reset", runId: "r" },
    { type: "event", runId: "r", event: { type: "call-start", callId: 1, namespace: "lab", name: "echo", args: {}, time: 0 } },
    { type: "event", runId: "r", event: { type: "call-start", callId: 2, namespace: "lab", name: "echo", args: {}, time: 5 } },
    { type: "event", runId: "r", event: { type: "call-end", callId: 1, ok: true, value: { n: 1 }, time: 20 } },
  ];
  const calls = listCallRecords(actions.reduce(reduceCallRecords, EMPTY_CALL_RECORDS));
  const props = (endMs: number, index: number, selected = false) => ({
    row: buildWaterfall(calls, { endMs }).rows[index]!,
    top: index * 24,
    height: 24,
    selected,
    onSelect: noop,
  });

  it("skips a finished call's row when only the run's axis grew", () => {
    expect(sameRowProps(props(100, 0), props(200, 0))).toBe(true);
  });

  it("renders an open call again as the axis grows (its bar runs to the end), and any row whose selection changed", () => {
    expect(sameRowProps(props(100, 1), props(200, 1))).toBe(false);
    expect(sameRowProps(props(100, 0), props(100, 0, true))).toBe(false);
  });
});

function noop(): void {}
