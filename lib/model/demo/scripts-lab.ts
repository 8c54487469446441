/** The demo model's programs and summaries for the lab server's example prompts. */
import type { DemoScript } from "./demo-script";
import { examplePrompt } from "./demo-script";
import { list, num, rec, str } from "./demo-format";

const flakyRetry = `// Retries must wait for the previous failure, so this loop is sequential on purpose.
for (let attempt = 0; attempt < 50; attempt++) {
  try {
    const result = await lab.flaky({ seed: "demo", rate: 0.7, attempt });
    return { tries: attempt + 1, succeededOnAttempt: attempt, roll: result.roll };
  } catch (error) {
    console.log("attempt " + attempt + " failed: " + error.message);
  }
}
throw new Error("lab.flaky did not succeed in 50 attempts");`;

const parallelSleeps = `const started = Date.now();
const results = await Promise.all([lab.sleep({ ms: 500 }), lab.sleep({ ms: 500 }), lab.sleep({ ms: 500 })]);
return { elapsedMs: Date.now() - started, sleptMs: results.map((r) => r.sleptMs) };`;

const twoErrors = `// allSettled: both calls fail, and we want to see both failures.
const [tool, protocol] = await Promise.allSettled([
  lab.fail({ message: "Deliberate tool failure from the demo" }),
  lab.protocol_error(),
]);
const describe = (s) => (s.status === "fulfilled" ? { failed: false, value: s.value } : { failed: true, name: s.reason.name, message: s.reason.message });
return { fail: describe(tool), protocolError: describe(protocol) };`;

/** Scripts for the lab example prompts, in catalog order. */
export const LAB_SCRIPTS: readonly DemoScript[] = [
  {
    server: "lab",
    prompt: examplePrompt("lab", 0),
    intro: "Each retry depends on the previous failure, so this one loops sequentially, logging every failed attempt.",
    searchQuery: "flaky retry",
    code: flakyRetry,
    summarise(value) {
      const v = rec(value);
      const tries = num(v.tries);
      if (tries === undefined) return "lab.flaky never succeeded.";
      const roll = num(v.roll);
      return `lab.flaky succeeded after **${tries} ${tries === 1 ? "try" : "tries"}** (attempt ${str(v.succeededOnAttempt)}, roll ${roll === undefined ? "?" : roll.toFixed(4)} ≥ rate 0.7). The failed attempts are in the run's logs.`;
    },
  },
  {
    server: "lab",
    prompt: examplePrompt("lab", 1),
    intro: "I'll start the three sleeps together with Promise.all and time the whole thing.",
    searchQuery: "sleep",
    code: parallelSleeps,
    summarise(value) {
      const v = rec(value);
      const elapsed = num(v.elapsedMs);
      const sleeps = list(v.sleptMs).length;
      if (elapsed === undefined) return "The run did not report a duration.";
      const verdict =
        elapsed < 1000 ? "so they really ran in parallel (one after another would take about 1500 ms)" : "longer than one sleep, so they did not all overlap";
      return `The ${sleeps} sleeps of 500 ms took **${elapsed} ms** in total, ${verdict}.`;
    },
  },
  {
    server: "lab",
    prompt: examplePrompt("lab", 2),
    intro: "I'll call both with Promise.allSettled so one failure does not hide the other, and compare what comes back.",
    searchQuery: "fail protocol error",
    code: twoErrors,
    summarise(value) {
      const v = rec(value);
      const fail = rec(v.fail);
      const protocol = rec(v.protocolError);
      return [
        "Both calls failed, in different layers:",
        "",
        `- **lab.fail** answered with a *tool error*: a normal result flagged \`isError\`, carrying \`${str(fail.message)}\`. The server ran the tool and reports the problem as data the model can read and handle.`,
        `- **lab.protocol_error** answered with a *JSON-RPC protocol error*: no result at all, the request itself failed (\`${str(protocol.message)}\`). That is how a broken or refusing server looks.`,
        "",
        "Inside the program both surface as thrown errors, so code can catch either; the difference matters for retries (a tool error is an answer, a protocol error is a failed exchange) and for what a client shows.",
      ].join("\n");
    },
  },
];
