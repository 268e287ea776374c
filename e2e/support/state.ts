/** What the global setup leaves for the teardown; both run in the runner process. */
type RunningApp = { stop: () => Promise<void> };

const holder = globalThis as typeof globalThis & { __onchainIntelE2e?: RunningApp };

export const keepRunningApp = (app: RunningApp) => {
  holder.__onchainIntelE2e = app;
};

export const takeRunningApp = (): RunningApp | undefined => holder.__onchainIntelE2e;
