import type { NextConfig } from "next";

const config: NextConfig = {
  // The embedded launcher and the worker import the same modules; keep server-only
  // packages out of the bundle so they load from node_modules at run time.
  serverExternalPackages: ["postgres"],
  poweredByHeader: false,
  // Types are checked by `npm run typecheck` over the whole repo (tests, worker, scripts too).
  typescript: { ignoreBuildErrors: true },
  // No page may be framed by another site (clickjacking): the CSP for browsers that read it,
  // X-Frame-Options for those that do not.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default config;
