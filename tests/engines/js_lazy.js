// A JavaScript engine that knows no rules: every legal-plays answer is the unchanged position.
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    console.log(JSON.stringify({ type: "hello", protocol: "1.0", name: "js-lazy", version: "0", rulesets: ["backgammon"] }));
  } else if (msg.type === "bye") {
    process.exit(0);
  } else {
    console.log(JSON.stringify({ type: "plays", id: msg.id, positions: [msg.state.position] }));
  }
});
