/** The part of solc-js (bundled compiler, no downloads) that compile.ts uses. */
declare module "solc" {
  const solc: { compile(input: string): string; version(): string };
  export default solc;
}
