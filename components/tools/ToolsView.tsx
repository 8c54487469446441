"use client";

import { useMemo, useState } from "react";
import type { UseMcpResult } from "@/components/hooks/use-mcp";
import { useTokenReport } from "@/components/hooks/use-tool-catalog";
import type { ToolCatalog } from "@/lib/codemode";
import { ToolDetails } from "./ToolDetails";
import { annotationBadges, toolBadges } from "./annotations";
import { Badge, type BadgeTone } from "@/components/ui/Badge";
import { groupDigits } from "@/lib/text/display";
import styles from "./Tools.module.css";
import type { SaveTestCall } from "./TestCallForm";
import { useSkills } from "@/components/hooks/use-skills";
import { useStoredChoice } from "@/components/hooks/use-stored-choice";
import { LEFT_TAB_KEY, LEFT_TABS } from "@/components/servers/left-tabs";
import { SKILLS_NAMESPACE } from "@/lib/skills/skill";

/** Every connected server's tools, searchable, with token estimates; click one for its details and a test call. */
export function ToolsView({ mcp, catalog, onSaveCase }: { mcp: UseMcpResult; catalog: ToolCatalog; onSaveCase?: SaveTestCall }) {
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<{ server: string; tool: string } | undefined>(undefined);
  const tokens = useTokenReport(catalog);
  const hits = useMemo(() => (query.trim() ? catalog.search.search(query, 25).hits : undefined), [catalog.search, query]);
  const tokensByTool = useMemo(() => {
    const map = new Map<string, number>();
    for (const ns of tokens?.namespaces ?? []) for (const t of ns.tools) map.set(`${ns.server}\u0000${t.tool}`, t.tokens);
    return map;
  }, [tokens]);
  const lintCount = useMemo(() => {
    const map = new Map<string, number>();
    for (const f of catalog.lint) if (f.tool) map.set(`${f.server}\u0000${f.tool}`, (map.get(`${f.server}\u0000${f.tool}`) ?? 0) + 1);
    return map;
  }, [catalog.lint]);

  const server = selected && mcp.connected.find((s) => s.config.name === selected.server);
  const tool = server?.tools.find((t) => t.name === selected?.tool);
  if (selected && server && tool) {
    return (
      <ToolDetails server={server} tool={tool} mcp={mcp} catalog={catalog} onBack={() => setSelected(undefined)} {...(onSaveCase ? { onSaveCase } : {})} />
    );
  }
  if (mcp.connected.length === 0) {
    return (
      <div className="empty-state">
        <h3>No connected servers</h3>
        <p>Tools appear here once a server is connected. Check the Servers tab for connection errors, or add a server.</p>
      </div>
    );
  }
  const total = tokens?.total;
  const visible = new Set(hits?.map((h) => `${h.server}\u0000${h.tool}`));
  return (
    <div className={styles.toolsView}>
      <input
        type="search"
        placeholder="Search tools (name, description, parameters)…"
        aria-label="Search tools"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p className="muted small">
        {total !== undefined ? `System prompt ≈ ${groupDigits(total)} tokens (o200k_base estimate)` : "Counting tokens…"}
        {catalog.declarations.collisions.length > 0 &&
          ` · renamed: ${catalog.declarations.collisions.flatMap((c) => c.resolved.map((r) => `${r.original} → ${r.sanitised}`)).join(", ")}`}
      </p>
      {mcp.connected.map((s) => {
        const tools = s.tools.filter((t) => !hits || visible.has(`${s.config.name}\u0000${t.name}`));
        if (tools.length === 0) return null;
        return (
          <section key={s.config.id} aria-label={`Tools of ${s.config.name}`}>
            <h4 className={styles.toolsServer}>{s.config.name}</h4>
            <ul className={styles.tools}>
              {tools.map((t) => {
                const key = `${s.config.name}\u0000${t.name}`;
                const tokens = tokensByTool.get(key);
                const lint = lintCount.get(key) ?? 0;
                return (
                  <ToolRow
                    key={t.name}
                    tool={t}
                    badges={toolBadges(t)}
                    lint={lint}
                    tokens={tokens}
                    total={total}
                    onOpen={() => setSelected({ server: s.config.name, tool: t.name })}
                  />
                );
              })}
            </ul>
          </section>
        );
      })}
      <SkillsSection catalog={catalog} visible={hits ? visible : undefined} tokensByTool={tokensByTool} total={total} />
      {hits && hits.length === 0 && <p className="muted">No tool matches &ldquo;{query}&rdquo;.</p>}
    </div>
  );
}

/** The skills in the catalog (docs/agents.md, "Skills"), each opening in the Skills tab. */
function SkillsSection({
  catalog,
  visible,
  tokensByTool,
  total,
}: {
  catalog: ToolCatalog;
  visible: ReadonlySet<string> | undefined;
  tokensByTool: ReadonlyMap<string, number>;
  total: number | undefined;
}) {
  const { inView } = useSkills();
  const [, setTab] = useStoredChoice(LEFT_TAB_KEY, LEFT_TABS, "servers");
  const skills = catalog.servers
    .find((s) => s.namespace === SKILLS_NAMESPACE)
    ?.tools.filter((t) => !visible || visible.has(`${SKILLS_NAMESPACE}\u0000${t.name}`));
  if (!skills || skills.length === 0) return null;
  return (
    <section aria-label="Tools of skills">
      <h4 className={styles.toolsServer}>skills</h4>
      <ul className={styles.tools}>
        {skills.map((t) => {
          const tokens = tokensByTool.get(`${SKILLS_NAMESPACE}\u0000${t.name}`);
          return (
            <ToolRow
              key={t.name}
              tool={t}
              badges={[
                { label: "skill", title: "A program kept as a tool (the Skills tab)", tone: "neutral" as const },
                ...annotationBadges({ destructiveHint: t.annotations?.destructiveHint }),
              ]}
              tokens={tokens}
              total={total}
              title="Opens it in the Skills tab: its tests, a call form and its code"
              onOpen={() => {
                inView.show(t.name);
                setTab("skills");
              }}
            />
          );
        })}
      </ul>
    </section>
  );
}

/** One tool of the list: its name and badges, lint and token share; a click opens it. */
function ToolRow({
  tool,
  badges,
  lint = 0,
  tokens,
  total,
  title,
  onOpen,
}: {
  tool: { name: string; description?: string };
  badges: ReadonlyArray<{ label: string; title: string; tone: BadgeTone }>;
  lint?: number;
  tokens: number | undefined;
  total: number | undefined;
  title?: string;
  onOpen: () => void;
}) {
  return (
    <li>
      <button type="button" className={styles.toolRow} onClick={onOpen} {...(title ? { title } : {})}>
        <span className={styles.toolName}>{tool.name}</span>
        {badges.map((b) => (
          <Badge key={b.label} tone={b.tone} title={b.title}>
            {b.label}
          </Badge>
        ))}
        <span className="spacer" />
        {lint > 0 && (
          <Badge tone="warn" title="Schema lint findings">
            {lint}⚑
          </Badge>
        )}
        {tokens !== undefined && total ? (
          <span className="muted" title="Tokens of this declaration (estimate) and its share of the prompt">
            {tokens} tok · {((tokens / total) * 100).toFixed(1)}%
          </span>
        ) : null}
      </button>
      {tool.description && <div className={`${styles.toolDesc} muted`}>{tool.description}</div>}
    </li>
  );
}
