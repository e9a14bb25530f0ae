// The test set `npm run mutate` draws from: the whole suite but the tests that exercise the
// shipped package or an installed Pi command line (slow, and they test packaging, not logic).
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: ["**/node_modules/**", "test/package/**", "test/host-pi/pi-cli.test.ts"],
    },
  }),
);
