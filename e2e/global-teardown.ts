import { takeRunningApp } from "./support/state";

export default async function globalTeardown() {
  await takeRunningApp()?.stop();
}
