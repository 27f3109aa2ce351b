// A second, independent MCP client for `sift mcp`: the official TypeScript SDK drives the real process over stdio.
// Usage: node client.mjs JAVA CLASSPATH SIFT_HOME. Prints one line per check and exits non-zero when one fails.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";

const [java, classpath, home] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: java,
  args: ["-Xmx1g", "-cp", classpath, "dev.sift.cli.Main", "mcp"],
  env: { ...process.env, SIFT_HOME: home, SIFT_LLM_PROVIDER: "none" },
  stderr: "inherit",
});
const client = new Client({ name: "sift-node-check", version: "1.0.0" });
const options = { timeout: 120000 };
let failed = 0;

async function check(name, body) {
  try {
    await body();
    console.log(`ok ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED ${name}: ${e && e.message}`);
  }
}

async function rejects(call, code, message) {
  try {
    await call();
  } catch (e) {
    assert.equal(e.code, code);
    assert.ok(e.message.includes(message), e.message);
    return;
  }
  assert.fail("the call was not refused");
}

try {
  await client.connect(transport, options);
  await check("initialize", async () => assert.equal(client.getServerVersion().name, "sift"));
  await check("list tools", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["ask", "sql", "list_datasets", "describe_dataset"]);
    assert.deepEqual(tools[0].inputSchema.required, ["question"]);
  });
  await check("ask how many loans", async () => {
    const r = await client.callTool({ name: "ask", arguments: { question: "How many loans are there?" } }, undefined, options);
    const s = r.structuredContent;
    assert.equal(s.kind, "answer");
    assert.ok(s.answer.startsWith("There are 691 loans."), s.answer);
    assert.equal(s.evidence[0].sql, "SELECT count(*) AS n FROM loan");
    assert.deepEqual(s.evidence[0].rows, [[691]]);
    const trace = await client.readResource({ uri: s.trace_uri });
    assert.ok(trace.contents[0].text.includes("SELECT count(*) AS n FROM loan"));
  });
  await check("clarification and its reply", async () => {
    const asked = (await client.callTool({ name: "ask", arguments: { question: "What is the total amount?" } },
      undefined, options)).structuredContent;
    assert.equal(asked.kind, "clarification");
    const reply = (await client.callTool({ name: "ask", arguments: { question: "loans", session: asked.session } },
      undefined, options)).structuredContent;
    assert.equal(reply.kind, "answer");
    assert.equal(reply.turn.question, "What is the total amount of loans?");
  });
  await check("a write is refused", async () => {
    const r = await client.callTool({ name: "sql", arguments: { query: "DROP TABLE loan" } }, undefined, options);
    assert.equal(r.isError, true);
    assert.ok(r.content[0].text.startsWith("The query was not run: Refused:"), r.content[0].text);
  });
  await check("bad arguments", async () => {
    await rejects(() => client.callTool({ name: "sql", arguments: { sql: "SELECT 1" } }, undefined, options), -32602,
      "sql has no argument 'sql'. Its arguments are: query (string, required)");
    await rejects(() => client.callTool({ name: "ask", arguments: {} }, undefined, options), -32602,
      "ask needs argument 'question'");
  });
} catch (e) {
  failed++;
  console.log(`FAILED to talk to sift mcp: ${e && e.message}`);
} finally {
  await client.close();
}
console.log(failed === 0 ? "all checks passed" : `${failed} checks failed`);
process.exit(failed === 0 ? 0 : 1);
