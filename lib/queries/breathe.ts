/**
 * Yields to the event loop: the requests that arrived meanwhile are served before the work goes on.
 * Work on a snapshot of every token (a data version's build at 500,000 tokens: a few hundred ms of
 * CPU) runs as steps of a few ms with a breath between them, so no request waits for all of it.
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tokens a pass over every token of a snapshot goes through between two breaths. */
const STEP_TOKENS = 32_768;

/** Whether a pass over a snapshot's tokens that has done `done` of them and next does up to `next` ends a step. */
export const endsStep = (done: number, next: number) => Math.floor(done / STEP_TOKENS) < Math.floor(next / STEP_TOKENS);
