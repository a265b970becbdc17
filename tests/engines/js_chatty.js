// A JavaScript engine that logs to stdout before its hello (a common slip: console.log is stdout).
const readline = require("readline");
console.log("engine ready");
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    console.log(JSON.stringify({ type: "hello", protocol: "1.0", name: "js-chatty", version: "0", rulesets: ["backgammon"] }));
  } else if (msg.type === "bye") {
    process.exit(0);
  } else {
    console.log(JSON.stringify({ type: "plays", id: msg.id, positions: [msg.state.position] }));
  }
});
