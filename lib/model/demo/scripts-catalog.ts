/**
 * The demo model's programs for the large catalog's example prompts (evals/large-catalog.json):
 * tasks across the captured public servers (evals/catalog/), answered offline by the catalog
 * host, so the suite measures code mode against classic where catalogs are large, with no key.
 */
import type { DemoScript } from "./demo-script";
import { list, rec, str } from "./demo-format";

const triage = `// The issue list and the pipeline do not depend on each other: fetch them together.
// These servers declare no output schema (Promise<unknown>): the fields read below are the ones they return.
const [issues, pipeline]: any[] = await Promise.all([
  github.list_issues({ owner: "acme", repo: "shop" }),
  circleci.get_latest_pipeline_status({}),
]);
// Then every issue's details at once.
const details: any[] = await Promise.all(issues.items.map((_: unknown, i: number) => github.get_issue({ owner: "acme", repo: "shop", issue_number: i + 1 })));
const text = details.length + " open issues; latest pipeline " + pipeline.id;
await slack.slack_post_message({ channel_id: "C0ENG", text });
return { issues: details.map((d) => d.id), pipeline: pipeline.id, posted: text };`;

const commits = `// No output schema (Promise<unknown>): search results come as { items }.
const found: any = await github.search_repositories({ query: "model context protocol" });
const top = found.items.slice(0, 3);
// The three repositories' commits, in parallel.
const lists: any[] = await Promise.all(top.map((r: any) => github.list_commits({ owner: "acme", repo: r.id })));
return top.map((r: any, i: number) => ({ repo: r.id, commits: lists[i].items.length }));`;

const podsReport = `// No output schemas here (Promise<unknown>): the pod list comes as { items }.
const pods: any = await kubernetes.kubectl_get({ resourceType: "pods", namespace: "shop" });
// Every pod's description at once, then one message.
const described: any[] = await Promise.all(pods.items.map((p: any) => kubernetes.kubectl_describe({ resourceType: "pod", name: p.id, namespace: "shop" })));
const text = pods.items.length + " pods in shop: " + described.map((d) => d.id).join(", ");
await slack.slack_post_message({ channel_id: "C0OPS", text });
return { pods: pods.items.map((p: any) => p.id), posted: text };`;

/** Scripts for the large catalog's prompts. */
export const CATALOG_SCRIPTS: readonly DemoScript[] = [
  {
    server: "github",
    namespaces: ["github", "circleci", "slack"],
    prompt:
      "Triage acme/shop: read its open GitHub issues with their details and the latest CircleCI pipeline, then post a one-line summary to the Slack channel C0ENG.",
    intro: "The issue list and the pipeline status are independent, so I'll fetch them together, then every issue's details at once, and post one summary.",
    searchQuery: "github issues circleci pipeline slack post message",
    code: triage,
    summarise(value) {
      const v = rec(value);
      return `Posted to C0ENG: "${str(v.posted)}" (issues ${list(v.issues)
        .map((i) => str(i))
        .join(", ")}; pipeline ${str(v.pipeline)}).`;
    },
  },
  {
    server: "github",
    namespaces: ["github"],
    prompt: "Find GitHub repositories about the Model Context Protocol and count the latest commits of the top three.",
    intro: "One search, then the three repositories' commits in parallel.",
    searchQuery: "github search repositories list commits",
    code: commits,
    summarise(value) {
      const rows = list(value).map((row) => rec(row));
      return `The top three: ${rows.map((r) => `${str(r.repo)} (${str(r.commits)} commits)`).join(", ")}.`;
    },
  },
  {
    server: "kubernetes",
    namespaces: ["kubernetes", "slack"],
    prompt: "List the pods in the Kubernetes namespace shop, describe each of them, and post how many there are to the Slack channel C0OPS.",
    intro: "The pod list first, then every pod's description in parallel, and one message.",
    searchQuery: "kubernetes get pods describe slack post message",
    code: podsReport,
    summarise(value) {
      const v = rec(value);
      return `Posted to C0OPS: "${str(v.posted)}" (pods ${list(v.pods)
        .map((p) => str(p))
        .join(", ")}).`;
    },
  },
];
