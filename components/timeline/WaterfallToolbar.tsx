"use client";

import type { GroupBy } from "@/lib/timeline/waterfall";
import type { DisplayStatus, Facets } from "@/lib/timeline/waterfall-filter";
import styles from "./Timeline.module.css";

/** What the toolbar controls. Empty strings mean "all". */
export interface ToolbarState {
  server: string;
  tool: string;
  status: DisplayStatus | "problems" | "";
  search: string;
  groupBy: GroupBy;
  zoom: boolean;
}

/** The toolbar's starting state: everything shown, in time order. */
export const INITIAL_TOOLBAR: ToolbarState = { server: "", tool: "", status: "", search: "", groupBy: "time", zoom: false };

/** The statuses "problems" stands for. */
export const PROBLEM_STATUSES: readonly DisplayStatus[] = ["error", "warning", "cancelled"];

/** Filters (server, tool, status), search and grouping for the waterfall. */
export function WaterfallToolbar({ state, facets, onChange }: { state: ToolbarState; facets: Facets; onChange: (next: ToolbarState) => void }) {
  const set = (patch: Partial<ToolbarState>) => onChange({ ...state, ...patch });
  const tools = state.server ? facets.tools.filter((t) => t.value.startsWith(`${state.server}.`)) : facets.tools;
  return (
    <div className={`toolbar ${styles.filters}`} role="search" aria-label="Filter tool calls">
      <input
        type="search"
        placeholder="Search arguments, results, errors…"
        aria-label="Search arguments, results and errors"
        value={state.search}
        onChange={(event) => set({ search: event.target.value })}
      />
      <select aria-label="Server" value={state.server} onChange={(event) => set({ server: event.target.value, tool: "" })}>
        <option value="">all servers</option>
        {facets.servers.map((f) => (
          <option key={f.value} value={f.value}>
            {f.value} ({f.count})
          </option>
        ))}
      </select>
      <select aria-label="Tool" value={state.tool} onChange={(event) => set({ tool: event.target.value })}>
        <option value="">all tools</option>
        {tools.map((f) => (
          <option key={f.value} value={f.value}>
            {f.value} ({f.count})
          </option>
        ))}
      </select>
      <select aria-label="Status" value={state.status} onChange={(event) => set({ status: event.target.value as ToolbarState["status"] })}>
        <option value="">all statuses</option>
        <option value="problems">problems</option>
        {facets.statuses.map((f) => (
          <option key={f.value} value={f.value}>
            {f.value} ({f.count})
          </option>
        ))}
      </select>
      <select aria-label="Group rows" value={state.groupBy} onChange={(event) => set({ groupBy: event.target.value as GroupBy })}>
        <option value="time">in time order</option>
        <option value="server">by server</option>
      </select>
      <label className="check" title="Fit the time axis to the rows in view">
        <input type="checkbox" checked={state.zoom} onChange={(event) => set({ zoom: event.target.checked })} /> zoom to view
      </label>
    </div>
  );
}
