import { expect, test } from "./fixtures";
import { exportRunFile } from "../../lib/timeline/run-file";
import { syntheticRun } from "../../lib/timeline/synthetic-run";
import { PlaygroundPage } from "./pages/playground-page";
import { ServersPanel } from "./pages/servers-panel";
import { DemoToolCalls, TimelinePanel } from "./pages/timeline-panel";
import { ChatPanel } from "./pages/chat-panel";
import { examplePrompt } from "@/lib/model/demo/demo-script";
import { MAX_HISTORY } from "@/lib/timeline/history";

/** The editor's run has no limits control, so a run gets the default maxCalls (lib/sandbox/limits.ts). */
const DEFAULT_MAX_CALLS = 1_000;

const ORDER_ADDRESS = "Oranienstraße 25, 10999 Berlin";

/** A cart at Forno Rosso (open, minimum order 15 EUR) with two Margheritas, then the order. */
function orderCode(orders: number): string {
  return [
    "const placed = [];",
    `for (let i = 0; i < ${orders}; i++) {`,
    '  const cart = await store.create_cart({ storeId: "forno-rosso" });',
    '  await store.add_to_cart({ cartId: cart.cartId, itemId: "margherita", quantity: 2 });',
    `  const order = await store.place_order({ cartId: cart.cartId, deliveryAddress: "${ORDER_ADDRESS}", paymentMethod: "card" });`,
    "  placed.push({ status: order.status, total: order.total });",
    "}",
    "return placed;",
  ].join("\n");
}

test.describe("the debugging timeline", () => {
  test("a running call with progress notifications shows a progress bar on its row until it ends", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("lab");
    await playground.setCode("return await lab.sleep({ ms: 3000 });");
    await timeline.open();
    await playground.runWithShortcut();
    const progress = timeline.row(1).getByRole("progressbar", { name: "Progress of call 1" });
    await expect(progress).toBeVisible();
    await expect.poll(async () => Number(await progress.getAttribute("value"))).toBeGreaterThan(1);
    expect(await progress.getAttribute("max")).toBe("10");
    await expect(timeline.row(1)).toHaveAttribute("data-status", "ok", { timeout: 10_000 });
    await expect(progress).toHaveCount(0);
  });

  test("Promise.all over three sleeps shows three overlapping bars", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("lab");
    await playground.setCode(
      [
        "const naps = await Promise.all([lab.sleep({ ms: 400 }), lab.sleep({ ms: 400 }), lab.sleep({ ms: 400 })]);",
        "return naps.map((nap) => nap.sleptMs);",
      ].join("\n"),
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual([400, 400, 400]);

    await timeline.open();
    await expect(timeline.rows).toHaveCount(3);
    const rows = [1, 2, 3].map((id) => timeline.row(id));
    for (const row of rows) await expect(row).toHaveAttribute("data-status", "ok");

    // On screen: every bar starts before each of the others ends.
    const boxes = await Promise.all(rows.map(async (row) => (await timeline.bar(row).boundingBox()) ?? { x: NaN, width: NaN }));
    for (const a of boxes) {
      expect(a.width).toBeGreaterThan(0);
      for (const b of boxes) expect(a.x).toBeLessThan(b.x + b.width);
    }

    // In the recorded times: each call slept its 400 ms, and together they took about one sleep, not three.
    const timings = await Promise.all(rows.map((row) => timeline.barTiming(row)));
    for (const { startMs, endMs } of timings) expect(endMs - startMs).toBeGreaterThanOrEqual(390);
    for (const a of timings) for (const b of timings) expect(a.startMs).toBeLessThan(b.endMs);
    const first = Math.min(...timings.map((t) => t.startMs));
    const last = Math.max(...timings.map((t) => t.endMs));
    expect(last - first).toBeLessThan(2 * 400);
    expect(await timeline.spanMs()).toBeLessThan(2 * 400);
    await expect(timeline.summary).toContainText("peak parallel 3");
  });

  test(`a run of ${DEFAULT_MAX_CALLS} calls stays interactive: virtualised rows, filters and search`, async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("lab");
    // As many calls as one run may make; every hundredth one fails, so filters have something to find.
    await playground.setCode(
      [
        "const calls = [];",
        `for (let i = 0; i < ${DEFAULT_MAX_CALLS}; i++) {`,
        "  calls.push(i % 100 === 99 ? lab.fail({ message: `planned failure ${i}` }) : lab.echo({ message: `echo ${i}` }));",
        "}",
        "const settled = await Promise.allSettled(calls);",
        'return settled.filter((s) => s.status === "rejected").length;',
      ].join("\n"),
    );
    await playground.runWithShortcut();
    // About 15 s here: the calls go over HTTP to the demo server, ten at a time.
    await expect(playground.status).toHaveText("ok", { timeout: 50_000 });
    expect(await playground.valueJson()).toBe(10);

    await timeline.open();
    await timeline.expectShown(DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS);
    // Virtualised: a screenful of rows in the DOM, not a thousand; the last call is not rendered yet.
    const rendered = await timeline.rows.count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
    await expect(timeline.call(DEFAULT_MAX_CALLS)).toHaveCount(0);

    await timeline.scrollToEnd();
    await expect(timeline.call(DEFAULT_MAX_CALLS)).toBeInViewport();
    await expect(timeline.call(1)).toHaveCount(0);
    expect(await timeline.rows.count()).toBeLessThan(100);

    // Filter by tool: only the ten lab.fail calls remain.
    await timeline.toolFilter.selectOption("lab.fail");
    await timeline.expectShown(10, DEFAULT_MAX_CALLS);
    await expect(timeline.rows).toHaveCount(10);
    await timeline.toolFilter.selectOption("");
    await timeline.expectShown(DEFAULT_MAX_CALLS, DEFAULT_MAX_CALLS);

    // Filter by status: the same ten, now found as errors.
    await timeline.statusFilter.selectOption("error");
    await timeline.expectShown(10, DEFAULT_MAX_CALLS);
    for (const row of await timeline.rows.all()) await expect(row).toHaveAttribute("data-status", "error");
    await timeline.statusFilter.selectOption("");

    // Search in arguments: one call sent "echo 777".
    await timeline.search.fill("echo 777");
    await timeline.expectShown(1, DEFAULT_MAX_CALLS);
    await expect(timeline.rows).toHaveCount(1);
    await expect(timeline.call(778)).toBeVisible();
  });

  // Live runs stop at DEFAULT_MAX_CALLS (no limits control), so the 5 000 calls come from a run file.
  test("a recorded 5 000-call run scrolls to its last call, filters and searches with few rows in the DOM", async ({ page }) => {
    const CALLS = 5_000;
    const record = syntheticRun(CALLS, 7);
    const starts = record.events.flatMap((e) => (e.type === "call-start" ? [e] : []));
    const echoes = starts.filter((e) => e.namespace === "lab" && e.name === "echo").length;
    const errors = record.events.filter((e) => e.type === "call-end" && !e.ok).length;
    expect(echoes).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(0);

    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await timeline.open();
    await timeline.importRunFile("big-run.json", exportRunFile(record));
    await timeline.viewRun(record.id);

    await timeline.expectShown(CALLS, CALLS);
    expect(await timeline.rows.count()).toBeLessThan(100);
    await expect(timeline.call(CALLS)).toHaveCount(0);
    await timeline.scrollToEnd();
    await expect(timeline.call(CALLS)).toBeInViewport();
    expect(await timeline.rows.count()).toBeLessThan(100);

    await timeline.toolFilter.selectOption("lab.echo");
    await timeline.expectShown(echoes, CALLS);
    await timeline.toolFilter.selectOption("");
    await timeline.statusFilter.selectOption("error");
    await timeline.expectShown(errors, CALLS);
    await timeline.statusFilter.selectOption("");
    // Call 4321's arguments are {"id":4321,"query":…}; its result repeats the id, no other call's does.
    await timeline.search.fill('"id":4321,');
    await timeline.expectShown(1, CALLS);
    await expect(timeline.call(4321)).toBeVisible();
  });

  test("a replay answers from the recording after the code changed, and stops where the calls diverge", async ({ page }) => {
    const requests = new DemoToolCalls(page);
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("lab");

    const live = requests.mark();
    await playground.setCode(
      [
        'const a = await lab.echo({ message: "replay me" });',
        'const b = await lab.echo({ message: "and me", data: [1, 2] });',
        "return [a.message, b.data];",
      ].join("\n"),
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual(["replay me", [1, 2]]);
    // The listener sees live calls (otherwise "none during the replay" below would prove nothing).
    expect(requests.since(live)).toEqual([
      { server: "lab", tool: "echo" },
      { server: "lab", tool: "echo" },
    ]);

    await timeline.open();
    await timeline.replayNewestRun();
    await expect(timeline.replayBanner).toContainText("2 recorded calls");
    await timeline.setOnMismatch("stop");

    // Same calls, different formatting of the result.
    const replayed = requests.mark();
    await playground.setCode(
      [
        'const first = await lab.echo({ message: "replay me" });',
        'const second = await lab.echo({ message: "and me", data: [1, 2] });',
        "return `${first.message.toUpperCase()} / ${second.data.join('+')}`;",
      ].join("\n"),
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(requests.since(replayed)).toEqual([]);
    await timeline.openView("Calls");
    await expect(timeline.rows).toHaveCount(2);
    await expect(timeline.call(1)).toHaveAccessibleName("lab.echo, call 1, ok, replay");
    await expect(timeline.call(2)).toHaveAccessibleName("lab.echo, call 2, ok, replay");
    await timeline.showOutput();
    expect(await playground.valueJson()).toBe("REPLAY ME / 1+2");
    await timeline.open();

    // The replay answered one run and is disarmed; arm it again (the replay run recorded the same calls).
    await expect(timeline.replayBanner).toHaveCount(0);
    await timeline.replayNewestRun();
    // A second call the recording does not have: "stop" ends the run with the guest error.
    const diverged = requests.mark();
    await playground.setCode(
      ['const first = await lab.echo({ message: "replay me" });', 'const other = await lab.echo({ message: "not recorded" });', "return [first, other];"].join(
        "\n",
      ),
    );
    await playground.runWithShortcut();
    await expect(playground.status).not.toHaveText(/ok|running/);
    await expect(timeline.divergence).toContainText("Replay diverged at call 2");
    await expect(timeline.divergence).toContainText('got lab.echo({"message":"not recorded"})');
    expect(requests.since(diverged)).toEqual([]);
    await timeline.showOutput();
    await expect(playground.error).toContainText("Replay diverged at call 2");
    await expect(playground.error).toContainText("in lab.echo (call #2)");
  });

  test("a wait is impossible to miss: the Output tab says what waits and answers it, the Timeline tab and the page title carry a marker", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("store");
    await playground.setCode(orderCode(1));
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("waiting for you: store.place_order");
    const output = page.getByRole("region", { name: "Output" });
    await expect(output.getByRole("tab", { name: /Timeline/ })).toContainText("1 waiting");
    await expect(page).toHaveTitle(/^● Waiting for you · /);
    const here = output.getByRole("region", { name: "Waiting for you" });
    await expect(here).toContainText("Waiting for you: store.place_order");
    await expect(here).toContainText(`"deliveryAddress": "${ORDER_ADDRESS}"`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: "test-results/waiting-output-1280.png" });
    await here.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(playground.status).toHaveText("ok");
    expect(await playground.valueJson()).toEqual([{ status: "confirmed", total: 21.5 }]);
    await expect(here).toHaveCount(0);
    await expect(output.getByRole("tab", { name: /Timeline/ })).not.toContainText("waiting");
    await expect(page).not.toHaveTitle(/Waiting for you/);
  });

  test("place_order waits for approval on its row; deny throws in the guest, approve places the order", async ({ page }) => {
    const requests = new DemoToolCalls(page);
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("store");
    await timeline.open();

    // Deny: the call never reaches the server, and the guest's await throws.
    await playground.setCode(orderCode(1));
    let mark = requests.mark();
    await playground.runWithShortcut();
    const prompt = timeline.approvalPrompt("store.place_order");
    await expect(prompt).toBeVisible();
    await expect(timeline.row(3)).toHaveAttribute("data-status", "waiting");
    await expect(timeline.row(3)).toContainText("waiting");
    await expect(prompt).toContainText(`"deliveryAddress": "${ORDER_ADDRESS}"`);
    await expect(prompt).toContainText('"paymentMethod": "card"');
    await expect(timeline.row(3).getByRole("group", { name: "Approve store.place_order?" })).toBeVisible();
    await expect(playground.status).toHaveText("waiting for you: store.place_order");
    // The waiting call starts where the axis ends (the run's clock waits with it): its bar still shows, inside its track.
    const { bar, track } = await timeline.barAndTrack(timeline.row(3));
    expect(bar.width).toBeGreaterThanOrEqual(6);
    expect(bar.x + bar.width).toBeLessThanOrEqual(track.x + track.width + 0.5);
    await prompt.getByRole("button", { name: "Deny" }).click();
    await expect(playground.status).not.toHaveText("running");
    await expect(prompt).toHaveCount(0);
    await expect(timeline.row(3)).toHaveAttribute("data-status", "error");
    expect(requests.since(mark).map((r) => r.tool)).toEqual(["create_cart", "add_to_cart"]);
    await timeline.showOutput();
    await expect(playground.error).toContainText("denied by the person");
    await expect(playground.error).toContainText("in store.place_order (call #3)");

    // Approve: the same code, a new cart, and the order goes through.
    await timeline.open();
    mark = requests.mark();
    await playground.runWithShortcut();
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(playground.status).toHaveText("ok");
    await expect(timeline.row(3)).toHaveAttribute("data-status", "ok");
    expect(requests.since(mark).map((r) => r.tool)).toEqual(["create_cart", "add_to_cart", "place_order"]);
    await timeline.showOutput();
    expect(await playground.valueJson()).toEqual([{ status: "confirmed", total: 21.5 }]);
  });

  test("approve all for this run lets the run's later place_order calls through without asking", async ({ page }) => {
    const requests = new DemoToolCalls(page);
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("store");
    await timeline.open();

    await playground.setCode(orderCode(2));
    let mark = requests.mark();
    await playground.runWithShortcut();
    const prompt = timeline.approvalPrompt("store.place_order");
    await expect(prompt).toHaveCount(1);
    await prompt.getByRole("button", { name: "Approve all for this run" }).click();
    await expect(playground.status).toHaveText("ok");
    await expect(timeline.rows).toHaveCount(6);
    expect(requests.since(mark).filter((r) => r.tool === "place_order")).toHaveLength(2);
    await timeline.showOutput();
    expect(await playground.valueJson()).toEqual([
      { status: "confirmed", total: 21.5 },
      { status: "confirmed", total: 21.5 },
    ]);

    // "All" means this run: the next run asks again.
    await timeline.open();
    mark = requests.mark();
    await playground.setCode(orderCode(1));
    await playground.runWithShortcut();
    await expect(prompt).toBeVisible();
    await prompt.getByRole("button", { name: "Deny" }).click();
    await expect(playground.status).not.toHaveText("running");
    expect(requests.since(mark).map((r) => r.tool)).not.toContain("place_order");
  });

  test("a tool with a fixed mock answers from it, is marked mocked, and never reaches the server", async ({ page }) => {
    const requests = new DemoToolCalls(page);
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("lab");
    await timeline.open();
    await timeline.mockValue("lab", "echo", { message: "from the mock", data: { mocked: true } });
    await expect(timeline.views.getByRole("tab", { name: "Mocks & approvals (1 mocked)" })).toBeVisible();

    // lab.sleep is not mocked and goes live in the same run: the listener does see this page's calls.
    const mark = requests.mark();
    await playground.setCode(
      [
        'const echoed = await lab.echo({ message: "to the server?" });',
        "const nap = await lab.sleep({ ms: 10 });",
        "return { echoed, slept: nap.sleptMs };",
      ].join("\n"),
    );
    await playground.runWithShortcut();
    await expect(playground.status).toHaveText("ok");
    expect(requests.since(mark)).toEqual([{ server: "lab", tool: "sleep" }]);

    await timeline.openView("Calls");
    await expect(timeline.rows).toHaveCount(2);
    await expect(timeline.call(1)).toHaveAccessibleName("lab.echo, call 1, ok, mock");
    await expect(timeline.call(2)).toHaveAccessibleName("lab.sleep, call 2, ok");
    await timeline.call(1).click();
    const details = timeline.output.getByRole("region", { name: "Call 1 details" });
    await expect(details).toContainText("mocked");
    await expect(details).toContainText("from the mock");

    await timeline.showOutput();
    expect(await playground.valueJson()).toEqual({ echoed: { message: "from the mock", data: { mocked: true } }, slept: 10 });
  });

  test("the chat's run outlives a session of editor runs: Show run still shows its calls, and a run no longer kept says so", async ({ page }) => {
    const playground = new PlaygroundPage(page);
    const timeline = new TimelinePanel(page);
    const chat = new ChatPanel(page);
    await playground.goto();
    await new ServersPanel(page).expectConnected("shipping");
    await chat.setStepMode(false);
    await chat.send(examplePrompt("shipping", 0));
    await expect(chat.conversation).toContainText("SwiftAir Express", { timeout: 20_000 });
    await playground.setCode("return 1;");
    for (let i = 0; i < MAX_HISTORY + 2; i++) {
      await playground.runWithShortcut();
      await expect(playground.status).toHaveText("ok");
    }
    await timeline.showOutput();
    await chat.toolCalls.first().getByRole("button", { name: "Show run" }).click();
    await expect(timeline.output.getByRole("button", { name: /^shipping\.\w+, call 1, ok/ }).first()).toBeVisible();
    const runId = (await timeline.views.getByRole("tab", { name: /^Calls \(/ }).textContent())?.match(/^Calls \((.+)\)$/)?.[1] ?? "";
    expect(runId).not.toBe("");

    // Gone from the session (removed here; evicted past the cap the same way): the view says so.
    await timeline.openView("Runs");
    await timeline.runs.getByRole("button", { name: `Remove ${runId}`, exact: true }).click();
    await chat.toolCalls.first().getByRole("button", { name: "Show run" }).click();
    await expect(page.getByTestId("run-evicted")).toContainText(`The run ${runId} is no longer kept`);
    await page.screenshot({ path: test.info().outputPath("run-evicted.png") });
    await page.getByTestId("run-evicted").getByRole("button", { name: "Back to the live run" }).click();
    await expect(page.getByTestId("run-evicted")).toHaveCount(0);
  });
});
