import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";

describe("configuration", () => {
  it("defaults to the embedded database on loopback port 3000", () => {
    expect(loadConfig({})).toEqual({
      port: 3000, host: "127.0.0.1", databaseUrl: undefined, pgliteDir: "./data/pglite", logLevel: "info", seedDemo: true, rateLimitPerMinute: 6000,
      loginFailuresPerAddress: 200, loginFailuresPerAccount: 10,
    });
  });
  it("reads the login throttle's limits, 0 turning one off", () => {
    expect(loadConfig({ LOGIN_FAILURES_PER_ADDRESS: "0", LOGIN_FAILURES_PER_ACCOUNT: "3" })).toMatchObject({ loginFailuresPerAddress: 0, loginFailuresPerAccount: 3 });
    expect(() => loadConfig({ LOGIN_FAILURES_PER_ACCOUNT: "-1" })).toThrow(/LOGIN_FAILURES_PER_ACCOUNT/);
  });
  it("names every bad value at once", () => {
    try {
      loadConfig({ PORT: "http", DATABASE_URL: "mysql://x", LOG_LEVEL: "loud", SEED_DEMO: "maybe" });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toHaveLength(4);
      expect((err as Error).message).toMatch(/PORT.*\n.*DATABASE_URL.*\n.*LOG_LEVEL.*\n.*SEED_DEMO/);
    }
  });
});
