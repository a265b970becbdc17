// The protocol loop every third-party driver here shares (spec/protocol.md): a driver gives its engine's name,
// version and rulesets and a `plays(state)` that lists the positions a roll can leave; every other query is
// answered `skip`, and an exception of the engine is an `error` naming it, never a dead process.
import readline from "node:readline";

export const OTHER = { white: "black", black: "white" };

// A protocol position from each side's 24 counts (own numbering, index p - 1 for point p); off makes 15.
export function position(white, black) {
  const off = (points) => 15 - points.reduce((a, b) => a + b, 0);
  return { white, black, bar: { white: 0, black: 0 }, off: { white: off(white), black: off(black) } };
}

// The Narde numbering: a side's point p is the other side's point p - 12 above 12, else p + 12.
export const across = (p) => (p > 12 ? p - 12 : p + 12);

// The distinct positions among those listed, the unchanged one when there are none.
export function distinct(positions, state) {
  const seen = new Map();
  for (const p of positions) seen.set(JSON.stringify([p.white, p.black, p.off]), p);
  if (seen.size === 0) return [state.position];
  return [...seen.values()];
}

// Serve the protocol on stdin and stdout for one engine.
export function serve({ name, version, rulesets, plays }) {
  const say = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.type === "hello") {
      say({ type: "hello", protocol: "1.1", name, version, rulesets, capabilities: ["legal-plays"] });
    } else if (msg.type === "bye") {
      lines.close();
    } else if (msg.type !== "legal-plays") {
      say({ type: "skip", id: msg.id, reason: `${name} is driven for legal plays only` });
    } else {
      try {
        say({ type: "plays", id: msg.id, positions: distinct(plays(msg.state, msg.rules), msg.state) });
      } catch (err) {
        say({ type: "error", id: msg.id, message: `${name}: ${String(err && err.message ? err.message : err)}` });
      }
    }
  });
  lines.on("close", () => process.exit(0));
}

// The checkout and the commit a driver is started with: `node driver.mjs CHECKOUT COMMIT`.
export function args() {
  const [checkout, commit] = process.argv.slice(2);
  if (!checkout || !commit) {
    process.stderr.write("usage: node driver.mjs CHECKOUT COMMIT\n");
    process.exit(2);
  }
  return { checkout, commit };
}
