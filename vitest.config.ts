import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "props/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // builds the CLI from the current sources once; tests spawn it with plain node (test/support/cli.ts)
    globalSetup: ["test/support/global-setup.ts"],
  },
});
