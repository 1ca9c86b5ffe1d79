import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../server/config/settings.ts";
import { DEFAULT_RETRY_SCHEDULE } from "../../server/config/settings.ts";
import { JITTER, nextAttemptAt } from "../../server/webhooks/backoff.ts";
import { readWebhookSettings } from "../../server/webhooks/settings.ts";

describe("WEBHOOK_RETRY_SCHEDULE", () => {
  const read = (raw: string | undefined) => SETTINGS.webhooks.retrySchedule.read(raw);

  it("defaults to about a day when unset or empty", () => {
    expect(read(undefined).value).toEqual(DEFAULT_RETRY_SCHEDULE);
    expect(read("  ").value).toEqual(DEFAULT_RETRY_SCHEDULE);
    const total = DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(30);
  });

  it("reads comma-separated seconds, spaces and decimals allowed", () => {
    expect(read("5, 300,1800")).toEqual({ value: [5, 300, 1800] });
    expect(read("0.2,0.5")).toEqual({ value: [0.2, 0.5] });
  });

  it.each([
    ["5,,300", 'entry 2 is ""'],
    ["5,abc", 'entry 2 is "abc"'],
    ["0", 'entry 1 is "0"'],
    ["-5", 'entry 1 is "-5"'],
    ["5,1e3", 'entry 2 is "1e3"'],
    ["5,Infinity", 'entry 2 is "Infinity"'],
    ["700000", "longer than 7 days"],
    [Array(101).fill("1").join(","), "at most 100"],
  ])("explains what is wrong with %j", (raw, part) => {
    const { problem, value } = read(raw);
    expect(value).toBeUndefined();
    expect(problem).toContain("WEBHOOK_RETRY_SCHEDULE must be comma-separated positive seconds");
    expect(problem).toContain(part);
  });
});

describe("nextAttemptAt", () => {
  const now = new Date("2016-01-20T09:00:00Z");

  it("waits the scheduled seconds after each failed attempt, then gives up", () => {
    const mid = () => 0.5; // no jitter
    expect(nextAttemptAt(1, now, [5, 300], mid)).toEqual(new Date(now.getTime() + 5_000));
    expect(nextAttemptAt(2, now, [5, 300], mid)).toEqual(new Date(now.getTime() + 300_000));
    expect(nextAttemptAt(3, now, [5, 300], mid)).toBeUndefined();
    expect(nextAttemptAt(DEFAULT_RETRY_SCHEDULE.length + 1, now)).toBeUndefined();
  });

  it("spreads retries by +-20%", () => {
    const at = (r: number) => nextAttemptAt(1, now, [100], () => r)!.getTime() - now.getTime();
    expect(at(0)).toBe(100_000 * (1 - JITTER));
    expect(at(0.999999)).toBeCloseTo(100_000 * (1 + JITTER), -1);
    const samples = Array.from({ length: 200 }, () => nextAttemptAt(1, now, [100])!.getTime() - now.getTime());
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(80_000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(120_000);
    expect(new Set(samples).size).toBeGreaterThan(100);
  });

  it("rejects a nonsensical attempt number", () => {
    expect(() => nextAttemptAt(0, now)).toThrow(RangeError);
    expect(() => nextAttemptAt(1.5, now)).toThrow(RangeError);
  });
});

describe("readWebhookSettings", () => {
  it("has working defaults", () => {
    expect(readWebhookSettings({})).toEqual({
      settings: {
        retrySchedule: DEFAULT_RETRY_SCHEDULE,
        timeoutMs: 10_000,
        allowPrivateNetworks: false,
        disableAfterFailingDays: 5,
      },
      problems: [],
    });
  });

  it("reads the three variables", () => {
    const { settings, problems } = readWebhookSettings({
      WEBHOOK_RETRY_SCHEDULE: "1,2",
      WEBHOOK_TIMEOUT_MS: "2500",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    });
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      retrySchedule: [1, 2],
      timeoutMs: 2500,
      allowPrivateNetworks: true,
      disableAfterFailingDays: 5,
    });
  });

  it("reports one problem per bad value", () => {
    const { problems } = readWebhookSettings({
      WEBHOOK_RETRY_SCHEDULE: "x",
      WEBHOOK_TIMEOUT_MS: "10s",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "yes",
    });
    expect(problems).toHaveLength(3);
    expect(problems[1]).toContain('WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds 1-120000, got "10s"');
    expect(problems[2]).toContain('WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false, got "yes"');
  });
});
