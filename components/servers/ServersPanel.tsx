"use client";

import { countRender } from "@/components/dev/render-probe";
import { useStoredChoice } from "@/components/hooks/use-stored-choice";
import type { UseMcpResult } from "@/components/hooks/use-mcp";
import type { ToolCatalog } from "@/lib/codemode";
import { ServerList } from "./ServerList";
import { ToolsView } from "@/components/tools/ToolsView";
import dynamic from "next/dynamic";

// The Skills tab loads when first opened, not with the page (docs/speed.md, "The page's start").
const SkillsView = dynamic(() => import("@/components/skills/SkillsView").then((m) => m.SkillsView));
import type { SaveTestCall } from "@/components/tools/TestCallForm";

import { LEFT_TAB_KEY, LEFT_TABS } from "./left-tabs";

/** The left column: registered servers and their tools. */
export function ServersPanel({
  mcp,
  catalog,
  onSaveCase,
  onExplore,
  onUseInChat,
  skillCount,
}: {
  mcp: UseMcpResult;
  catalog: ToolCatalog;
  onSaveCase?: SaveTestCall;
  /** Writes the "Explore this server" program into the editor. */
  onExplore?: (serverName: string) => void;
  /** Puts a server prompt's text into the chat's message box. */
  onUseInChat?: (text: string) => void;
  /** Skills kept in this browser. */
  skillCount: number;
}) {
  countRender("servers");
  const [tab, setTab] = useStoredChoice(LEFT_TAB_KEY, LEFT_TABS, "servers");
  const toolCount = mcp.connected.reduce((n, s) => n + s.tools.length, 0);
  return (
    <section className="panel" aria-label="Servers">
      <div className="panel-header">
        <div className="tabs" role="tablist" aria-label="Server views">
          <button type="button" role="tab" aria-selected={tab === "servers"} onClick={() => setTab("servers")}>
            Servers <span className="muted">{mcp.servers.length}</span>
          </button>
          <button type="button" role="tab" aria-selected={tab === "tools"} onClick={() => setTab("tools")}>
            Tools <span className="muted">{toolCount}</span>
          </button>
          <button type="button" role="tab" aria-selected={tab === "skills"} onClick={() => setTab("skills")}>
            Skills <span className="muted">{skillCount}</span>
          </button>
        </div>
      </div>
      <div className="panel-body" role="tabpanel">
        {tab === "servers" && <ServerList mcp={mcp} {...(onExplore ? { onExplore } : {})} {...(onUseInChat ? { onUseInChat } : {})} />}
        {tab === "tools" && <ToolsView mcp={mcp} catalog={catalog} {...(onSaveCase ? { onSaveCase } : {})} />}
        {tab === "skills" && <SkillsView />}
      </div>
    </section>
  );
}
