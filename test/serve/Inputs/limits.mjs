// The refusals that need a server started for them: with --api-key, a missing and a wrong
// bearer token (401) and the right one; with --max-batch 1 --max-queue 1, six requests at once,
// of which at most one runs and one waits, so the others are refused with 429.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const OpenAI = require(process.argv[3] + "/node_modules/openai").default;
const base = process.env.RNGD_SERVER + "/v1";
const messages = [{ role: "user", content: "Hello" }];

async function status(client, extra = {}) {
  try {
    await client.chat.completions.create({ model: "m", messages, max_tokens: 2, ...extra });
    return 200;
  } catch (e) {
    return `${e.status} ${e.error?.code ?? e.code}`;
  }
}
if (process.argv[2] === "key") {
  for (const [what, key] of [["wrong key", "nope"], ["right key", "sesame"]])
    console.log(`${what}: ${await status(new OpenAI({ baseURL: base, apiKey: key, maxRetries: 0 }))}`);
  const r = await fetch(base + "/models");
  console.log(`no key: ${r.status} ${(await r.json()).error.code}`);
} else {
  const client = new OpenAI({ baseURL: base, apiKey: "none", maxRetries: 0 });
  const got = await Promise.all([...Array(6)].map(() => status(client)));
  const refused = got.filter((s) => s === "429 rate_limit_exceeded").length;
  console.log(`six at once: ${got.length - refused} ran, ${refused} refused with 429, ` +
              `at least 4 refused: ${refused >= 4}, at least 1 ran: ${refused < 6}`);
}
