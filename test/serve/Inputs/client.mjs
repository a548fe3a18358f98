// Drives `rngd-qwen3 serve` (at $RNGD_SERVER) with OpenAI's official npm client: the model
// list, concurrent streaming and plain chat completions (greedy), a completion, and the
// refusals, each printed as a line the lit test checks. Writes the greedy texts as JSON to
// argv[2] for the comparison with the command line.
import fs from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const OpenAI = require(process.argv[3] + "/node_modules/openai").default;
const base = process.env.RNGD_SERVER;
const client = new OpenAI({ baseURL: base + "/v1", apiKey: "none", maxRetries: 0 });

const models = await client.models.list();
const model = models.data[0].id;
console.log("models:", models.data.map((m) => m.id).join(","));

const prompts = ["Hello", "What is 2 + 2?", "Name a colour.", "Count to three.", "Hi there"];
async function plain(text) {
  const r = await client.chat.completions.create({
    model, messages: [{ role: "user", content: text }], max_tokens: 4, temperature: 0 });
  return { text: r.choices[0].message.content, finish: r.choices[0].finish_reason,
           usage: r.usage, object: r.object };
}
async function streamed(text) {
  const s = await client.chat.completions.create({
    model, messages: [{ role: "user", content: text }], max_tokens: 4, temperature: 0,
    stream: true, stream_options: { include_usage: true } });
  let out = "", finish = null, usage = null, chunks = 0;
  for await (const chunk of s) {
    chunks++;
    if (chunk.usage) usage = chunk.usage;
    for (const c of chunk.choices) {
      out += c.delta?.content ?? "";
      if (c.finish_reason) finish = c.finish_reason;
    }
  }
  return { text: out, finish, usage, chunks };
}
const results = await Promise.all(prompts.map((p, i) => (i % 2 ? plain(p) : streamed(p))));
results.forEach((r, i) => console.log(`chat ${i} ${i % 2 ? "plain" : "stream"}: finish ${r.finish}` +
  ` completion_tokens ${r.usage.completion_tokens} total ${r.usage.total_tokens}` +
  ` usage adds up ${r.usage.prompt_tokens + r.usage.completion_tokens === r.usage.total_tokens}`));
fs.writeFileSync(process.argv[2], JSON.stringify(results.map((r) => r.text)));

const c = await client.completions.create({ model, prompt: "The sky is", max_tokens: 3, temperature: 0 });
console.log(`completion: ${c.object} finish ${c.choices[0].finish_reason} tokens ${c.usage.completion_tokens}`);

async function refusal(what, call) {
  try {
    await call();
    console.log(`${what}: accepted`);
  } catch (e) {
    console.log(`${what}: ${e.status} ${e.error?.type ?? e.type} param ${e.error?.param ?? e.param}`);
  }
}
await refusal("temperature 3", () => client.chat.completions.create({
  model, messages: [{ role: "user", content: "x" }], temperature: 3 }));
await refusal("no messages", () => client.chat.completions.create({ model, messages: [] }));
await refusal("unknown model", () => client.chat.completions.create({
  model: "gpt-17", messages: [{ role: "user", content: "x" }] }));
await refusal("max_tokens 0", () => client.chat.completions.create({
  model, messages: [{ role: "user", content: "x" }], max_tokens: 0 }));
await refusal("bad role", () => client.chat.completions.create({
  model, messages: [{ role: "wizard", content: "x" }] }));
for (const [what, body] of [["malformed JSON", "{\"model\": "], ["body too large", "x".repeat(2 << 20)]]) {
  const r = await fetch(base + "/v1/chat/completions", { method: "POST", body,
    headers: { "Content-Type": "application/json" } });
  const j = await r.json();
  console.log(`${what}: ${r.status} ${j.error.type}`);
}
