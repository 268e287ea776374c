// Loaded with NODE_OPTIONS="--import <this file>" (Node refuses --cpu-prof there): profiles the
// process's CPU from its start and writes a V8 .cpuprofile into CPU_PROFILE_DIR when it ends.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.start");
let written = false;
// An in-thread inspector session answers synchronously, so this works from the exit event too.
const write = () => {
  if (written) return;
  written = true;
  session.post("Profiler.stop", (err, { profile }) => {
    if (!err)
      writeFileSync(path.join(process.env.CPU_PROFILE_DIR, `${process.pid}.cpuprofile`), JSON.stringify(profile));
  });
};
process.on("beforeExit", write);
process.on("exit", write);
